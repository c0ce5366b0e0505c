"""A notification put on the queue is delivered by the notifier through SES."""

import json

import pytest


@pytest.mark.delivery
def test_email_notification_from_the_queue_is_sent_through_ses(aws):
    from moto.backends import get_backend

    from tandem.config import settings
    from tandem.integrations.aws import client

    client("sqs").send_message(
        QueueUrl=settings().notifications_queue_url,
        MessageBody=json.dumps(
            {
                "channel": "email",
                "to": "mia@example.com",
                "subject": "You have a new request",
                "text": "Oat & Co would like to collaborate.",
            }
        ),
    )
    sent = get_backend("ses")["123456789012"]["eu-west-2"].sent_messages
    assert [(m.destinations["ToAddresses"], m.subject) for m in sent] == [
        (["mia@example.com"], "You have a new request")
    ]
