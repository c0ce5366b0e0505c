"""Bring back what failed, once it is fixed (docs/runbook.md "Redrive"). Every command is
idempotent: run it twice and the second run starts nothing the first one did.

    make redrive ENV=prod WHAT=billing         # Stripe events of failed billing executions, replayed
    make redrive ENV=prod WHAT=match-runs      # brands whose latest match run failed, run again;
                                               # the nightly run again if its last execution failed
    make redrive ENV=prod WHAT=notifications   # the notifications DLQ moved back to its queue
    make redrive ENV=prod WHAT=jobs            # the async DLQ: each failed scheduled job run once,
                                               # each failed SES event through its function again
    make replay-stripe-event ENV=prod EVENT=evt_...

It finds the stack's table, state machines and queues from CloudFormation, sets the environment the
functions have, and calls the same services they call (tandem.services.stripe_events.replay,
tandem.services.match_runs.redrive_failed). The tests run it against moto (tests/functional/test_redrive.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

WHAT = ("billing", "match-runs", "notifications", "jobs")


def stack_environment(stack: str) -> dict[str, str]:
    """The environment the functions have (the scheduler's and the webhook's, read from Lambda),
    and the dead-letter queues and scheduler of a deployed stack."""
    import boto3

    cfn = boto3.client("cloudformation")
    physical = {
        r["LogicalResourceId"]: r["PhysicalResourceId"]
        for page in cfn.get_paginator("list_stack_resources").paginate(StackName=stack)
        for r in page["StackResourceSummaries"]
    }
    lam = boto3.client("lambda")
    env: dict[str, str] = {}
    for function in ("SchedulerFunction", "StripeWebhookFunction"):
        config = lam.get_function_configuration(FunctionName=physical[function])
        env.update(config.get("Environment", {}).get("Variables", {}))
    env.update(
        NOTIFICATIONS_DLQ_URL=physical["NotificationsDeadLetterQueue"],  # a queue's physical id is its URL
        ASYNC_DLQ_URL=physical["AsyncDeadLetterQueue"],
        SCHEDULER_FUNCTION=physical["SchedulerFunction"],
    )
    return env


def _client(service: str) -> Any:
    from tandem.integrations.aws import client

    return client(service)


def _failed_executions(machine_arn: str) -> list[dict[str, Any]]:
    sfn = _client("stepfunctions")
    found = []
    for status in ("FAILED", "TIMED_OUT", "ABORTED"):
        for page in sfn.get_paginator("list_executions").paginate(
            stateMachineArn=machine_arn, statusFilter=status
        ):
            found += page["executions"]
    return found


def redrive_billing() -> list[str]:
    """Replay the Stripe event of every failed billing execution (an event done since, by a
    redelivery or an earlier redrive, is left alone)."""
    from tandem.services import stripe_events

    sfn = _client("stepfunctions")
    events: dict[str, None] = {}
    for execution in _failed_executions(os.environ["BILLING_STATE_MACHINE_ARN"]):
        described = sfn.describe_execution(executionArn=execution["executionArn"])
        events[json.loads(described["input"])["eventId"]] = None
    return [stripe_events.replay(event_id) for event_id in events] or ["no failed billing execution"]


def redrive_match_runs() -> list[str]:
    from tandem.services import match_runs

    done = match_runs.redrive_failed() or ["no brand whose latest match run failed"]
    sfn = _client("stepfunctions")
    nightly = os.environ["NIGHTLY_MATCH_RUN_STATE_MACHINE_ARN"]
    latest = sfn.list_executions(stateMachineArn=nightly, maxResults=1).get("executions", [])
    if latest and latest[0]["status"] in ("FAILED", "TIMED_OUT", "ABORTED"):
        started = match_runs.start_nightly()
        done.append(
            f"nightly run {latest[0]['name']} {latest[0]['status'].lower()}: started {started['execution']}"
        )
    return done


def _drain(queue_url: str, handle: Callable[[dict[str, Any]], str]) -> list[str]:
    """Each message of a dead-letter queue handled once, then deleted (so a second run finds none)."""
    sqs = _client("sqs")
    done: list[str] = []
    while True:
        messages = sqs.receive_message(
            QueueUrl=queue_url, MaxNumberOfMessages=10, VisibilityTimeout=60, MessageAttributeNames=["All"]
        ).get("Messages", [])
        if not messages:
            return done
        for message in messages:
            done.append(handle(message))
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])


def redrive_notifications() -> list[str]:
    """Move every message of the notifications DLQ back to the notifications queue."""
    sqs = _client("sqs")
    queue = os.environ["NOTIFICATIONS_QUEUE_URL"]

    def move(message: dict[str, Any]) -> str:
        extra = (
            {"MessageAttributes": message["MessageAttributes"]} if message.get("MessageAttributes") else {}
        )
        sqs.send_message(QueueUrl=queue, MessageBody=message["Body"], **extra)
        return f"notification {message['MessageId']} back on the queue"

    return _drain(os.environ["NOTIFICATIONS_DLQ_URL"], move) or ["the notifications DLQ is empty"]


def _failed_invocation(body: str) -> tuple[str | None, dict[str, Any] | None]:
    """(function, payload) of a message of the async DLQ: a Lambda OnFailure record names the
    function and holds the request ({"requestContext": {"functionArn": ...}, "requestPayload": ...});
    an EventBridge schedule that could not invoke the scheduler leaves its input ({"job": ...})."""
    try:
        data = json.loads(body)
    except ValueError:
        return None, None
    if not isinstance(data, dict):
        return None, None
    if isinstance(data.get("requestPayload"), dict):
        arn = str((data.get("requestContext") or {}).get("functionArn") or "")
        function = arn.split(":function:", 1)[-1].split(":", 1)[0] if ":function:" in arn else None
        return function, data["requestPayload"]
    return (os.environ["SCHEDULER_FUNCTION"], data) if "job" in data else (None, None)


def redrive_jobs() -> list[str]:
    """Run again what the async DLQ holds: each scheduled job once (many failed runs of one job:
    one run), and each failed SES bounce/complaint event through its function."""
    sqs = _client("sqs")
    lam = _client("lambda")
    queue = os.environ["ASYNC_DLQ_URL"]
    done: list[str] = []
    ran: dict[str, str] = {}
    # a message kept (it failed again, or is not ours) stays invisible for the rest of the run
    while messages := sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, VisibilityTimeout=120).get(
        "Messages", []
    ):
        for message in messages:
            function, payload = _failed_invocation(message["Body"])
            if function is None or payload is None:
                done.append(f"message {message['MessageId']} is not a failed invocation: left in the queue")
                continue
            job = payload.get("job") if function == os.environ["SCHEDULER_FUNCTION"] else None
            if job and job in ran:
                outcome = ran[job]
            else:
                answer = lam.invoke(FunctionName=function, Payload=json.dumps(payload).encode())
                reply = answer["Payload"].read().decode()
                outcome = f"failed again: {reply[:300]}" if answer.get("FunctionError") else "ran"
                if job:
                    ran[job] = outcome
                done.append(f"{'job ' + job if job else function}: {outcome}")
            if not outcome.startswith("failed"):
                sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])
    return done or ["the async DLQ is empty"]


REDRIVES: dict[str, Callable[[], list[str]]] = {
    "billing": redrive_billing,
    "match-runs": redrive_match_runs,
    "notifications": redrive_notifications,
    "jobs": redrive_jobs,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stack", required=True, help="e.g. tandem-prod")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--what", choices=WHAT)
    group.add_argument("--stripe-event", help="replay one Stripe event by id (evt_...)")
    args = parser.parse_args(argv)
    if not os.environ.get("TANDEM_REDRIVE_ENVIRONMENT_SET"):  # the tests set it from moto themselves
        os.environ.update(stack_environment(args.stack))
    if args.stripe_event:
        from tandem.services import stripe_events

        lines = [stripe_events.replay(args.stripe_event)]
    else:
        lines = REDRIVES[args.what]()
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
