"""template.yaml is the only description of the system: these checks keep it honest."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from infra.local.template import ROOT, build_plan, load_template
from tests.calendar_pass import faketime_command, faketime_env


def test_api_gateway_routes_match_the_chalice_app_routes():
    from infra.local.lambda_inprocess import load_handler_module

    plan = build_plan()
    app = load_handler_module(plan.functions["ApiFunction"]).load_every_area()
    template_routes = {(r.path, r.method) for r in plan.routes if r.function == "ApiFunction"}
    app_routes = {(path, method) for path, methods in app.routes.items() for method in methods}
    assert template_routes == app_routes


def test_the_template_reads_as_cfn_lint_reads_it():
    """The local stack parses template.yaml with PyYAML and its own short-form constructor
    (cfn-lint's import cost every start 1 s); the result is what cfn-lint's decoder makes."""
    from cfnlint.decode import decode

    expected, problems = decode(str(ROOT / "template.yaml"))
    assert not problems
    assert json.dumps(load_template(), sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_no_proxy_catch_all_resource():
    assert not [r for r in build_plan().routes if "{proxy+}" in r.path]


def test_every_function_handler_exists_in_its_code_uri():
    for spec in build_plan().functions.values():
        module, _, attribute = spec.handler.rpartition(".")
        path = spec.code_dir.joinpath(*module.split(".")).with_suffix(".py")
        assert path.is_file(), f"{spec.logical_id}: {path} missing"
        assert f"def {attribute}" in path.read_text() or f"{attribute} =" in path.read_text()


def test_state_machines_come_from_files_with_every_substitution_resolved():
    template = load_template()
    for logical_id, machine in build_plan().state_machines.items():
        props = template["Resources"][logical_id]["Properties"]
        assert "Definition" not in props, "never inline ASL in the template"
        assert (ROOT / props["DefinitionUri"]).is_file()
        definition = json.loads(machine.definition)
        assert "${" not in machine.definition
        for state in definition["States"].values():
            if state["Type"] == "Task":
                assert state.get("Retry"), f"{logical_id}: a task without Retry"


def test_layer_requirements_keep_heavy_clients_out_of_the_api_start_up_path():
    # stripe, pywebpush and slack_sdk are imported inside functions, never at module level.
    api_sources = list((ROOT / "functions/api").rglob("*.py")) + list(
        (ROOT / "layers/core/python/tandem").rglob("*.py")
    )
    for source in api_sources:
        for line in source.read_text().splitlines():
            if not line.startswith((" ", "\t")):
                assert not line.startswith(
                    (
                        "import stripe",
                        "from stripe",
                        "import pywebpush",
                        "from pywebpush",
                        "import slack_sdk",
                        "from slack_sdk",
                    )
                ), source
    assert importlib.util.find_spec("stripe") is not None  # installed, just not eagerly imported


@pytest.mark.long
def test_the_lints_pass_on_any_day_and_a_deploy_stops_on_a_retired_runtime():
    """Issue 36: cfn-lint judges the Lambda runtime by today's date (python3.11 is deprecated on
    2027-06-30), so from that day every `make test` went red whatever changed. template.yaml's
    Metadata leaves those rules out of the lints; `make runtime-dates`, which `make deploy` runs
    first, checks them on the real date. Both at a fixed date past the retirement (libfaketime)."""
    later = "2028-02-29 12:00:00"
    lint = [str(Path(sys.executable).with_name("cfn-lint")), "--regions", "us-east-1"]
    dated = load_template()["Metadata"]["cfn-lint"]["config"]["ignore_checks"]
    assert dated == ["W2531", "E2531", "E2533"]
    checks = ["--mandatory-checks", *dated]
    runs = [
        subprocess.Popen(
            [*faketime_command(later), *lint, *extra, "--", "template.yaml"],
            cwd=ROOT,
            env=faketime_env(later),
            stdout=subprocess.PIPE,
            text=True,
        )
        for extra in ([], checks)
    ]
    (plain, _), (retired, _) = (run.communicate(timeout=120) for run in runs)
    assert runs[0].returncode == 0, plain
    assert runs[1].returncode != 0 and "Runtime 'python3.11' was deprecated on '2027-06-30'" in retired
    makefile = (ROOT / "Makefile").read_text()
    assert f"RUNTIME_DATES := {' '.join(dated)}\n" in makefile  # the rules the Metadata leaves out
    assert "deploy: deps build-web runtime-dates" in makefile
