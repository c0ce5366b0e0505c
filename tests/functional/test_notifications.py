"""Notification settings, the one notifier path (email by template with one-click unsubscribe,
browser push through a local push service that decrypts what it receives) and the push routes."""

from __future__ import annotations

import re

import pytest

from infra.local.fake_push import FakePushService
from tests.functional.helpers import Brand, links, mail_to, press, send

UNSUBSCRIBE = re.compile(r"<https?://[^/>]+/api(/notifications/unsubscribe/[^>]+)>")


def _pair(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    return a, b


def _subscribe(api, brand: Brand, fake_push: FakePushService):
    status, body = api.call("GET", "/api/browser-notifications/vapid-public-key", brand.headers)
    assert status == 200 and len(body["publicKey"]) == 87  # 65-byte point, base64url
    subscription = fake_push.subscribe(body["publicKey"])
    status, answer = api.call(
        "POST", "/api/browser-notifications/subscribe", brand.headers, subscription.info()
    )
    assert status == 201, answer
    return subscription


@pytest.mark.delivery
def test_options_list_platforms_and_sources_with_slack_coming_soon(api):
    a = Brand("a@example.com", "Oat & Co")
    status, body = api.call("GET", "/api/notifications/options", a.headers)
    assert status == 200
    assert [(p["key"], p["active"]) for p in body["platforms"]] == [
        ("email", True),
        ("browser", True),
        ("slack", False),
    ]
    sources = {s["key"]: s for s in body["sources"]}
    assert {"requests_received", "request_accepted", "request_declined", "new_matches", "tips"} <= set(
        sources
    )
    assert sources["billing_account"]["platforms"] == {"na": ["slack"], "mandatory": ["email"]}
    assert [o["key"] for o in sources["new_matches"]["subOptions"]] == ["daily_digest", "each_run"]


@pytest.mark.delivery
def test_settings_default_then_a_partial_put_changes_only_what_it_names(api):
    a = Brand("a@example.com", "Oat & Co")
    status, settings = api.call("GET", "/api/notifications/user", a.headers)
    assert status == 200
    assert settings["requests_received"] == {"email": True, "browser": False, "slack": False}
    assert settings["new_matches"]["subOptions"]["daily_digest"]["email"] is True

    change = {
        "requests_received": {"email": False, "browser": True},
        "new_matches": {"subOptions": {"each_run": {"browser": True}}},
    }
    status, saved = api.call("PUT", "/api/notifications/user", a.headers, change)
    assert status == 200, saved
    status, again = api.call("GET", "/api/notifications/user", a.headers)
    assert again == saved
    assert again["requests_received"] == {"email": False, "browser": True, "slack": False}
    assert again["new_matches"]["subOptions"]["each_run"] == {"email": False, "browser": True, "slack": False}
    assert again["request_accepted"] == settings["request_accepted"]  # untouched


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"nope": {"email": True}}, "Unknown notification source 'nope'."),
        ({"tips": {"email": "yes"}}, "tips.email must be true or false."),
        ({"tips": {"fax": True}}, "Unknown platform 'fax' for tips. Use one of: email, browser, slack."),
        (
            {"billing_account": {"email": False}},
            "Email notifications for Billing and account are required and can't be turned off.",
        ),
        ({"tips": {"slack": True}}, "Slack notifications are not available for Tips."),
        ({"requests_received": {"slack": True}}, "Slack notifications are coming soon."),
        ({"tips": {"subOptions": {}}}, "Tips has no sub-options."),
        (
            {"new_matches": {"subOptions": {"weekly": {"email": True}}}},
            "Unknown sub-option 'weekly' for new_matches. Use one of: daily_digest, each_run.",
        ),
        ({"tips": True}, "Settings for tips must be an object of platform flags."),
    ],
)
def test_bad_settings_are_a_400_with_a_clear_message_and_nothing_changes(api, body, message):
    a = Brand("a@example.com", "Oat & Co")
    _, before = api.call("GET", "/api/notifications/user", a.headers)
    status, answer = api.call("PUT", "/api/notifications/user", a.headers, {"tips": {"email": False}, **body})
    assert status == 400
    assert answer == {"error": message}
    assert api.call("GET", "/api/notifications/user", a.headers)[1] == before


