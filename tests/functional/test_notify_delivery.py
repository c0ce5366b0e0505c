"""Delivery guarantees of the notifier: an address SES reports as bouncing (or complaining) is not
mailed again, and a notification whose delivery keeps failing is retried, then kept whole in the
dead-letter queue, from where it can be delivered later: nothing is lost."""

from __future__ import annotations

import json

import pytest

from tests.functional.helpers import Brand, mail_to, send

pytestmark = pytest.mark.delivery  # every test here looks at what the notifier delivers


def _publish_ses_event(aws, event: dict) -> None:
    """What SES does for the configuration set's event destination: publish the event to the
    topic; moto's SNS invokes the subscribed function (EmailEventsFunction) as AWS does."""
    from tandem.integrations.aws import client

    sns = client("sns")
    (topic,) = [t["TopicArn"] for t in sns.list_topics()["Topics"] if t["TopicArn"].endswith("email-events")]
    sns.publish(TopicArn=topic, Message=json.dumps(event))


def _bounce(address: str, bounce_type: str = "Permanent") -> dict:
    return {
        "eventType": "Bounce",
        "bounce": {
            "bounceType": bounce_type,
            "bounceSubType": "General" if bounce_type == "Permanent" else "MailboxFull",
            "bouncedRecipients": [
                {"emailAddress": address, "diagnosticCode": "smtp; 550 5.1.1 user unknown"}
            ],
            "timestamp": "2026-11-23T08:00:00.000Z",
        },
        "mail": {"destination": [address], "messageId": "0100018c-test"},
    }


def _complaint(address: str) -> dict:
    return {
        "notificationType": "Complaint",  # the identity-notification shape
        "complaint": {"complainedRecipients": [{"emailAddress": address}], "complaintFeedbackType": "abuse"},
        "mail": {"destination": [address]},
    }


@pytest.mark.delivery
def test_a_bounced_or_complaining_address_is_not_mailed_again(api, aws):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    d = Brand("d@example.com", "Pebble Paper")
    assert send(api, a, b)[0] == 201
    assert len(mail_to("b@example.com")) == 1

    _publish_ses_event(aws, _bounce("B@Example.com"))  # the address as the mail server wrote it
    _publish_ses_event(aws, _complaint("c@example.com"))
    _publish_ses_event(aws, _bounce("d@example.com", "Transient"))  # a full mailbox: try again later

    e = Brand("e@example.com", "Loaf Life", credits=6)
    for other in (b, c, d):
        assert send(api, e, other)[0] == 201
    assert len(mail_to("b@example.com")) == 1  # the first one only
    assert mail_to("c@example.com") == []
    assert len(mail_to("d@example.com")) == 1

    from tandem.store.notify import SuppressedAddress

    marked = SuppressedAddress.find("b@example.com")
    assert marked is not None and marked.reason == "bounce" and "5.1.1" in marked.detail
    assert SuppressedAddress.find("c@example.com").reason == "complaint"
    assert SuppressedAddress.find("d@example.com") is None


@pytest.mark.delivery
def test_the_bounce_handler_ignores_what_it_does_not_know(aws):
    from tandem.services import email_events

    assert email_events.handle_sns_message("not json") == 0
    assert email_events.handle_sns_message(json.dumps({"eventType": "Delivery"})) == 0
    assert email_events.handle_sns_message(json.dumps([1, 2])) == 0


def _queue_urls(aws) -> tuple[str, str]:
    from tandem.integrations.aws import client

    sqs = client("sqs")
    return (
        sqs.get_queue_url(QueueName=aws.queues["NotificationsQueue"]["name"])["QueueUrl"],
        sqs.get_queue_url(QueueName=aws.queues["NotificationsDeadLetterQueue"]["name"])["QueueUrl"],
    )


def _poll_once(aws, queue_url: str) -> tuple[int, list[str]]:
    """One poll of Lambda's SQS event source: receive, invoke the notifier with the batch, delete
    what it did not report as failed. Returns (records received, failed message ids)."""
    from tandem.integrations.aws import client

    sqs = client("sqs")
    # VisibilityTimeout 0: a failed message is visible again at once (in AWS: after 180 s).
    answer = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, VisibilityTimeout=0)
    messages = answer.get("Messages", [])
    if not messages:
        return 0, []
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
        FunctionName=aws.functions["NotifierFunction"].name, Payload=json.dumps({"Records": records}).encode()
    )
    payload = json.loads(result["Payload"].read())
    if result.get("FunctionError"):  # every record failed: the whole batch stays
        failed = [m["MessageId"] for m in messages]
    else:
        failed = [f["itemIdentifier"] for f in payload["batchItemFailures"]]
    for m in messages:
        if m["MessageId"] not in failed:
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"])
    return len(messages), failed


