"""Issue 42's fault scenarios: the stand-ins fail on purpose (infra/local/faults.py, switched by
the `faults` fixture of tests/conftest.py) and each test asserts what members saw and what the
system did, in exact counts. Time is simulated: a fault's window ends by moving the faults'
clock, and the retry waits of botocore, the stripe library, the store and the state machines
move that clock instead of sleeping."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.functional.conftest import api, fake_slack  # noqa: F401 (the API and the local Slack)
from tests.functional.test_billing import Shop, fake  # noqa: F401 (the fake Stripe fixture)


@pytest.fixture
def shop(aws, fake) -> Shop:  # noqa: F811
    return Shop(aws, fake)


def execution_status(arn: str) -> str:
    from tests.conftest import wait_for_execution

    return wait_for_execution(arn, timeout=120)["status"]


def billing_executions(aws) -> dict[str, str]:
    """Every billing execution so far: name -> status (each waited for to end)."""
    from tandem.integrations.aws import client

    sfn = client("stepfunctions")
    machine = aws.state_machines["BillingStateMachine"].arn
    found: dict[str, str] = {}
    for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=machine):
        for execution in page["executions"]:
            found[execution["name"]] = execution_status(execution["executionArn"])
    return found


def stripe_events() -> dict[str, str]:
    """Every Stripe event recorded: id -> status."""
    from tandem.store.billing import StripeEvent

    return {e.event_id: e.status for e in StripeEvent.scan(StripeEvent.pk.startswith("STRIPE_EVENT#"))}


def queue_urls(aws) -> tuple[str, str]:
    from tandem.integrations.aws import client

    sqs = client("sqs")
    return (
        sqs.get_queue_url(QueueName=aws.queues["NotificationsQueue"]["name"])["QueueUrl"],
        sqs.get_queue_url(QueueName=aws.queues["NotificationsDeadLetterQueue"]["name"])["QueueUrl"],
    )


class Notifier:
    """Lambda's SQS event source for the notifier, polled by the test: one `poll` is one
    round of the queue's VisibilityTimeout (180 s) on the faults' clock; a message the notifier
    failed is visible again at the next round, as in AWS, and moves to the DLQ at its
    maxReceiveCount (moto counts the receives)."""

    def __init__(self, aws: Any, faults: Any) -> None:
        self.aws, self.faults = aws, faults
        self.queue, self.dlq = queue_urls(aws)
        self.visibility = int(aws.queues["NotificationsQueue"]["VisibilityTimeout"])
        self.rounds = 0

    def poll(self) -> tuple[int, int]:
        """One round: every visible message once. Returns (received, failed)."""
        from tandem.integrations.aws import client

        sqs = client("sqs")
        self._delays_elapsed()
        received = failed = 0
        seen: set[str] = set()
        released: list[str] = []
        while True:
            answer = sqs.receive_message(
                QueueUrl=self.queue, MaxNumberOfMessages=10, VisibilityTimeout=self.visibility
            )
            messages = [m for m in answer.get("Messages", []) if m["MessageId"] not in seen]
            if not messages:
                break
            seen.update(m["MessageId"] for m in messages)
            records = [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": {},
                    "messageAttributes": {},
                    "eventSource": "aws:sqs",
                }
                for m in messages
            ]
            result = client("lambda").invoke(
                FunctionName=self.aws.functions["NotifierFunction"].name,
                Payload=json.dumps({"Records": records}).encode(),
            )
            payload = json.loads(result["Payload"].read())
            if result.get("FunctionError"):
                bad = {m["MessageId"] for m in messages}
            else:
                bad = {f["itemIdentifier"] for f in payload["batchItemFailures"]}
            for m in messages:
                if m["MessageId"] in bad:
                    released.append(m["ReceiptHandle"])
                else:
                    sqs.delete_message(QueueUrl=self.queue, ReceiptHandle=m["ReceiptHandle"])
            received += len(messages)
            failed += len(bad)
        for handle in released:  # visible again after the round, as after VisibilityTimeout
            sqs.change_message_visibility(QueueUrl=self.queue, ReceiptHandle=handle, VisibilityTimeout=0)
        self.rounds += 1
        self.faults.advance(self.visibility)
        return received, failed

    def _delays_elapsed(self) -> None:
        """A message sent with DelaySeconds (a push the service asked to retry: 60 s per
        attempt, at most 300) is due by the next round (180 s on): moto counts delays on the wall
        clock, so the round lets them through."""
        from moto.backends import get_backend

        from infra.local.template import ACCOUNT, REGION

        name = self.queue.rsplit("/", 1)[1]
        queue = get_backend("sqs")[ACCOUNT][REGION].queues[name]
        with queue._messages_lock:
            for message in queue._messages:
                message.delayed_until = 0

    def drain(self, rounds: int = 10) -> list[tuple[int, int]]:
        out = []
        for _ in range(rounds):
            got = self.poll()
            if got[0] == 0:
                break
            out.append(got)
        return out

    def dead_letters(self) -> list[dict[str, Any]]:
        from tandem.integrations.aws import client

        answer = client("sqs").receive_message(QueueUrl=self.dlq, MaxNumberOfMessages=10, VisibilityTimeout=0)
        return answer.get("Messages", [])
