"""Every DynamoDB access goes through tandem/store: nothing outside it spells a key prefix or
calls DynamoDB's client itself, and the services do not import each other in circles."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "layers/core/python/tandem"
OUTSIDE_STORE = [
    p
    for p in [*PACKAGE.rglob("*.py"), *(ROOT / "functions").rglob("*.py")]
    if PACKAGE / "store" not in p.parents
]
# "BRAND#", f"REL#{...}", "USER#" ...: an upper-case key prefix ending in '#' inside a string.
KEY_PREFIX = re.compile(r"""^[A-Z][A-Z_-]*#""")


def _strings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    yield node.lineno, part.value


def test_no_key_prefix_is_spelled_outside_the_store():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in OUTSIDE_STORE
        for line, text in _strings(ast.parse(path.read_text()))
        if KEY_PREFIX.match(text)
    ]
    assert found == []


def test_inside_the_store_only_keys_py_spells_a_key():
    """keys.py is the table's one vocabulary: no other store module spells a key prefix or
    defines a key constant (a module-level *_PK, *_SK, *_PREFIX or ALL_* string) of its own."""
    store_modules = [p for p in (PACKAGE / "store").glob("*.py") if p.name != "keys.py"]
    key_name = re.compile(r"^([A-Z_]+_(PK|SK|PREFIX)|ALL_[A-Z_]+|SK|PK)$")
    found = []
    for path in store_modules:
        tree = ast.parse(path.read_text())
        found += [
            f"{path.relative_to(ROOT)}:{line}: {text!r}"
            for line, text in _strings(tree)
            if KEY_PREFIX.match(text) and "\n" not in text
        ]
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and key_name.match(target.id):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {target.id}")
    assert found == []


def test_no_module_outside_the_store_imports_pynamodb():
    """The store owns its failures (store/errors.py ConditionFailed) and its transactions: a
    service never catches pynamodb's exceptions or builds pynamodb objects."""
    users = sorted(
        str(path.relative_to(ROOT))
        for path in OUTSIDE_STORE
        if any(name == "pynamodb" or name.startswith("pynamodb.") for name in _imports(path))
    )
    assert users == []
    # inside the store, pynamodb's exceptions are read in one place: errors.py
    readers = sorted(p.name for p in (PACKAGE / "store").glob("*.py") if "pynamodb.exceptions" in _imports(p))
    assert readers == ["errors.py"]


def test_no_dynamodb_client_call_outside_the_store():
    calls = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in OUTSIDE_STORE
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"""client\(\s*["']dynamodb["']\s*\)""", line)
    ]
    assert calls == []


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_services_do_not_import_each_other_in_a_circle():
    services = {p.stem: p for p in (PACKAGE / "services").glob("*.py") if p.stem != "__init__"}
    imports = {name: _imports(path) for name, path in services.items()}  # each file parsed once
    graph = {
        name: {other for other in services if f"tandem.services.{other}" in imports[name] and other != name}
        for name in services
    }

    def reaches(start: str, goal: str) -> bool:
        # depth first with one visited set: each service is expanded once per goal (a copy of
        # the path per branch, as this once did, explored every path: 9 CPU s)
        seen: set[str] = set()
        stack = list(graph[start])
        while stack:
            node = stack.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                stack.extend(graph[node])
        return False

    circles = sorted(name for name in graph if reaches(name, name))
    assert circles == []
    assert "brands" not in graph["match_runs"]  # brand lookups are the store's


def test_models_name_their_keys_only_sign_in_services_use_the_builders():
    """Models name their keys (`Brand.key(7)`); only the sign-in services (issue 11, left for
    their owner) still build keys with tandem.store.keys."""
    users = {str(p.relative_to(ROOT)) for p in OUTSIDE_STORE if "tandem.store.keys" in _imports(p)}
    assert users <= {
        "layers/core/python/tandem/services/accounts.py",
        "layers/core/python/tandem/services/sessions.py",
        "layers/core/python/tandem/services/codes.py",
        "layers/core/python/tandem/services/rate_limit.py",
        "layers/core/python/tandem/services/password_links.py",
    }