@pytest.mark.delivery
def test_a_delivery_that_keeps_failing_is_retried_then_kept_whole_in_the_dlq(api, aws):
    from tandem.config import settings
    from tandem.integrations.aws import client

    queue, dlq = _queue_urls(aws)
    max_receives = aws.queues["NotificationsQueue"]["RedrivePolicy"]["maxReceiveCount"]
    assert max_receives == 5
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    ses = client("ses")
    domain = settings().mail_from.split("@", 1)[1].rstrip(">")
    ses.delete_identity(Identity=domain)  # SES now refuses every message (MessageRejected)

    assert send(api, a, b)[0] == 201  # the request is made; its notification waits in the queue
    assert mail_to("b@example.com") == []

    attempts = 1  # the event source's first delivery, as the message was sent
    while True:
        received, failed = _poll_once(aws, queue)
        if not received:
            break
        assert failed  # it keeps failing
        attempts += received
    assert attempts == max_receives  # retried up to the queue's maxReceiveCount, then moved

    kept = client("sqs").receive_message(QueueUrl=dlq, MaxNumberOfMessages=10)["Messages"]
    (message,) = [json.loads(m["Body"]) for m in kept]
    assert message["channel"] == "notify" and message["template"] == "request_received"
    assert message["context"]["sender_brand"] == "Oat & Co"  # the whole message, nothing lost

    # Once SES takes mail again, the kept message is moved back and delivered.
    ses.verify_domain_identity(Domain=domain)
    for m in kept:
        client("sqs").send_message(QueueUrl=queue, MessageBody=m["Body"])
        client("sqs").delete_message(QueueUrl=dlq, ReceiptHandle=m["ReceiptHandle"])
    (mail,) = mail_to("b@example.com")
    assert mail.subject == "Oat & Co would like to collaborate with Fern Candles"


@pytest.mark.delivery
@pytest.mark.long
def test_a_push_the_service_keeps_refusing_with_429_is_retried_then_falls_back_to_email(api, aws, fake_push):
    """Each-run matches by browser only (email on just for the digest): the push service answers
    429 every time; the notifier puts the push back on the queue up to MAX_PUSH_RETRIES times,
    never sleeping, then gives up and sends the message by email, since the member takes email
    for new matches."""
    from tandem.services import notify
    from tests.functional.test_notifications import _poll_notifier, _subscribe
    from tests.functional.test_notify_sources import _others, _store

    mia = Brand("mia@example.com", "Oat & Co")
    subscription = _subscribe(api, mia, fake_push)
    change = {"new_matches": {"subOptions": {"each_run": {"browser": True}}}}
    assert api.call("PUT", "/api/notifications/user", mia.headers, change)[0] == 200
    fake_push.answer(subscription, 429, retry_after=1, times=None)

    _store(mia, _others(2))
    assert mail_to("mia@example.com") == [] and fake_push.messages(subscription) == []
    for _ in range(notify.MAX_PUSH_RETRIES):
        assert _poll_notifier(aws) == 1  # each retry comes back after Retry-After
    assert fake_push.messages(subscription) == []
    (mail,) = mail_to("mia@example.com")
    assert mail.subject == "2 new matches for Oat & Co"


@pytest.mark.delivery
def test_the_test_notification_reports_each_channel_and_fails_only_when_none_was_reached(
    api,
    aws,
    fake_slack,
    monkeypatch,
):
    from tandem.config import reset_settings
    from tests.functional.helpers import redirected_to, slack_consent

    monkeypatch.setenv("SLACK_NOTIFICATIONS_ACTIVE", "true")
    reset_settings()
    b = Brand("b@example.com", "Fern Candles")
    test = {"title": "Test notification", "body": "It works", "url": "/account/notifications/"}
    redirected_to(api, slack_consent(api, fake_slack, b))
    status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, test)
    assert body["message"] == (
        "Email: sent · Browser: not turned on in any browser · Slack: choose a channel first"
    )

    fake_slack.set_channel("partnerships", private=True)  # private, and the app is not in it
    channel = fake_slack.channel_id("partnerships")
    choice = {"channelId": channel, "channelName": "partnerships"}
    assert api.call("POST", "/api/slack/select-channel", b.headers, choice)[0] == 200
    status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, test)
    assert status == 200
    assert body["message"].startswith(
        "Email: sent · Browser: not turned on in any browser · Slack #partnerships: "
    )
    assert "invite the app" in body["message"]

    fake_slack.set_channel("partnerships", bot_member=True)
    _publish_ses_event(aws, _bounce("b@example.com"))
    status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, test)
    assert (status, body["message"].split(" · ")[0]) == (
        200,
        "Email: not sent, this address bounced or marked our mail as spam before",
    )
    assert body["message"].endswith("Slack #partnerships: sent")
    (posted,) = fake_slack.posted(channel)
    assert "Test notification" in posted.text

    fake_slack.revoke(next(iter(fake_slack._installs)))  # the workspace removed the app
    status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, test)
    assert status == 400 and body["error"].startswith("Failed to send test notification. Email: not sent")
    monkeypatch.undo()
    reset_settings()


# ---------------------------------------------------------------- one channel failing


