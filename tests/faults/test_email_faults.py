"""SES throttling and rejecting (issue 42). Throttled for 5 minutes of simulated time: each
message fails, comes back after the queue's visibility timeout (180 s: a poll round here), and
is sent once when the throttling lifts, before its fifth receive; nothing is dropped, nothing
doubled. Rejected for good: the message is received five times (the queue's maxReceiveCount),
lands whole in the DLQ, whose alarm fires on one visible message, and `make redrive
WHAT=notifications` sends it once SES takes it."""

from __future__ import annotations

import json

import pytest

from infra import redrive
from infra.local.faults import Faults
from tests.faults.conftest import Notifier
from tests.functional.helpers import Brand, mail_to, send, sent_mail
from tests.functional.test_alarm_sources import _alarm_on

SUBJECT = "{} would like to collaborate with {}"


@pytest.fixture
def notifier(aws, faults: Faults) -> Notifier:
    return Notifier(aws, faults)


def test_ses_throttled_for_five_minutes_sends_every_email_once_after_it_lifts(
    api, notifier: Notifier, faults: Faults
) -> None:
    senders = [Brand(f"s{i}@example.com", f"Sender {i}", credits=6) for i in range(5)]
    targets = [Brand(f"t{i}@example.com", f"Target {i}") for i in range(5)]
    throttled = faults.add("ses", "throttle", for_seconds=300)
    assert [send(api, s, t)[0] for s, t in zip(senders, targets, strict=True)] == [201] * 5

    rounds = notifier.drain()
    # round 1 (0 s) and 2 (180 s) throttled: all five fail; round 3 (360 s): all five sent
    assert rounds == [(5, 5), (5, 5), (5, 0)]
    assert throttled.hits >= 10 * 3  # each try is botocore's three attempts, backoff and jitter
    assert notifier.dead_letters() == []
    assert len(sent_mail()) == 5
    for sender, target in zip(senders, targets, strict=True):
        (mail,) = mail_to(target.email)
        assert mail.subject == SUBJECT.format(sender.brand.name, target.brand.name)


def test_a_rejected_email_lands_in_the_dlq_with_its_alarm_and_make_redrive_sends_it(
    aws, api, notifier: Notifier, faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles")
    faults.add("ses", "reject")
    assert send(api, oat, fern)[0] == 201
    rounds = notifier.drain()
    assert rounds == [(1, 1)] * 5  # received five times (maxReceiveCount), then moved
    assert aws.queues["NotificationsQueue"]["RedrivePolicy"]["maxReceiveCount"] == 5
    (kept,) = notifier.dead_letters()
    message = json.loads(kept["Body"])
    assert (message["channel"], message["template"]) == ("notify", "request_received")
    assert mail_to(fern.email) == []

    from tandem.integrations.aws import client

    held = client("sqs").get_queue_attributes(
        QueueUrl=notifier.dlq, AttributeNames=["ApproximateNumberOfMessages"]
    )
    assert held["Attributes"]["ApproximateNumberOfMessages"] == "1"
    dlq_name = aws.queues["NotificationsDeadLetterQueue"]["name"]
    alarm = _alarm_on("AWS/SQS", "ApproximateNumberOfMessagesVisible", QueueName=dlq_name)
    assert alarm["Threshold"] == 0 and alarm["ComparisonOperator"] == "GreaterThanThreshold"
    assert alarm["AlarmName"]["Fn::Sub"] == "tandem-${Stage}-notifications-dead-letter-queue-not-empty"

    faults.clear()  # SES takes it again (the address verified, the sending paused no more)
    monkeypatch.setenv("NOTIFICATIONS_DLQ_URL", notifier.dlq)
    (moved,) = redrive.redrive_notifications()  # make redrive WHAT=notifications
    assert moved.endswith("back on the queue")
    assert notifier.drain() == [(1, 0)]
    (mail,) = mail_to(fern.email)
    assert mail.subject == SUBJECT.format("Oat & Co", "Fern Candles")
    assert redrive.redrive_notifications() == ["the notifications DLQ is empty"]
    assert notifier.drain() == [] and len(mail_to(fern.email)) == 1
