"""Every failure raises an alarm and every asynchronous path has somewhere to fail to: these walk
template.yaml on their own (not through infra/observability.py, which writes the alarms), so a new
function, state machine, queue or schedule without its alarms fails here."""

from __future__ import annotations

import json

import pytest

from infra.local.template import TEMPLATE, load_template

RESOURCES = load_template()["Resources"]
ALARMS = {k: v["Properties"] for k, v in RESOURCES.items() if v["Type"] == "AWS::CloudWatch::Alarm"}


def _of(kind: str) -> list[str]:
    return [k for k, v in RESOURCES.items() if v["Type"] == kind]


def _watching(namespace: str, metric: str) -> list[dict]:
    """Alarms on one metric, alone or inside their metric math."""
    found = []
    for props in ALARMS.values():
        stats = [props] + [m["MetricStat"]["Metric"] for m in props.get("Metrics", []) if "MetricStat" in m]
        if any(s.get("Namespace") == namespace and s.get("MetricName") == metric for s in stats):
            found.append(props)
    return found


def _dimension(props: dict, name: str):
    return next((d["Value"] for d in props.get("Dimensions", []) if d["Name"] == name), None)


def _schedules() -> list[tuple[str, str, dict]]:
    return [
        (fn, event_id, event["Properties"])
        for fn in _of("AWS::Serverless::Function")
        for event_id, event in RESOURCES[fn]["Properties"].get("Events", {}).items()
        if event["Type"] == "Schedule"
    ]


