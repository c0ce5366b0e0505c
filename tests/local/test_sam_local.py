"""`sam local` on the local stack's data (infra/sam_local.py, README "With Docker: sam local"),
checked without Docker: the env-vars file, the sam-local template, the sample events under
events/, and that the pinned SAM CLI takes the options make sam-local passes. (What needs
sam build's output runs in make ci-sam: sam-local-check.)"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from infra import sam_local
from infra.local.stack import moto_endpoint
from infra.local.template import ROOT, build_plan
from tandem import config

ENDPOINT = "http://host.docker.internal:5005"
EVENTS = ROOT / "events"
API_FUNCTIONS = {"ApiFunction", "StripeWebhookFunction"}  # sam local start-api serves these


def _env_file() -> dict[str, dict[str, str]]:
    return sam_local.environments(ENDPOINT, "http://127.0.0.1:8080")


def _required_by_module(code_dir: Path) -> set[str]:
    """The per-function variables a function's modules check at import (settings().require)."""
    names: set[str] = set()
    for source in code_dir.rglob("*.py"):
        for call in re.findall(r"settings\(\)\.require\(([^)]*)\)", source.read_text()):
            names |= {config.PER_FUNCTION[n] for n in re.findall(r'"([a-z_]+)"', call)}
    return names


def test_the_env_file_gives_every_function_every_variable_it_reads():
    plan = build_plan()
    envs = _env_file()
    assert set(envs) == set(plan.functions)
    for logical_id, env in envs.items():
        spec = plan.functions[logical_id]
        # config.load is what each function's module runs at import: it names what is missing
        settings = config.load({**env, "AWS_REGION": "eu-west-2"})
        assert settings.stage == "local", logical_id
        assert settings.endpoint_url == ENDPOINT, logical_id
        assert set(config.REQUIRED.values()) <= set(env), logical_id
        for variable in _required_by_module(spec.code_dir):
            assert env.get(variable), f"{logical_id} needs {variable}"
        # the same names and values as the local stack's table, queue, secrets, state machines
        for name, value in spec.environment.items():
            if name not in ("SITE_URL", "NOTIFICATIONS_QUEUE_URL"):
                assert env[name] == value, (logical_id, name)
        assert env["NOTIFICATIONS_QUEUE_URL"].endswith("/" + plan.queues["NotificationsQueue"]["name"])
        assert env["SITE_URL"] == "http://127.0.0.1:8080"
        assert env["ASSETS_UPLOAD_URL"] == "http://127.0.0.1:8080/__local/assets-upload"


def test_the_state_machine_arns_are_only_where_template_yaml_puts_them():
    envs = _env_file()
    assert envs["SchedulerFunction"]["NIGHTLY_MATCH_RUN_STATE_MACHINE_ARN"].endswith(
        ":tandem-local-match-nightly"
    )
    assert "BILLING_STATE_MACHINE_ARN" in envs["StripeWebhookFunction"]
    assert "BILLING_STATE_MACHINE_ARN" not in envs["ApiFunction"]


def test_the_sam_local_template_declares_the_local_only_variables_on_every_function():
    built = {
        "Resources": {
            "Fn": {
                "Type": "AWS::Serverless::Function",
                "Properties": {"Environment": {"Variables": {"X": "1"}}},
            },
            "Bare": {"Type": "AWS::Serverless::Function", "Properties": {"Handler": "app.handler"}},
            "Table": {"Type": "AWS::DynamoDB::Table", "Properties": {"TableName": {"Ref": "Stage"}}},
        }
    }
    out = sam_local.sam_local_template(built, list(sam_local.LOCAL_ONLY))
    assert out["Resources"]["Fn"]["Properties"]["Environment"]["Variables"] == {
        "X": "1",
        "AWS_ENDPOINT_URL": "",
        "ASSETS_UPLOAD_URL": "",
    }
    assert set(out["Resources"]["Bare"]["Properties"]["Environment"]["Variables"]) == set(
        sam_local.LOCAL_ONLY
    )
    assert out["Resources"]["Table"] == built["Resources"]["Table"]
    assert "Environment" not in built["Resources"]["Bare"]["Properties"]  # the input is untouched


def test_what_sam_cli_would_give_a_container_is_compared_with_the_env_file():
    envs = {"Fn": {"AWS_ENDPOINT_URL": ENDPOINT, "STAGE": "local"}}
    routes = [f"{r.method} {r.path} {r.function}" for r in build_plan().routes]
    assert sam_local.compare_with_sam({"env": {"Fn": dict(envs["Fn"])}, "routes": routes}, envs) == []
    dropped = {"env": {"Fn": {"STAGE": "local"}}, "routes": routes[1:]}
    assert sam_local.compare_with_sam(dropped, envs) == [
        "Fn: sam local would not give it AWS_ENDPOINT_URL from the env-vars file",
        f"sam local start-api would not mount {routes[0]}",
    ]


