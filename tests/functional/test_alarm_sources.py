"""Each alarm source made to fail on moto: the failure happens for real (a handler raising, a message
landing in a dead-letter queue, a billing execution failing, a scheduled job running or not), and
the datum the alarm in template.yaml watches is there with the alarm's name and dimensions: our own
metrics as the EMF lines Powertools prints (what CloudWatch turns into metrics), AWS's own metrics
as the state moto reports that AWS counts (an invocation's FunctionError, a queue's messages, an
execution's status)."""

from __future__ import annotations

import json

import pytest

from infra.local.template import build_plan, load_template
from tests.conftest import wait_for_execution
from tests.functional.helpers import Brand, run_job
from tests.functional.test_billing import Shop, fake, shop  # noqa: F401 (its fixtures, used by name)

ALARMS = {
    k: v["Properties"]
    for k, v in load_template()["Resources"].items()
    if v["Type"] == "AWS::CloudWatch::Alarm"
}


def _emf(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"_aws"')]


def _emitted(out: str, metric: str) -> list[dict]:
    """EMF blobs carrying `metric`, each as {dimension: value, ..., metric: sum of its values}."""
    found = []
    for blob in _emf(out):
        (directive,) = blob["_aws"]["CloudWatchMetrics"]
        if any(m["Name"] == metric for m in directive["Metrics"]):
            (dimensions,) = directive["Dimensions"]
            assert directive["Namespace"] == "Tandem"
            values = blob[metric] if isinstance(blob[metric], list) else [blob[metric]]
            found.append({**{d: blob[d] for d in dimensions}, metric: sum(values)})
    return found


def _alarm_on(namespace: str, metric: str, **dimensions: object) -> dict:
    """The one alarm on `metric` whose dimensions are these (values resolved for the local stage)."""
    from infra.local.template import Resolver

    resolver = Resolver(load_template(), "local", {})
    matches = []
    for props in ALARMS.values():
        if (props.get("Namespace"), props.get("MetricName")) != (namespace, metric):
            continue
        mine = {d["Name"]: resolver.resolve(d["Value"]) for d in props["Dimensions"]}
        if mine == dimensions:
            matches.append(props)
    assert len(matches) == 1, f"no single alarm on {namespace}/{metric} {dimensions}"
    return matches[0]


APP = {"service": "tandem", "stage": "local"}


def test_a_scheduled_job_that_finishes_beats_and_one_that_raises_is_a_lambda_error(aws, capsys):
    from tandem.integrations.aws import client

    run_job(aws, "fail-stuck-match-runs")
    (beat,) = _emitted(capsys.readouterr().out, "JobHeartbeat")
    assert beat == {**APP, "job": "fail-stuck-match-runs", "JobHeartbeat": 1.0}
    alarm = _alarm_on("Tandem", "JobHeartbeat", **APP, job="fail-stuck-match-runs")
    assert alarm["TreatMissingData"] == "breaching"

    scheduler = aws.functions["SchedulerFunction"].name
    answer = client("lambda").invoke(
        FunctionName=scheduler, Payload=json.dumps({"job": "no-such-job"}).encode()
    )
    # a function error is what Lambda counts in its Errors metric (Lambda says Unhandled, moto Handled)
    assert answer.get("FunctionError") in ("Unhandled", "Handled")
    assert "Unknown job" in json.loads(answer["Payload"].read())["errorMessage"]
    assert not _emitted(capsys.readouterr().out, "JobHeartbeat")  # and no heartbeat: that alarm fires too
    assert _alarm_on("AWS/Lambda", "Errors", FunctionName=scheduler)["Threshold"] == 0


@pytest.mark.parametrize("function", sorted(build_plan().functions))
def test_every_functions_name_is_what_its_alarms_watch(aws, function):
    name = aws.functions[function].name
    for metric in ("Errors", "Throttles"):
        assert _alarm_on("AWS/Lambda", metric, FunctionName=name)


@pytest.mark.delivery
def test_a_notification_that_keeps_failing_lands_in_the_dead_letter_queue(aws, capsys):
    """The queue's trigger delivers the message at once and the notifier fails it; each further
    delivery (through the Lambda API, as the trigger does) fails too, until SQS moves it to the DLQ
    (the queue's maxReceiveCount), whose alarm fires on one visible message. Every failed delivery
    counts NotificationFailed."""
    from tandem.config import settings
    from tandem.integrations.aws import client

    sqs = client("sqs")
    queue = settings().notifications_queue_url
    notifier = aws.functions["NotifierFunction"].name
    sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"channel": "carrier-pigeon"}))  # delivery 1
    redrive = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["RedrivePolicy"])["Attributes"]
    deliveries = 1
    while messages := sqs.receive_message(QueueUrl=queue, VisibilityTimeout=0, AttributeNames=["All"]).get(
        "Messages"
    ):
        (message,) = messages
        record = {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message["Attributes"],
            "messageAttributes": {},
            "md5OfBody": message["MD5OfBody"],
            "eventSource": "aws:sqs",
            "eventSourceARN": "arn:aws:sqs:eu-west-2:123456789012:tandem-local-notifications",
            "awsRegion": "eu-west-2",
        }
        answer = client("lambda").invoke(
            FunctionName=notifier, Payload=json.dumps({"Records": [record]}).encode()
        )
        assert "All records failed processing" in json.loads(answer["Payload"].read())["errorMessage"]
        deliveries += 1
        assert deliveries < 20, "the message never reached the dead-letter queue"
    assert deliveries == json.loads(redrive["RedrivePolicy"])["maxReceiveCount"]

    failed = _emitted(capsys.readouterr().out, "NotificationFailed")
    assert failed == [{**APP, "NotificationFailed": 1.0}] * deliveries
    dlq_name = aws.queues["NotificationsDeadLetterQueue"]["name"]
    dlq = sqs.get_queue_url(QueueName=dlq_name)["QueueUrl"]
    held = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["ApproximateNumberOfMessages"])
    assert (
        held["Attributes"]["ApproximateNumberOfMessages"] == "1"
    )  # AWS/SQS ApproximateNumberOfMessagesVisible
    alarm = _alarm_on("AWS/SQS", "ApproximateNumberOfMessagesVisible", QueueName=dlq_name)
    assert (alarm["Statistic"], alarm["Threshold"], alarm["ComparisonOperator"]) == (
        "Maximum",
        0,
        "GreaterThanThreshold",
    )


