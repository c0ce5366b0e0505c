"""The in-process Lambda patch replaces moto's Docker invoke: if a moto upgrade stops it from
taking effect, these fail."""

import json

import pytest

from infra.local import lambda_inprocess


@pytest.mark.delivery
def test_patch_is_installed_and_invoke_runs_the_template_handler(aws):
    from tandem.integrations.aws import client

    assert lambda_inprocess.is_installed()
    before = len(lambda_inprocess.INVOCATIONS)
    response = client("lambda").invoke(
        FunctionName=aws.functions["SchedulerFunction"].name,
        Payload=json.dumps({"job": "fail-stuck-match-runs"}).encode(),
    )
    assert json.loads(response["Payload"].read()) == {"job": "fail-stuck-match-runs", "result": 0}
    assert lambda_inprocess.INVOCATIONS[before:] == [aws.functions["SchedulerFunction"].name]


def test_handler_errors_come_back_as_lambda_function_errors(aws):
    from tandem.integrations.aws import client

    response = client("lambda").invoke(
        FunctionName=aws.functions["SchedulerFunction"].name, Payload=b'{"job": "nope"}'
    )
    assert response["FunctionError"] == "Handled"
    payload = json.loads(response["Payload"].read())
    assert payload["errorType"] == "ValueError"
    assert "Unknown job 'nope'" in payload["errorMessage"]


PROBE = """
import sys


def handler(event, context):
    index = event["enter"]()
    print(f"from invocation {index}", file=sys.stderr)
    event["all_in"].wait(timeout=30)  # every invocation is running before any returns
    return {"index": index}
"""


@pytest.mark.delivery
def test_a_burst_of_parallel_invocations_leaves_stderr_working(aws, tmp_path, capsys):
    """redirect_stderr per call swapped the process's sys.stderr: after overlapping calls it
    was left pointing at one call's StringIO, and tracebacks stopped reaching the log."""
    import sys
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from infra.local.template import FunctionSpec

    (tmp_path / "probe.py").write_text(PROBE)
    spec = FunctionSpec("Probe", "tandem-local-Probe", tmp_path, "probe.handler", {}, 30)
    burst = 16
    lock, entered, all_in = threading.Lock(), [], threading.Event()

    def enter() -> int:
        with lock:
            entered.append(len(entered))
            if len(entered) == burst:
                all_in.set()
            return entered[-1]

    event = {"enter": enter, "all_in": all_in}
    with ThreadPoolExecutor(max_workers=burst) as pool:
        results = list(pool.map(lambda _: lambda_inprocess.invoke(spec, event), range(burst)))

    for result, errored, logs in results:
        assert not errored
        assert logs == f"from invocation {result['index']}\n"  # its own output, nobody else's
    print("a traceback after the burst", file=sys.stderr)
    err = capsys.readouterr().err
    assert "a traceback after the burst" in err
    assert all(f"from invocation {i}\n" in err for i in range(burst))  # also passed through


def test_a_handler_error_reaches_stderr_with_its_traceback(aws, capsys):
    from tandem.integrations.aws import client

    client("lambda").invoke(FunctionName=aws.functions["SchedulerFunction"].name, Payload=b'{"job": "nope"}')
    err = capsys.readouterr().err
    assert "[ERROR] tandem-local-SchedulerFunction: ValueError: Unknown job 'nope'" in err
    assert "Traceback (most recent call last)" in err


def test_an_api_log_line_after_a_workflow_carries_the_api_function_and_no_stale_run_id(aws, monkeypatch):
    """Powertools keys are one dict per process: a workflow's function_name and run_id stayed
    on the API's error lines. Each invocation now starts from fresh keys (per thread)."""
    import io
    import logging

    from tandem.observability import logger
    from tandem.services import auth
    from tests.functional.helpers import Api

    api = Api(aws)  # loads the API function (its middleware names the function in its lines)
    lines = io.StringIO()
    capture = logging.StreamHandler(lines)
    capture.setFormatter(logger.registered_formatter)
    logging.getLogger(logger.service).addHandler(capture)
    try:
        lambda_inprocess.invoke(
            aws.functions["MatchRunMarkFailedFunction"], {"runId": "run-stale", "brandId": "7", "error": {}}
        )
        workflow_line = json.loads(lines.getvalue().splitlines()[0])
        assert (workflow_line["function_name"], workflow_line["run_id"]) == (
            "tandem-local-MatchRunMarkFailedFunction",
            "run-stale",
        )

        def boom(*_args, **_kwargs):
            raise RuntimeError("boom")

        monkeypatch.setattr(auth, "login", boom)
        lines.seek(0)
        lines.truncate()
        status, _ = api.call("POST", "/api/users/login", body={"email": "a@b.com", "password": "x"})
        assert status == 500
    finally:
        logging.getLogger(logger.service).removeHandler(capture)
    api_line = json.loads(lines.getvalue().splitlines()[0])
    assert api_line["message"] == "Unhandled error in login"
    assert api_line["function_name"] == "tandem-local-ApiFunction"
    assert "run_id" not in api_line and "brand_id" not in api_line


def test_moto_s3_routes_without_reloading_its_urls_module_from_many_threads_at_once() -> None:
    """moto reloads `moto.s3.urls` on every S3 call it routes, and importlib.reload is not
    thread-safe: a CI run once lost the module's spec mid-run ("spec not found for the module
    'moto.s3.urls'"). With the stack's moto patches installed, S3 calls from many threads at
    once all succeed and the module is never reloaded."""
    import threading

    import boto3
    import moto.s3.urls as urls
    from moto import mock_aws

    from infra.local import moto_isolation

    moto_isolation.install()
    spec = urls.__spec__
    errors: list[BaseException] = []
    with mock_aws():
        s3 = boto3.client("s3", region_name="eu-west-2")
        s3.create_bucket(
            Bucket="threads-bucket", CreateBucketConfiguration={"LocationConstraint": "eu-west-2"}
        )

        def calls(n: int) -> None:
            try:
                for i in range(20):
                    s3.put_object(Bucket="threads-bucket", Key=f"{n}/{i}", Body=b"x")
            except BaseException as exc:  # collected and asserted below
                errors.append(exc)

        threads = [threading.Thread(target=calls, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        listed = s3.list_objects_v2(Bucket="threads-bucket")["KeyCount"]
    assert errors == [] and listed == 160
    assert urls.__spec__ is spec  # the same module object, never reloaded
