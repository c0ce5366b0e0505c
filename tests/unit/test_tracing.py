"""Powertools Tracer in Lambda: on where Lambda runs the code (LAMBDA_TASK_ROOT) for invocations
X-Ray sampled, with the calls the issue names as subsegments (botocore: DynamoDB, SQS, Step
Functions; requests: Stripe, web push; httplib: Slack's urllib); off elsewhere, and not even
loaded for an invocation X-Ray did not sample (making a Tracer costs a cold start its import)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

from infra.local.template import ROOT

SAMPLED = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
NOT_SAMPLED = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0"

PROBE = """
import json, sys
from types import SimpleNamespace
import boto3
from tandem import observability

def work(event, context):
    try:  # a DynamoDB call (nothing listens there): traced, whatever its answer
        boto3.client("dynamodb", endpoint_url="http://127.0.0.1:9").list_tables()
    except Exception:
        pass
    return {"answer": event["n"] * 2}

handler = observability.lambda_handler(work)
context = SimpleNamespace(
    function_name="probe", memory_limit_in_mb=128, aws_request_id="r1",
    invoked_function_arn="arn:aws:lambda:eu-west-2:1:function:probe",
)
result = handler({"n": 21}, context)
patched = []
if "aws_xray_sdk.core" in sys.modules:
    from aws_xray_sdk.core import patcher
    patched = sorted(patcher._PATCHED_MODULES)
print(json.dumps({
    "tracer": observability._tracer is not None,
    "xray_loaded": "aws_xray_sdk.core" in sys.modules,
    "result": result,
    "patched": patched,
}))
"""


def _probe(**env: str) -> tuple[dict, list[dict]]:
    """Run PROBE in a fresh interpreter; (what it printed, the X-Ray documents it sent to a
    daemon address listened to here)."""
    daemon = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    daemon.bind(("127.0.0.1", 0))
    daemon.settimeout(0.5)
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LAMBDA_TASK_ROOT", "POWERTOOLS_TRACE_DISABLED", "_X_AMZN_TRACE_ID")
    }
    code = env.pop("_CODE", PROBE)
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={
                **base,
                "PYTHONPATH": f"{ROOT}/layers/core/python",
                "AWS_XRAY_CONTEXT_MISSING": "IGNORE_ERROR",
                "AWS_XRAY_DAEMON_ADDRESS": f"127.0.0.1:{daemon.getsockname()[1]}",
                "AWS_MAX_ATTEMPTS": "1",
                "AWS_DEFAULT_REGION": "eu-west-2",
                "AWS_ACCESS_KEY_ID": "testing",
                "AWS_SECRET_ACCESS_KEY": "testing",
                **env,
            },
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        sent = []
        while True:  # the probe has exited: whatever it sent is waiting in the socket's buffer
            try:
                packet = daemon.recv(65536).decode()
            except TimeoutError:
                break
            header, _, body = packet.partition("\n")
            assert json.loads(header) == {"format": "json", "version": 1}
            sent.append(json.loads(body))
    finally:
        daemon.close()
    return json.loads(done.stdout.strip().splitlines()[-1]), sent


def test_a_sampled_invocation_in_lambda_is_traced_with_its_calls_as_subsegments():
    seen, sent = _probe(LAMBDA_TASK_ROOT="/var/task", _X_AMZN_TRACE_ID=SAMPLED)
    assert seen["tracer"] and seen["result"] == {"answer": 42}
    assert set(seen["patched"]) == {"botocore", "httplib"}  # Stripe, push (requests), Slack (urllib)
    names = {doc["name"] for doc in sent}
    assert "## work" in names  # the handler's own subsegment
    (call,) = [doc for doc in sent if doc.get("namespace") == "aws"]
    assert call["name"] == "dynamodb" and call["aws"]["operation"] == "ListTables"
    assert all(doc["trace_id"] == "1-5759e988-bd862e3fe1be46a994272793" for doc in sent)


def test_an_invocation_x_ray_did_not_sample_does_not_load_the_x_ray_sdk():
    for header in (NOT_SAMPLED, None):
        env = {"LAMBDA_TASK_ROOT": "/var/task"} | ({"_X_AMZN_TRACE_ID": header} if header else {})
        seen, sent = _probe(**env)
        assert seen["result"] == {"answer": 42}
        assert not seen["tracer"] and not seen["xray_loaded"] and sent == []


def test_outside_lambda_or_when_disabled_no_tracer_is_made():
    assert _probe(_X_AMZN_TRACE_ID=SAMPLED)[0]["tracer"] is False
    disabled = {"LAMBDA_TASK_ROOT": "/var/task", "POWERTOOLS_TRACE_DISABLED": "true"}
    assert _probe(_X_AMZN_TRACE_ID=SAMPLED, **disabled)[0]["tracer"] is False


API_PROBE = """
import json, sys
from app import app
event = {"resource": "/api/health", "path": "/api/health", "httpMethod": "GET", "headers": {},
         "multiValueHeaders": {}, "queryStringParameters": None, "multiValueQueryStringParameters": None,
         "pathParameters": None, "stageVariables": None, "body": None, "isBase64Encoded": False,
         "requestContext": {"resourcePath": "/api/health", "httpMethod": "GET", "path": "/api/health",
                            "stage": "dev", "requestId": "probe", "identity": {"sourceIp": "127.0.0.1"}}}
class Context:
    function_name = "probe"; memory_limit_in_mb = 512; aws_request_id = "probe"
    invoked_function_arn = "arn:aws:lambda:eu-west-2:1:function:probe"
response = app(event, Context())
print(json.dumps({"status": response["statusCode"], "xray_loaded": "aws_xray_sdk.core" in sys.modules}))
"""


def test_a_sampled_api_request_is_one_subsegment_named_by_its_route():
    from infra.local.template import build_plan

    functions = {
        **build_plan().environment,
        "PYTHONPATH": f"{ROOT}/functions/api{os.pathsep}{ROOT}/layers/core/python",
        "AWS_ENDPOINT_URL": "http://127.0.0.1:9",  # the JWT key's prefetch finds nothing: not needed here
    }
    for header, traced in ((SAMPLED, True), (NOT_SAMPLED, False)):
        seen, sent = _probe(
            LAMBDA_TASK_ROOT="/var/task", _X_AMZN_TRACE_ID=header, _CODE=API_PROBE, **functions
        )
        assert seen == {"status": 200, "xray_loaded": traced}
        routes = [doc for doc in sent if doc["name"] == "## /api/health"]
        assert [doc["annotations"]["route"] for doc in routes] == (["/api/health"] if traced else [])
