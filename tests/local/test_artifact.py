"""The local stack on the `sam build` output (infra/local/artifact.py): our code imported from
the build only, and a module from the source tree's functions/ or layers/ caught."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from infra.local import artifact
from infra.local.template import build_plan

ROOT = Path(__file__).resolve().parents[2]


def _fake_build(tmp_path: Path) -> Path:
    build = tmp_path / "build"
    package = build / "CoreLayer" / "python" / "tandem"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("FROM_BUILD = True\n")
    return build


def test_the_built_layer_wins_over_the_source_tree_and_the_editable_install(tmp_path: Path) -> None:
    build = _fake_build(tmp_path)
    code = (
        "import sys; from pathlib import Path; from infra.local import artifact\n"
        f"sys.path.insert(0, {str(ROOT / 'layers/core/python')!r})\n"  # as the stack used to
        f"artifact.use(Path({str(build)!r}))\n"
        f"trees = ({str(ROOT / 'layers')!r}, {str(ROOT / 'functions')!r})\n"
        "left = [p for p in sys.path if p.startswith(trees)]\n"
        "import tandem; print(tandem.__file__, tandem.FROM_BUILD, len(left))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(build / "CoreLayer/python/tandem/__init__.py"), "True", "0"]


def test_using_a_build_after_tandem_was_imported_fails_loudly(tmp_path: Path) -> None:
    import tandem  # noqa: F401 (the test process has it from the source tree)

    with pytest.raises(SystemExit, match="imported before the build"):
        artifact.use(_fake_build(tmp_path))


def test_a_module_of_ours_from_outside_the_build_is_a_stray(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = _fake_build(tmp_path)
    from_build = types.ModuleType("tandem._probe_built")
    from_build.__file__ = str(build / "CoreLayer/python/tandem/_probe_built.py")
    from_source = types.ModuleType("chalicelib._probe_source")
    from_source.__file__ = str(ROOT / "functions/api/chalicelib/_probe_source.py")
    helper = types.ModuleType("helper_from_functions")  # not ours by name, but from functions/
    helper.__file__ = str(ROOT / "functions/workflows/match_run/_probe.py")
    for module in (from_build, from_source, helper):
        monkeypatch.setitem(sys.modules, module.__name__, module)

    found = artifact.strays(build)

    assert "tandem._probe_built" not in found
    assert found["chalicelib._probe_source"] == from_source.__file__
    assert found["helper_from_functions"] == helper.__file__
    assert "tandem" in found  # this test process imported the source tree's layer


def test_every_function_runs_from_its_own_folder_of_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCAL_BUILD_DIR", str(tmp_path))
    plan = build_plan()
    assert plan.functions
    for spec in plan.functions.values():
        assert spec.code_dir == tmp_path.resolve() / spec.logical_id
    monkeypatch.delenv("LOCAL_BUILD_DIR")
    assert build_plan().functions["ApiFunction"].code_dir == ROOT / "functions/api"