def test_routes_write_nothing_themselves():
    """Handlers stay thin: every write is a service's (a route reads the caller and answers)."""

    def is_write(call: ast.Call) -> bool:
        name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        keywords = {k.arg for k in call.keywords}
        return bool(keywords & {"actions", "condition"}) or name in {
            "save",
            "update_only",
            "transaction",
            "put_new",
        }

    writes = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in (ROOT / "functions").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and is_write(node)
    ]
    assert writes == []


# The one owner of rights (issue 38): the account types, the rules and the service that reads
# their inputs. Nothing else compares a user's access with the feature-only type.
RIGHTS_OWNER = {
    PACKAGE / "domain/account_types.py",
    PACKAGE / "domain/entitlements.py",
    PACKAGE / "services/entitlements.py",
}
FEATURE_TEST = re.compile(r"""access\s*[!=]=\s*["']feature["']|["']feature["']\s*[!=]=\s*\S*access""")


def test_no_feature_only_test_outside_the_rights_owner():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [*PACKAGE.rglob("*.py"), *(ROOT / "functions").rglob("*.py")]
        if path not in RIGHTS_OWNER
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if FEATURE_TEST.search(line)
    ]
    assert found == []


def test_no_route_module_imports_the_store():
    """Routes get their caller as a Viewer from the door (chalicelib.door, issue 38): they name
    the reads of their use case and make one call; none of them reads or names a stored item."""
    routes = sorted((ROOT / "functions/api/chalicelib/routes").glob("*.py"))
    users = [
        str(path.relative_to(ROOT))
        for path in routes
        if any(name == "tandem.store" or name.startswith("tandem.store.") for name in _imports(path))
    ]
    assert routes and users == []


def test_every_private_route_gets_its_caller_from_the_door():
    """No route builds its caller itself (chalicelib.auth's `caller`, `member_for_brand`, the
    old `admin_only`): each names its reads at the door and is handed a Viewer (or, for a list
    that checks its caller with its own second read, a Pending); admin routes declare ADMIN."""
    routes = sorted((ROOT / "functions/api/chalicelib/routes").glob("*.py"))
    users = [str(path.relative_to(ROOT)) for path in routes if "chalicelib.auth" in _imports(path)]
    assert routes and users == []
    admin_routes = [
        f"{path.name}:{number}"
        for path in routes
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r'route\(bp, "/admin/', line) and "reads.ADMIN" not in line
    ]
    assert admin_routes == []


def test_one_identity_builder():
    """How a brand appears to a viewer (name, logo, description, nameVisible) is decided in
    tandem.domain.identity alone: no service or route applies a mask or re-tests visibility."""
    masks = re.compile(
        r"(?<![.\w])(masked_name|masked_description|masked_text|display_name|name_visible)\(|brand_profile\.(masked_\w+|display_name|name_visible)\("
    )
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [*(PACKAGE / "services").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if masks.search(line)
    ]
    assert found == []
    builders = [p.name for p in (PACKAGE / "domain").rglob("*.py") if "def identity(" in p.read_text()]
    assert builders == ["identity.py"]


def test_the_domain_has_no_circle():
    """No module of tandem.domain imports itself back through others (at any depth, imports
    inside functions included): the rules read bottom-up."""
    domain = {
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in (PACKAGE / "domain").rglob("*.py")
    }

    def targets(path: Path) -> set[str]:
        names = _imports(path)
        return {m for m in domain if m in names or any(n.startswith(m + ".") for n in names)}

    graph = {name: targets(path) - {name} for name, path in domain.items()}
    # a package's __init__ importing its own submodules is no circle
    graph = {n: {t for t in ts if not t.startswith(n + ".")} for n, ts in graph.items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    assert sorted(name for name in graph if reaches(name, name, {name})) == []