def test_moto_listens_on_loopback_unless_told_and_the_stack_reaches_it_there():
    assert moto_endpoint("127.0.0.1", 5005) == "http://127.0.0.1:5005"
    assert moto_endpoint("0.0.0.0", 5005) == "http://127.0.0.1:5005"
    assert moto_endpoint("172.17.0.1", 5005) == "http://172.17.0.1:5005"  # the Docker bridge only


def test_check_build_names_a_function_whose_handler_does_not_import(tmp_path):
    build = tmp_path / "build"
    (build / "CoreLayer/python").mkdir(parents=True)
    (build / "NotifierFunction").mkdir()
    (build / "NotifierFunction/app.py").write_text("import not_in_the_layer\n\nhandler = print\n")
    (build / "template.yaml").write_text(
        textwrap.dedent(
            """\
            Resources:
              NotifierFunction:
                Type: AWS::Serverless::Function
                Properties: {CodeUri: NotifierFunction, Handler: app.handler}
            """
        )
    )
    problems = sam_local.check_build(build)
    assert any(
        p.startswith("NotifierFunction: app.handler does not import") and "not_in_the_layer" in p
        for p in problems
    )
    assert "ApiFunction: in template.yaml but not in the build" in problems


# ---------------------------------------------------------------- the sample events


def _events() -> dict[str, list[Path]]:
    return {folder.name: sorted(folder.glob("*.json")) for folder in EVENTS.iterdir() if folder.is_dir()}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_every_worker_function_has_a_sample_event_and_every_folder_is_a_function():
    plan = build_plan()
    events = _events()
    assert set(events) <= set(plan.functions)
    assert set(plan.functions) - API_FUNCTIONS <= set(events)
    assert all(events.values())


def test_the_scheduler_events_are_the_schedules_inputs():
    assert {json.dumps(_load(p)) for p in _events()["SchedulerFunction"]} == {
        json.dumps(s.input) for s in build_plan().schedules
    }


def _task_inputs() -> dict[str, set[str]]:
    """The keys of the input each state machine task gives its function, from the ASL."""
    plan = build_plan()
    by_arn = {
        f"arn:aws:lambda:eu-west-2:123456789012:function:{f.name}": f.logical_id
        for f in plan.functions.values()
    }
    found: dict[str, set[str]] = {}

    def walk(states: dict, item: set[str] | None) -> None:
        for state in states.values():
            if state["Type"] == "Map":
                selector = state.get("ItemSelector") or state.get("Parameters") or {}
                inner = state.get("ItemProcessor") or state.get("Iterator")
                walk(inner["States"], {k.removesuffix(".$") for k in selector})
            elif state["Type"] == "Task":
                params = state["Parameters"]
                payload = params.get("Payload")
                keys = {k.removesuffix(".$") for k in payload} if payload is not None else item
                found[by_arn[params["FunctionName"]]] = keys

    for machine in plan.state_machines.values():
        walk(json.loads(machine.definition)["States"], None)
    return found


SERVICES = {  # handler -> (service module, function) it unpacks its event for
    "match_run.handlers.prepare": ("match_runs", "prepare"),
    "match_run.handlers.score_batch": ("match_runs", "score_batch"),
    "match_run.handlers.finalize": ("match_runs", "finalize"),
    "match_run.handlers.mark_failed": ("match_runs", "mark_failed"),
    "match_run.handlers.nightly_plan": ("match_runs", "nightly_plan"),
    "match_run.handlers.nightly_rebuild_shard": ("match_runs", "nightly_rebuild_shard"),
    "match_run.handlers.nightly_batch": ("match_runs", "nightly_batch"),
    "billing.handlers.process_event": ("stripe_events", "process"),
    "billing.handlers.mark_failed": ("stripe_events", "mark_failed"),
}


def test_every_workflow_event_has_exactly_what_its_state_machine_task_passes():
    inputs = _task_inputs()
    assert len(inputs) == len(SERVICES)
    for logical_id, keys in inputs.items():
        for path in _events()[logical_id]:
            assert set(_load(path)) == keys, path