def _drain(aws, queue: str) -> list[int]:
    """Poll the queue as Lambda's event source does until it is empty; the failed count of each
    poll (the message is redelivered after each failure, then moved to the DLQ)."""
    failures = []
    while True:
        received, failed = _poll_once(aws, queue)
        if not received:
            return failures
        failures.append(len(failed))


def _vapid_secret(aws, value: str | None = None) -> str:
    """The VAPID secret's value; with `value`, replace it (and forget the cached copy, as the
    notifier does within 5 minutes)."""
    from tandem.integrations.aws import client, reset_clients

    name = aws.secrets["VapidSecret"]
    before = client("secretsmanager").get_secret_value(SecretId=name)["SecretString"]
    if value is not None:
        client("secretsmanager").put_secret_value(SecretId=name, SecretString=value)
        reset_clients()
    return before


def test_a_push_that_keeps_failing_is_retried_alone_and_the_email_goes_once(api, aws, fake_push):
    """Email and browser for requests received; the push channel raises at every try (the VAPID
    secret was broken): the queue redelivers the message up to its maxReceiveCount and keeps it
    in the DLQ, and the email, recorded as delivered at the first try, is never sent again.
    Once the secret is fixed, the message moved back delivers the push alone."""
    from tandem.integrations.aws import client
    from tests.functional.test_notifications import _subscribe

    queue, dlq = _queue_urls(aws)
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    subscription = _subscribe(api, b, fake_push)
    change = {"requests_received": {"browser": True}}  # email stays on
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200
    good = _vapid_secret(aws, json.dumps({"private_key": ""}))

    assert send(api, a, b)[0] == 201  # the first delivery: email sent, push raised
    assert _drain(aws, queue) == [1, 1, 1, 1]  # 4 redeliveries, each failing, then the DLQ
    assert len(mail_to("b@example.com")) == 1  # exactly one email across the 5 tries
    assert fake_push.messages(subscription) == []

    _vapid_secret(aws, good)
    (kept,) = client("sqs").receive_message(QueueUrl=dlq, MaxNumberOfMessages=10)["Messages"]
    client("sqs").send_message(QueueUrl=queue, MessageBody=kept["Body"])
    client("sqs").delete_message(QueueUrl=dlq, ReceiptHandle=kept["ReceiptHandle"])
    (message,) = fake_push.messages(subscription)
    assert message.json()["title"].startswith("Oat & Co")
    assert len(mail_to("b@example.com")) == 1  # still one


def test_a_stored_push_endpoint_with_a_malformed_port_fails_that_push_only(api, aws, fake_push):
    """A subscription kept from before endpoints were parsed strictly: every push to it fails
    at once (no request is made), the notification is delivered by email once and not retried,
    and the test notification reports it instead of answering 500."""
    from tandem.store.notify import PushSubscription

    queue, _ = _queue_urls(aws)
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    keys = fake_push.subscribe(
        api.call("GET", "/api/browser-notifications/vapid-public-key", b.headers)[1]["publicKey"]
    ).info()["keys"]
    user_id = b.user.user_id
    for endpoint in (
        "https://fcm.googleapis.com:443:443/fcm/send/x",
        "https://fcm.googleapis.com:99999/x",
    ):
        PushSubscription.store(user_id, {"endpoint": endpoint, "keys": keys})
    change = {"requests_received": {"browser": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200

    assert send(api, a, b)[0] == 201
    assert _drain(aws, queue) == []  # delivered at the first try: nothing left to retry
    assert len(mail_to("b@example.com")) == 1

    status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, {"title": "Hi"})
    assert (status, body["message"]) == (200, "Email: sent · Browser: delivered to 0 devices, 2 failed")


def test_a_push_service_redirect_is_never_followed(api, aws, fake_push):
    """A push endpoint answering 307 to another address: the server does not POST there, and
    the push counts as failed (the member takes email too, so nothing falls back)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from tests.functional.test_notifications import _subscribe

    hits: list[str] = []

    class Trap(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            hits.append(self.path)
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    trap = ThreadingHTTPServer(("127.0.0.1", 0), Trap)
    threading.Thread(target=trap.serve_forever, daemon=True).start()
    try:
        a = Brand("a@example.com", "Oat & Co", credits=6)
        b = Brand("b@example.com", "Fern Candles")
        subscription = _subscribe(api, b, fake_push)
        change = {"requests_received": {"browser": True}}
        assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200
        elsewhere = f"http://127.0.0.1:{trap.server_address[1]}/elsewhere"
        fake_push.answer(subscription, 307, times=None, location=elsewhere)

        assert send(api, a, b)[0] == 201
        status, body = api.call("POST", "/api/browser-notifications/send-test", b.headers, {"title": "Hi"})
        assert (status, body["message"]) == (200, "Email: sent · Browser: delivered to 0 devices, 1 failed")
        assert hits == []  # never followed
        assert fake_push.messages(subscription) == []
        assert len(mail_to("b@example.com")) == 2  # the notification's email and the test's
    finally:
        trap.shutdown()
        trap.server_close()
