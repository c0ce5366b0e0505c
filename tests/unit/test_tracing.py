"""Powertools Tracer in Lambda: on where Lambda runs the code (LAMBDA_TASK_ROOT), with the calls
the issue names as subsegments (botocore: DynamoDB, SQS, Step Functions; requests: Stripe, web push;
httplib: Slack's urllib); off elsewhere, where making a Tracer would only cost its import."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from infra.local.template import ROOT

PROBE = """
import json
from types import SimpleNamespace
from tandem import observability

handler = observability.lambda_handler(lambda event, context: {"answer": event["n"] * 2})
context = SimpleNamespace(
    function_name="probe", memory_limit_in_mb=128, aws_request_id="r1",
    invoked_function_arn="arn:aws:lambda:eu-west-2:1:function:probe",
)
result = handler({"n": 21}, context)
patched = []
if observability.tracer is not None:
    from aws_xray_sdk.core import patcher
    patched = sorted(patcher._PATCHED_MODULES)
print(json.dumps({"tracer": observability.tracer is not None, "result": result, "patched": patched}))
"""


def _probe(**env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("LAMBDA_TASK_ROOT", "POWERTOOLS_TRACE_DISABLED")}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", PROBE],
        env={
            **base,
            "PYTHONPATH": f"{ROOT}/layers/core/python",
            "AWS_XRAY_CONTEXT_MISSING": "IGNORE_ERROR",
            **env,
        },
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_in_lambda_every_handler_is_traced_and_the_clients_are_patched():
    seen = _probe(LAMBDA_TASK_ROOT="/var/task", AWS_XRAY_DAEMON_ADDRESS="127.0.0.1:9")
    assert seen["tracer"] and seen["result"] == {"answer": 42}
    assert set(seen["patched"]) == {"botocore", "httplib"}  # Stripe, push (requests), Slack (urllib)


def test_outside_lambda_or_when_disabled_no_tracer_is_made():
    assert _probe()["tracer"] is False
    assert _probe(LAMBDA_TASK_ROOT="/var/task", POWERTOOLS_TRACE_DISABLED="true")["tracer"] is False