def test_every_workflow_event_unpacks_in_its_handler(aws, monkeypatch):
    import importlib

    from infra.local import lambda_inprocess

    for logical_id in _task_inputs():
        spec = aws.functions[logical_id]
        module, name = SERVICES[spec.handler]
        calls: list[tuple] = []

        def record(*args, _calls=calls, **kwargs):
            _calls.append((args, kwargs))
            return {"failed": []}

        monkeypatch.setattr(importlib.import_module(f"tandem.services.{module}"), name, record)
        for path in _events()[logical_id]:
            calls.clear()
            result, errored, logs = lambda_inprocess.invoke(spec, _load(path))
            assert not errored, (path, result, logs)
            assert len(calls) == 1, path
            args = calls[0][0]
            assert all(isinstance(a, (str, int, list)) for a in args), (path, args)


def test_the_envelope_events_parse_as_the_event_models_powertools_reads():
    from aws_lambda_powertools.utilities.parser import parse
    from aws_lambda_powertools.utilities.parser.models import APIGatewayProxyEventModel, SnsModel, SqsModel

    events = _events()
    for path in events["NotifierFunction"]:
        for record in parse(event=_load(path), model=SqsModel).Records:
            assert json.loads(record.body)["channel"], path
    for path in events["EmailEventsFunction"]:
        for record in parse(event=_load(path), model=SnsModel).Records:
            assert json.loads(record.Sns.Message)["eventType"] in ("Bounce", "Complaint"), path
    for path in events["ApiFunction"]:
        event = parse(event=_load(path), model=APIGatewayProxyEventModel)
        assert event.requestContext.resourcePath == event.resource, path


@pytest.mark.delivery
def test_the_sample_events_do_in_the_handlers_what_they_say(aws):
    from infra.local import lambda_inprocess
    from tests.functional.helpers import sent_mail

    def invoke(logical_id: str, name: str):
        result, errored, logs = lambda_inprocess.invoke(
            aws.functions[logical_id], _load(EVENTS / logical_id / name)
        )
        assert not errored, (logical_id, result, logs)
        return result

    assert invoke("NotifierFunction", "email.json") == {"batchItemFailures": []}
    assert [
        m.subject for m in sent_mail() if "demo@tandem.local" in m.destinations.get("ToAddresses", [])
    ] == ["Hello from sam local"]
    assert invoke("EmailEventsFunction", "bounce.json") == {"suppressed": 1}
    answer = invoke("ApiFunction", "health.json")
    assert answer["statusCode"] == 200, answer
    assert invoke("SchedulerFunction", "fail-stuck-match-runs.json")["job"] == "fail-stuck-match-runs"


SAM = ROOT / ".venv-sam/bin/sam"
# The options make sam-local and the README's sam local invoke lines pass
SAM_LOCAL_OPTIONS = {
    "start-api": [
        "--env-vars",
        "--region",
        "--parameter-overrides",
        "--add-host",
        "--warm-containers",
        "--port",
    ],
    "invoke": ["--env-vars", "--event", "--region", "--parameter-overrides", "--add-host"],
}


@pytest.mark.skipif(not SAM.exists(), reason=".venv-sam is not installed (make test-deps installs SAM CLI)")
@pytest.mark.parametrize("command", sorted(SAM_LOCAL_OPTIONS))
def test_the_pinned_sam_cli_runs_and_takes_the_options_make_sam_local_passes(command):
    import os
    import subprocess

    done = subprocess.run(  # our own pinned SAM CLI
        [str(SAM), "local", command, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "SAM_CLI_TELEMETRY": "0"},
    )
    assert done.returncode == 0, done.stderr
    missing = [option for option in SAM_LOCAL_OPTIONS[command] if option not in done.stdout]
    assert missing == [], f"sam local {command} no longer takes {missing}"


def test_with_moto_on_one_address_but_loopback_the_workflows_still_run(stacks, web_root, tmp_path):
    """MOTO_HOST as the README advises on Linux (the Docker bridge's address; here 127.0.0.2,
    which needs no Docker): the demo match runs a first start begins finish, although moto's
    Step Functions call their Lambda tasks on localhost."""
    import socket
    import time

    import boto3

    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port = probe.getsockname()[1]
    stack = stacks.start(tmp_path / "data", web_root, "--moto-host", "127.0.0.2", "--moto-port", str(port))
    assert f"moto (AWS) for sam local: 127.0.0.2:{port}" in stack.output
    sfn = boto3.client(
        "stepfunctions",
        endpoint_url=f"http://127.0.0.2:{port}",
        region_name="eu-west-2",
        aws_access_key_id="local",
        aws_secret_access_key="local",  # moto's
    )
    arn = next(m.arn for m in build_plan().state_machines.values() if m.name.endswith("-match-run"))
    deadline = time.monotonic() + 120
    while True:
        statuses = [e["status"] for e in sfn.list_executions(stateMachineArn=arn)["executions"]]
        if (statuses and "RUNNING" not in statuses) or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert statuses and set(statuses) == {"SUCCEEDED"}, (statuses, stack.output[-3000:])