def test_there_is_one_alarm_topic_per_stage_and_every_alarm_notifies_it_when_it_fires_and_clears():
    assert RESOURCES["AlarmTopic"]["Properties"]["TopicName"] == {"Fn::Sub": "tandem-${Stage}-alarms"}
    subscription = RESOURCES["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail"  # no address, no subscription (dev by default)
    assert load_template()["Parameters"]["AlarmEmail"]["Default"] == ""
    assert len(ALARMS) > 40
    for logical_id, props in ALARMS.items():
        assert props["AlarmActions"] == [{"Ref": "AlarmTopic"}], logical_id
        assert props["OKActions"] == [{"Ref": "AlarmTopic"}], logical_id
        assert props["AlarmName"]["Fn::Sub"].startswith("tandem-${Stage}-"), logical_id
        assert "docs/runbook.md#" in props["AlarmDescription"]
    names = [p["AlarmName"]["Fn::Sub"] for p in ALARMS.values()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("function", _of("AWS::Serverless::Function"))
def test_every_function_alarms_on_its_errors_and_throttles(function):
    for metric in ("Errors", "Throttles"):
        watching = [
            p for p in _watching("AWS/Lambda", metric) if _dimension(p, "FunctionName") == {"Ref": function}
        ]
        assert watching, f"{function} has no {metric} alarm: run python -m infra.observability"
        assert watching[0]["Threshold"] == 0 and watching[0]["ComparisonOperator"] == "GreaterThanThreshold"


@pytest.mark.parametrize("machine", _of("AWS::Serverless::StateMachine"))
def test_every_state_machine_alarms_on_failed_timed_out_and_throttled_executions(machine):
    for metric in ("ExecutionsFailed", "ExecutionsTimedOut", "ExecutionThrottled"):
        assert [
            p for p in _watching("AWS/States", metric) if _dimension(p, "StateMachineArn") == {"Ref": machine}
        ], f"{machine} has no {metric} alarm"


def _dead_letter_queues() -> set[str]:
    targets = set()
    for queue in _of("AWS::SQS::Queue"):
        redrive = RESOURCES[queue]["Properties"].get("RedrivePolicy")
        if redrive:
            targets.add(redrive["deadLetterTargetArn"]["Fn::GetAtt"][0])
    for _, _, props in _schedules():
        targets.add(props["DeadLetterConfig"]["Arn"]["Fn::GetAtt"][0])
    return targets


@pytest.mark.parametrize("queue", _of("AWS::SQS::Queue"))
def test_every_queue_has_its_alarm_a_dead_letter_queue_as_soon_as_it_holds_a_message(queue):
    mine = [
        p
        for metric in ("ApproximateNumberOfMessagesVisible", "ApproximateAgeOfOldestMessage")
        for p in _watching("AWS/SQS", metric)
        if _dimension(p, "QueueName") == {"Fn::GetAtt": [queue, "QueueName"]}
    ]
    assert mine, f"{queue} has no alarm"
    if queue in _dead_letter_queues():
        (alarm,) = mine
        assert (alarm["MetricName"], alarm["Statistic"], alarm["Threshold"]) == (
            "ApproximateNumberOfMessagesVisible",
            "Maximum",
            0,
        )
        assert RESOURCES[queue]["Properties"]["MessageRetentionPeriod"] == 1209600  # 14 days to redrive
    else:
        assert RESOURCES[queue]["Properties"].get("RedrivePolicy"), f"{queue} has nowhere to fail to"


@pytest.mark.parametrize("schedule", [f"{fn}.{event}" for fn, event, _ in _schedules()])
def test_every_schedule_retries_has_a_dead_letter_queue_and_a_heartbeat_alarm(schedule):
    fn, event = schedule.split(".")
    props = RESOURCES[fn]["Properties"]["Events"][event]["Properties"]
    assert props["RetryPolicy"]["MaximumRetryAttempts"] >= 1
    assert props["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": ["AsyncDeadLetterQueue", "Arn"]}
    job = json.loads(props["Input"])["job"]
    (heartbeat,) = [p for p in _watching("Tandem", "JobHeartbeat") if _dimension(p, "job") == job]
    assert _dimension(heartbeat, "stage") == {"Ref": "Stage"} and _dimension(heartbeat, "service") == "tandem"
    assert heartbeat["TreatMissingData"] == "breaching"  # a job that did not run sends nothing
    assert heartbeat["ComparisonOperator"] == "LessThanThreshold" and heartbeat["Threshold"] == 1
    # CloudWatch's limits: 1 day of evaluation under an hour's period, 7 days otherwise
    window = heartbeat["Period"] * heartbeat["EvaluationPeriods"]
    assert window <= (86400 if heartbeat["Period"] < 3600 else 7 * 86400)


def test_functions_invoked_asynchronously_fail_to_the_async_dead_letter_queue():
    for fn in ("SchedulerFunction", "EmailEventsFunction"):
        config = RESOURCES[fn]["Properties"]["EventInvokeConfig"]
        assert config["DestinationConfig"]["OnFailure"]["Destination"] == {
            "Fn::GetAtt": ["AsyncDeadLetterQueue", "Arn"]
        }


def test_the_api_alarms_on_its_5xx_rate_and_p99_latency():
    (rate,) = _watching("AWS/ApiGateway", "5XXError")
    expression = next(m for m in rate["Metrics"] if m.get("ReturnData"))["Expression"]
    assert expression == "IF(requests > 0, 100 * errors / requests, 0)" and rate["Threshold"] == 1
    assert {m["MetricStat"]["Period"] for m in rate["Metrics"] if "MetricStat" in m} == {300}
    (latency,) = _watching("AWS/ApiGateway", "Latency")
    assert (latency["ExtendedStatistic"], latency["Threshold"], latency["Period"]) == ("p99", 1500, 300)


def test_stripe_failures_and_a_silent_webhook_in_prod_alarm():
    (failed,) = _watching("Tandem", "StripeEventFailed")
    assert _dimension(failed, "stage") == {"Ref": "Stage"}
    (silence,) = [k for k, p in ALARMS.items() if p.get("MetricName") == "StripeEventReceived"]
    assert RESOURCES[silence]["Condition"] == "IsProd"
    assert ALARMS[silence]["Period"] == 86400 and ALARMS[silence]["TreatMissingData"] == "breaching"
    # a billing execution that failed: the billing state machine's own ExecutionsFailed alarm
    assert [
        p
        for p in _watching("AWS/States", "ExecutionsFailed")
        if _dimension(p, "StateMachineArn") == {"Ref": "BillingStateMachine"}
    ]


def test_dynamodb_throttles_and_system_errors_alarm():
    assert _watching("AWS/DynamoDB", "ReadThrottleEvents") == _watching("AWS/DynamoDB", "WriteThrottleEvents")
    (errors,) = _watching("AWS/DynamoDB", "SystemErrors")
    assert len(errors["Metrics"]) <= 10  # CloudWatch: up to 10 metrics and expressions in an alarm


def test_the_generated_block_is_up_to_date():
    """A function, queue or schedule added (or a metric renamed) without regenerating fails here."""
    from infra.observability import render

    assert render(TEMPLATE.read_text()) == TEMPLATE.read_text(), "run python -m infra.observability"


def test_every_alarm_has_its_section_in_the_runbook():
    from infra.local.template import ROOT

    runbook = (ROOT / "docs/runbook.md").read_text()
    for props in ALARMS.values():
        name = props["AlarmName"]["Fn::Sub"].removeprefix("tandem-${Stage}-")
        assert f'<a id="{name}"></a>' in runbook, f"docs/runbook.md has no section for {name}"