@pytest.mark.delivery
def test_a_request_received_email_has_the_template_and_one_click_unsubscribe_for_that_source(api):
    a, b = _pair(api)
    assert send(api, a, b)[0] == 201
    (mail,) = mail_to("b@example.com")
    assert mail.subject == "Oat & Co would like to collaborate with Fern Candles"
    assert "Shall we run a giveaway together?" in mail.html and "Accept" in mail.html
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    (path,) = UNSUBSCRIBE.findall(mail.headers["List-Unsubscribe"])
    assert "/unsubscribe/" in mail.body  # the footer link: a page whose button POSTs

    # The page reads the link first (no sign-in): it names the kind of email and changes nothing.
    assert api.call("GET", f"/api{path}", {}) == (
        200,
        {"source": "requests_received", "label": "Requests received"},
    )
    _, settings = api.call("GET", "/api/notifications/user", b.headers)
    assert settings["requests_received"]["email"] is True

    # The mail provider's one-click POST (form-encoded, no sign-in) turns off only this email.
    status, answer = api.call(
        "POST",
        f"/api{path}",
        {"content-type": "application/x-www-form-urlencoded"},
        b"List-Unsubscribe=One-Click",
    )
    assert status == 200, answer
    assert answer["message"] == "You won't get Requests received emails any more."
    _, settings = api.call("GET", "/api/notifications/user", b.headers)
    assert settings["requests_received"]["email"] is False
    assert settings["request_accepted"]["email"] is True and settings["tips"]["email"] is True

    c = Brand("c@example.com", "Salt Harbour", credits=6)
    assert send(api, c, b)[0] == 201
    assert len(mail_to("b@example.com")) == 1  # no second request email

    tampered = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    assert api.call("POST", f"/api{tampered}", {}, b"")[0] == 400
    # A bad link says so before the click, in the POST's words.
    assert api.call("GET", f"/api{tampered}", {}) == (
        400,
        {"error": "This unsubscribe link is not valid. Please sign in to change your notification settings."},
    )