def test_a_billing_execution_that_fails_emits_stripe_event_failed_and_fails_the_execution(
    shop: Shop,  # noqa: F811
    capsys,
    monkeypatch,
) -> None:
    from tandem.services import billing
    from tandem.store.billing import StripeEvent

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    paid = next(e for e in shop.new_events() if e["type"] == "invoice.paid")
    capsys.readouterr()
    monkeypatch.setattr(billing, "sync_account", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    assert shop.deliver(paid) == (200, {"received": True})
    result = wait_for_execution(f"{shop.executions}:{paid['id']}")

    assert result["status"] == "FAILED"  # AWS/States ExecutionsFailed of the billing state machine
    assert StripeEvent.find(paid["id"], consistent=True).status == "failed"
    out = capsys.readouterr().out
    assert _emitted(out, "StripeEventReceived") == [{**APP, "StripeEventReceived": 1.0}]
    assert _emitted(out, "StripeEventFailed") == [{**APP, "StripeEventFailed": 1.0}]
    assert not _emitted(out, "StripeEventProcessed")
    assert _alarm_on("Tandem", "StripeEventFailed", **APP)["Threshold"] == 0
    machine = shop.aws.state_machines["BillingStateMachine"].arn
    assert _alarm_on("AWS/States", "ExecutionsFailed", StateMachineArn=machine)


def test_a_processed_stripe_event_counts_received_processed_sync_and_credits(shop: Shop, capsys) -> None:  # noqa: F811
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    capsys.readouterr()
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    out = capsys.readouterr().out
    assert _emitted(out, "CheckoutSessionCreated") == [{**APP, "CheckoutSessionCreated": 1.0}]
    assert sum(b["StripeEventReceived"] for b in _emitted(out, "StripeEventReceived")) >= 1
    processed = _emitted(out, "StripeEventProcessed")
    assert processed and all(b["service"] == "tandem" and b["stage"] == "local" for b in processed)
    assert _emitted(out, "StripeSync")
    assert sum(b["CreditsGranted"] for b in _emitted(out, "CreditsGranted")) == 6
    # the prod-only silence alarm watches the very metric the webhook emits
    silent = next(p for p in ALARMS.values() if p.get("MetricName") == "StripeEventReceived")
    assert {d["Name"] for d in silent["Dimensions"]} == set(APP)


def test_a_cold_start_is_counted_once_per_function(aws, capsys):
    from tandem import observability

    observability._warm.discard("probe-function")
    observability.cold_start("probe-function")
    observability.cold_start("probe-function")
    assert _emitted(capsys.readouterr().out, "ColdStart") == [
        {**APP, "function": "probe-function", "ColdStart": 1.0}
    ]


def test_an_api_handler_raising_is_a_5xx_that_the_api_alarms_count(api, monkeypatch):
    """API Gateway counts a 500 from the function in 5XXError of the API's stage: the rate alarm's
    metrics are that stage's 5XXError and Count."""
    from infra.local.template import Resolver
    from tandem.services import dashboard
    from tests.factories import auth_headers, member

    monkeypatch.setattr(dashboard, "build", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    _, (brand,), token = member()
    status, body = api.call("GET", "/api/dashboard", auth_headers(token, int(brand.brand_id)))
    assert status == 500 and body == {"error": "Something went wrong on our side. Please try again."}

    resolver = Resolver(load_template(), "local", {})
    (rate,) = [p for p in ALARMS.values() if p["AlarmName"]["Fn::Sub"].endswith("-api-5xx-rate")]
    stats = {m["Id"]: m["MetricStat"]["Metric"] for m in rate["Metrics"] if "MetricStat" in m}
    assert (stats["errors"]["MetricName"], stats["requests"]["MetricName"]) == ("5XXError", "Count")
    for metric in stats.values():
        dims = {d["Name"]: resolver.resolve(d["Value"]) for d in metric["Dimensions"]}
        assert dims == {"ApiName": "tandem-local", "Stage": "local"}  # RestApi's Name and StageName
