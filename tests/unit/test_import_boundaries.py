"""What a module depends on is named at its top (issue 38): the app (functions/ and the layer's
tandem package) imports inside functions at most MAX_IN_FUNCTION times (a heavy library loaded
by the function that uses it: numpy, stripe, slack_sdk, pywebpush; what every caller check must
not load), no module imports itself back through others at module level (the circles in-function
imports hid; tandem.domain's, in-function imports included, is test_store_boundaries'
test_the_domain_has_no_circle), and the API's area table (app.py AREAS: a route module is
imported on the first request to one of its paths) names the module of every route."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYER = ROOT / "layers/core/python"
API = ROOT / "functions/api"
MAX_IN_FUNCTION = 60


def _app_sources() -> list[Path]:
    return sorted([*(ROOT / "functions").rglob("*.py"), *(LAYER / "tandem").rglob("*.py")])


def in_function_imports(source: str) -> int:
    """Import statements inside a function's body (nested functions' too), each counted once."""
    seen: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            seen.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom))
    return len(seen)


def test_in_function_imports_are_counted():
    source = "import os\ndef f():\n    import json\n    def g():\n        from re import compile\n"
    assert in_function_imports(source) == 2


def test_the_app_imports_inside_functions_at_most_the_bar():
    counts = {p: in_function_imports(p.read_text()) for p in _app_sources()}
    total = sum(counts.values())
    worst = sorted(((n, str(p.relative_to(ROOT))) for p, n in counts.items() if n), reverse=True)[:8]
    assert total <= MAX_IN_FUNCTION, f"{total} imports inside functions; the most: {worst}"


def _modules() -> dict[str, Path]:
    found = {}
    for base, package in ((LAYER, "tandem"), (API, "chalicelib")):
        for path in (base / package).rglob("*.py"):
            found[".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")] = path
    return found


def module_level_imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of ours `module` imports when it is imported: its top level (not under `if
    TYPE_CHECKING`), a submodule's packages included (importing a.b.c runs a/b/__init__)."""
    targets: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        for end in range(2, len(parts) + 1):
            target = ".".join(parts[:end])
            if target in known and target != module and not module.startswith(target + "."):
                targets.add(target)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    add(submodule if submodule in known else node.module)
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)

    visit(ast.parse(path.read_text()).body)
    return targets


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strong(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                strong(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for node in graph:
            if node not in index:
                strong(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_app_imports_itself_back_at_module_level():
    modules = _modules()
    graph = {name: module_level_imports(path, name, set(modules)) for name, path in modules.items()}
    assert circles(graph) == []


@pytest.fixture(scope="module")
def api_app():
    """The API function's module as the tests load it (one app per process: its route modules'
    blueprints are registered on that app)."""
    from infra.local.lambda_inprocess import load_handler_module
    from infra.local.template import build_plan

    module = load_handler_module(build_plan().functions["ApiFunction"])
    module.load_every_area()
    return module


def test_the_area_table_names_the_module_of_every_route(api_app):
    wrong = sorted(
        (path, method, entry.view_function.__module__, api_app.area_of(path))
        for path, methods in api_app.app.routes.items()
        for method, entry in methods.items()
        if entry.view_function.__module__ != f"chalicelib.routes.{api_app.area_of(path)}"
    )
    assert wrong == []
    route_modules = {p.stem for p in (API / "chalicelib/routes").glob("*.py") if p.stem != "__init__"}
    assert set(api_app.AREAS) == route_modules
