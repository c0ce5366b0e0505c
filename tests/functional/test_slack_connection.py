"""Slack connection through the API against the local Slack stand-in (infra/local/fake_slack.py):
OAuth v2 with a single-use state bound to the member, channels, the chosen channel, status that
shows a revoked app as disconnected."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.functional.helpers import Brand, redirected_to, slack_consent


@pytest.mark.delivery
def test_connect_choose_a_channel_and_status(api, fake_slack):
    a = Brand("a@example.com", "Oat & Co")
    assert api.call("GET", "/api/slack/status", a.headers) == (
        200,
        {"connected": False, "channelName": None, "teamName": None},
    )
    callback = slack_consent(api, fake_slack, a)
    location = redirected_to(api, callback)
    assert location.endswith("/account/notifications/?slack=connected")
    # The state works once.
    again = redirected_to(api, callback)
    assert "slackError=" in again

    status, listed = api.call("GET", "/api/slack/channels", a.headers)
    assert status == 200
    assert [c["name"] for c in listed["channels"]] == ["general", "partnerships", "random"]

    assert api.call("POST", "/api/slack/select-channel", a.headers, {}) == (
        400,
        {"error": "Choose a Slack channel for your notifications."},
    )
    assert (
        api.call("POST", "/api/slack/select-channel", a.headers, {"channelId": "x;", "channelName": "a"})[0]
        == 400
    )
    chosen = next(c for c in listed["channels"] if c["name"] == "partnerships")
    status, body = api.call(
        "POST",
        "/api/slack/select-channel",
        a.headers,
        {"channelId": chosen["id"], "channelName": "partnerships"},
    )
    assert status == 200, body
    assert api.call("GET", "/api/slack/status", a.headers) == (
        200,
        {"connected": True, "channelName": "partnerships", "teamName": "Tandem Local"},
    )

    # The member's installation is theirs alone: another member is not connected.
    b = Brand("b@example.com", "Fern Candles")
    assert api.call("GET", "/api/slack/status", b.headers)[1]["connected"] is False
    assert api.call("GET", "/api/slack/channels", b.headers) == (
        400,
        {"error": "Slack isn't connected. Connect Slack first."},
    )


@pytest.mark.delivery
def test_a_cancelled_consent_and_a_revoked_app(api, fake_slack):
    from tandem.services import slack_connection
    from tandem.store.notify import SlackConnection

    a = Brand("a@example.com", "Oat & Co")
    location = redirected_to(api, slack_consent(api, fake_slack, a, allow=False))
    assert "slackError=" in location and "cancelled" in parse_qs(urlsplit(location).query)["slackError"][0]
    assert api.call("GET", "/api/slack/status", a.headers)[1]["connected"] is False

    redirected_to(api, slack_consent(api, fake_slack, a))
    connection = SlackConnection.find(a.user.user_id)
    token = slack_connection.token_of(a.user.user_id, connection)
    assert token.startswith("xoxb-") and token not in connection.installation  # stored encrypted
    fake_slack.revoke(token)
    status, body = api.call("GET", "/api/slack/status", a.headers)
    assert status == 200 and body["connected"] is False
    assert body["message"].startswith("Slack is disconnected")


@pytest.mark.delivery
def test_a_forged_state_connects_nothing(api, fake_slack):
    a = Brand("a@example.com", "Oat & Co")
    location = redirected_to(api, "/api/slack/callback?code=abc&state=forged.state.1.x")
    assert "slackError=" in location
    assert api.call("GET", "/api/slack/status", a.headers)[1]["connected"] is False


@pytest.mark.delivery
def test_with_slack_on_a_request_is_posted_to_the_chosen_channel(api, fake_slack, monkeypatch):
    """Slack turned on for the environment; the member picks a public channel the app is not in
    yet: the notifier joins it once and posts there, and the email still goes out."""
    from tandem.config import reset_settings
    from tests.functional.helpers import mail_to, send

    monkeypatch.setenv("SLACK_NOTIFICATIONS_ACTIVE", "true")
    reset_settings()
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    redirected_to(api, slack_consent(api, fake_slack, b))
    channel = fake_slack.channel_id("partnerships")
    choice = {"channelId": channel, "channelName": "partnerships"}
    assert api.call("POST", "/api/slack/select-channel", b.headers, choice)[0] == 200
    assert (
        api.call("PUT", "/api/notifications/user", b.headers, {"requests_received": {"slack": True}})[0]
        == 200
    )

    assert send(api, a, b)[0] == 201
    (posted,) = fake_slack.posted(channel)
    assert "*Oat &amp; Co would like to collaborate with Fern Candles*" in posted.text
    assert fake_slack.calls("conversations.join") == 1
    assert len(mail_to("b@example.com")) == 1
    monkeypatch.undo()
    reset_settings()


def test_slack_is_chosen_only_once_connected_and_disconnecting_turns_it_off(api, fake_slack, monkeypatch):
    from tandem.config import reset_settings

    monkeypatch.setenv("SLACK_NOTIFICATIONS_ACTIVE", "true")
    reset_settings()
    b = Brand("b@example.com", "Fern Candles")
    turn_on = {"requests_received": {"slack": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, turn_on) == (
        400,
        {"error": "Slack isn't connected. Connect Slack first."},
    )
    sub_on = {"new_matches": {"subOptions": {"each_run": {"slack": True}}}}
    assert api.call("PUT", "/api/notifications/user", b.headers, sub_on)[0] == 400
    # Turning other things on or off is not held up by Slack.
    assert (
        api.call("PUT", "/api/notifications/user", b.headers, {"requests_received": {"email": False}})[0]
        == 200
    )

    assert redirected_to(api, slack_consent(api, fake_slack, b)).endswith("slack=connected")
    status, saved = api.call("PUT", "/api/notifications/user", b.headers, turn_on)
    assert status == 200 and saved["requests_received"]["slack"] is True

    assert api.call("POST", "/api/slack/disconnect", b.headers) == (
        200,
        {"connected": False, "channelName": None, "teamName": None},
    )
    assert api.call("GET", "/api/slack/status", b.headers)[1]["connected"] is False
    settings = api.call("GET", "/api/notifications/user", b.headers)[1]
    assert settings["requests_received"]["slack"] is False
    assert settings["requests_received"]["email"] is False  # untouched
    assert api.call("PUT", "/api/notifications/user", b.headers, turn_on)[0] == 400
    monkeypatch.undo()
    reset_settings()
