"""The in-process Lambda patch replaces moto's Docker invoke: if a moto upgrade stops it from
taking effect, these fail."""

import json

from infra.local import lambda_inprocess


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