@pytest.mark.delivery
def test_request_received_with_email_off_and_browser_on_sends_push_only(api, fake_push):
    a, b = _pair(api)
    subscription = _subscribe(api, b, fake_push)
    change = {"requests_received": {"email": False, "browser": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200

    assert send(api, a, b)[0] == 201
    assert mail_to("b@example.com") == []
    (message,) = fake_push.messages(subscription)
    payload = message.json()
    assert payload["title"] == "Oat & Co would like to collaborate with Fern Candles"
    assert payload["body"] == "Shall we run a giveaway together?"
    assert re.search(r"/requests/received/\d+/\S+$", payload["url"])
    assert message.ttl == 2 * 86400 and message.topic.startswith("req-in-")


@pytest.mark.delivery
def test_a_gone_subscription_is_removed_and_the_message_falls_back_to_email(api, fake_push):
    """Browser on, email off for requests received but the member takes email for the source
    through nothing else: no fallback. With email on elsewhere (here: the source's email flag on
    and browser on) the email goes out anyway; a 410 removes the browser."""
    from tandem.store.notify import PushSubscription

    a, b = _pair(api)
    subscription = _subscribe(api, b, fake_push)
    fake_push.unsubscribe(subscription)  # the browser dropped it: 410 from now on
    change = {"request_accepted": {"browser": True}}
    assert api.call("PUT", "/api/notifications/user", a.headers, change)[0] == 200
    _subscribe(api, a, fake_push)
    assert send(api, a, b)[0] == 201
    assert mail_to("b@example.com")  # email stays on by default
    assert len(PushSubscription.of_user(b.user.user_id)) == 1  # not touched: b has browser off

    change = {"requests_received": {"email": False, "browser": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200
    c = Brand("c@example.com", "Salt Harbour", credits=6)
    assert send(api, c, b)[0] == 201
    assert PushSubscription.of_user(b.user.user_id) == []  # 410: deleted
    # The member switched this source's email off entirely: no email from a fallback either.
    assert [m.subject for m in mail_to("b@example.com")] == [
        "Oat & Co would like to collaborate with Fern Candles"
    ]


def _poll_notifier(aws) -> int:
    """What Lambda's SQS poller does for a message that was sent with a delay (moto only hands
    messages to the function as they are sent): wait for it (long polling), invoke the notifier."""
    import json

    from tandem.config import settings
    from tandem.integrations.aws import client

    answer = client("sqs").receive_message(
        QueueUrl=settings().notifications_queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=5
    )
    records = [
        {
            "messageId": m["MessageId"],
            "receiptHandle": m["ReceiptHandle"],
            "body": m["Body"],
            "attributes": {},
            "messageAttributes": {},
            "eventSource": "aws:sqs",
        }
        for m in answer.get("Messages", [])
    ]
    result = client("lambda").invoke(
        FunctionName=aws.functions["NotifierFunction"].name, Payload=json.dumps({"Records": records}).encode()
    )
    assert json.loads(result["Payload"].read()) == {"batchItemFailures": []}
    return len(records)


@pytest.mark.delivery
def test_a_push_the_service_asks_to_retry_goes_back_on_the_queue_and_arrives(api, aws, fake_push):
    a, b = _pair(api)
    subscription = _subscribe(api, b, fake_push)
    fake_push.answer(subscription, 429, retry_after=1, times=1)
    change = {"requests_received": {"browser": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200
    assert send(api, a, b)[0] == 201
    assert fake_push.messages(subscription) == []  # 429: back on the queue, for 1 second
    assert _poll_notifier(aws) == 1
    (message,) = fake_push.messages(subscription)
    assert message.json()["title"].startswith("Oat & Co")
    assert len(mail_to("b@example.com")) == 1  # email once, not again with the retry


@pytest.mark.delivery
def test_send_test_reports_per_browser_and_validates_its_input(api, fake_push):
    a = Brand("a@example.com", "Oat & Co")
    status, body = api.call("POST", "/api/browser-notifications/send-test", a.headers, {"title": "Hi"})
    assert (status, body["message"]) == (200, "Email: sent · Browser: not turned on in any browser")
    assert [m.subject for m in mail_to("a@example.com")] == ["Test notification from Tandem"]

    first, second = _subscribe(api, a, fake_push), _subscribe(api, a, fake_push)
    fake_push.unsubscribe(second)
    test = {
        "title": "Test notification",
        "body": "It works",
        "icon": "/favicon.svg",
        "url": "/account/notifications/",
    }
    status, body = api.call("POST", "/api/browser-notifications/send-test", a.headers, test)
    assert status == 200, body
    assert body["message"] == "Email: sent · Browser: delivered to 1 device, 1 expired subscription removed"
    (message,) = fake_push.messages(first)
    assert message.json()["url"].endswith("/account/notifications/") and message.topic == "test"

    for bad, error in (
        ({"title": ""}, "title is required."),
        ({"title": "x", "url": "https://evil.example/"}, "url must be a path or an address on this site."),
        ({"title": 5}, "title must be text."),
        ({"title": "x" * 121}, "title must be at most 120 characters."),
    ):
        assert api.call("POST", "/api/browser-notifications/send-test", a.headers, bad) == (
            400,
            {"error": error},
        )


@pytest.mark.delivery
def test_subscribe_refuses_an_endpoint_that_is_not_a_push_service(api):
    a = Brand("a@example.com", "Oat & Co")
    bad = {"endpoint": "https://evil.example/push/1", "keys": {"p256dh": "x", "auth": "y"}}
    status, body = api.call("POST", "/api/browser-notifications/subscribe", a.headers, bad)
    assert status == 400
    assert body["error"] == "That push subscription is not valid. Please turn browser notifications on again."


def test_subscribe_refuses_an_endpoint_with_a_malformed_port_and_stores_nothing(api, fake_push):
    from tandem.store.notify import PushSubscription

    a = Brand("a@example.com", "Oat & Co")
    key = api.call("GET", "/api/browser-notifications/vapid-public-key", a.headers)[1]["publicKey"]
    keys = fake_push.subscribe(key).info()["keys"]
    for port in (":443:443", ":99999", ":abc"):
        bad = {"endpoint": f"https://fcm.googleapis.com{port}/fcm/send/x", "keys": keys}
        status, body = api.call("POST", "/api/browser-notifications/subscribe", a.headers, bad)
        assert (status, body["error"]) == (
            400,
            "That push subscription is not valid. Please turn browser notifications on again.",
        ), port
    assert PushSubscription.of_user(a.user.user_id) == []


@pytest.mark.delivery
def test_accept_notifies_both_brands_through_their_settings(api):
    a, b = _pair(api)
    send(api, a, b)
    assert (
        api.call("PUT", "/api/notifications/user", a.headers, {"request_accepted": {"email": False}})[0]
        == 200
    )
    assert press(api, links("b@example.com")["accept"])[0] == 200
    assert [m.subject for m in mail_to("a@example.com")] == []
    assert "You're connected with Oat & Co" in [m.subject for m in mail_to("b@example.com")]
