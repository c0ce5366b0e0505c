"""The local stack on what we deploy: the `sam build` output instead of the source tree.

With LOCAL_BUILD_DIR set (e.g. `.aws-sam/build`, what `make sam-build` writes), the stack's
process imports our code as Lambda would: the layer from `<build>/CoreLayer/python` (our
tandem package and its pinned dependencies, compiled, as `make deploy` ships them) and each
function from its own `<build>/<LogicalId>` folder (its CodeUri as sam build laid it out:
app.py and chalicelib for the API, the workflows' packages copied once per function). Nothing
is imported from the source tree's functions/ or layers/: `use()` takes those folders (and
the venv's editable install of the layer) off sys.path before anything imports tandem, and
`check()` fails the start when any module of ours came from elsewhere (the day replay,
tests/bench/day_replay.py, asks the running stack again through GET /__local/modules).

The harness itself (infra/local: moto, the stand-ins, the gateway) still runs from the
repository: it is not deployed. Bytecode is not written into the build (it stays as built).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCE_TREES = (ROOT / "functions", ROOT / "layers")
OURS = ("tandem", "chalicelib", "_fn_")  # our layer package, the API's package, handler modules


def build_dir() -> Path | None:
    """The `sam build` output the stack runs from, or None (the source tree)."""
    given = os.environ.get("LOCAL_BUILD_DIR")
    return Path(given).resolve() if given else None


def layer_dir(build: Path) -> Path:
    return build / "CoreLayer" / "python"


def _under(path: str | Path, roots: tuple[Path, ...]) -> bool:
    resolved = Path(path).resolve()
    return any(resolved == root or root in resolved.parents for root in roots)


def use(build: Path) -> None:
    """Put the built layer first on sys.path and the source tree's functions/ and layers/ off it.
    Call it before anything imports tandem (infra.local.meter does at import)."""
    layer = layer_dir(build)
    if not (layer / "tandem" / "__init__.py").is_file():
        raise SystemExit(f"LOCAL_BUILD_DIR={build}: no built layer at {layer} (run make sam-build)")
    early = sorted(name for name in sys.modules if name.split(".")[0] in ("tandem", "chalicelib"))
    if early:
        raise SystemExit(f"imported before the build was put on the path: {', '.join(early[:5])}")
    sys.path[:] = [str(layer)] + [p for p in sys.path if p and not _under(p, SOURCE_TREES)]
    sys.dont_write_bytecode = True


def strays(build: Path) -> dict[str, str]:
    """Every module of ours (tandem, chalicelib, the handler modules) not loaded from the build,
    and every module at all loaded from the source tree's functions/ or layers/: name -> file."""
    found: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path:
            continue
        ours = name.startswith(OURS)
        if (ours and not _under(path, (build,))) or _under(path, SOURCE_TREES):
            found[name] = path
    return found


def report(build: Path | None) -> dict[str, Any]:
    """GET /__local/modules: where our modules came from."""
    if build is None:
        return {"buildDir": None}
    ours = {
        name: getattr(module, "__file__", None)
        for name, module in list(sys.modules.items())
        if name.startswith(OURS) and getattr(module, "__file__", None)
    }
    return {"buildDir": str(build), "modules": len(ours), "strays": strays(build)}


def check(plan: Any, build: Path, load: Callable[[Any], object]) -> int:
    """Import every function's handler from the build now with `load` (the in-process runtime's
    loader: not lazily, later, from wherever the path then points), then fail if any module of
    ours came from elsewhere. Returns how many modules of ours were loaded."""
    for spec in plan.functions.values():
        if not _under(spec.code_dir, (build,)):
            raise SystemExit(f"{spec.logical_id} runs from {spec.code_dir}, not from the build {build}")
        load(spec)
    stray = strays(build)
    if stray:
        listed = ", ".join(f"{name} ({path})" for name, path in sorted(stray.items())[:8])
        raise SystemExit(f"imported from outside the build {build}: {listed}")
    return report(build)["modules"]
