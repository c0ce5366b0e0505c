"""Slack against the local stand-in: the real slack_sdk.WebClient and tandem.integrations.slack
talk to infra/local/fake_slack.py over HTTP on loopback."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from tandem.integrations import slack

REDIRECT = "http://127.0.0.1:18799/account/notifications/slack"
USER = "0f3c2a9b8e7d4c6b9a1f2e3d4c5b6a79"
KEY = slack.state_key("local-signing-secret")


@pytest.fixture
def app(fake_slack) -> slack.SlackApp:
    return slack.SlackApp(
        client_id=fake_slack.client_id,
        client_secret=fake_slack.client_secret,
        redirect_uri=REDIRECT,
        api_url=f"{fake_slack.url}/api/",
        authorize_url=f"{fake_slack.url}/oauth/v2/authorize",
        timeout=5,
    )


def _client(fake_slack, token=None, **kwargs) -> WebClient:
    return WebClient(token=token, base_url=f"{fake_slack.url}/api/", timeout=5, **kwargs)


def _click(page_url: str, decision: str) -> str:
    """What a person (or Playwright) does on the authorize page: press Allow or Cancel."""
    page = requests.get(page_url, timeout=5)
    assert page.status_code == 200 and ">Allow</button>" in page.text and ">Cancel</button>" in page.text
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', page.text))
    base = page_url.split("/oauth/")[0]
    answer = requests.post(
        f"{base}/oauth/v2/authorize", data={**fields, "decision": decision}, allow_redirects=False, timeout=5
    )
    assert answer.status_code == 302
    return answer.headers["Location"]


# ---------------------------------------------------------------- the fake, through the real WebClient


def test_oauth_and_auth_test_with_the_real_web_client(fake_slack):
    location = fake_slack.authorize(fake_slack.client_id, "chat:write,incoming-webhook", REDIRECT, "st")
    code = parse_qs(urlsplit(location).query)["code"][0]
    client = _client(fake_slack)
    answer = client.oauth_v2_access(
        client_id=fake_slack.client_id, client_secret=fake_slack.client_secret, code=code
    )
    assert answer["ok"] and answer["token_type"] == "bot" and answer["access_token"].startswith("xoxb-")
    assert answer["team"] == {"id": "T0LOCAL01", "name": "Tandem Local"}
    assert answer["incoming_webhook"]["channel"] == "#general"
    with pytest.raises(SlackApiError) as used:
        client.oauth_v2_access(
            client_id=fake_slack.client_id, client_secret=fake_slack.client_secret, code=code
        )
    assert used.value.response["error"] == "invalid_code"
    me = _client(fake_slack, answer["access_token"]).auth_test()
    assert me["team_id"] == "T0LOCAL01" and me["user_id"] == answer["bot_user_id"]


def test_wrong_client_secret_and_tokens(fake_slack):
    location = fake_slack.authorize(fake_slack.client_id, "chat:write", REDIRECT, "st")
    code = parse_qs(urlsplit(location).query)["code"][0]
    with pytest.raises(SlackApiError) as bad:
        _client(fake_slack).oauth_v2_access(client_id=fake_slack.client_id, client_secret="nope", code=code)
    assert bad.value.response["error"] == "bad_client_secret"
    for token, error in ((None, "not_authed"), ("xoxb-made-up", "invalid_auth")):
        with pytest.raises(SlackApiError) as refused:
            _client(fake_slack, token).auth_test()
        assert refused.value.response["error"] == error
    token = fake_slack.install()
    assert _client(fake_slack, token).auth_revoke()["revoked"] is True
    with pytest.raises(SlackApiError) as revoked:
        _client(fake_slack, token).auth_test()
    assert revoked.value.response["error"] == "token_revoked"


def test_conversations_list_pages_with_cursors(fake_slack):
    for n in range(7):
        fake_slack.add_channel(f"team-{n}")
    fake_slack.add_channel("secret-room", private=True, bot_member=True)
    fake_slack.add_channel("hidden-room", private=True)  # the bot is not in it: not listed
    fake_slack.add_channel("old", archived=True)
    client = _client(fake_slack, fake_slack.install())
    names, cursor, pages = [], None, 0
    while True:
        page = client.conversations_list(
            types="public_channel,private_channel", limit=4, cursor=cursor, exclude_archived=True
        )
        pages += 1
        names += [c["name"] for c in page["channels"]]
        cursor = page["response_metadata"]["next_cursor"]
        if not cursor:
            break
    assert pages == 3
    assert "secret-room" in names and "hidden-room" not in names and "old" not in names
    assert len(names) == len(set(names)) == 11  # general, random, partnerships, 7 teams, secret-room
    public_only = client.conversations_list(limit=100)
    assert "secret-room" not in [c["name"] for c in public_only["channels"]]


def test_post_join_and_the_errors_slack_gives(fake_slack):
    client = _client(fake_slack, fake_slack.install())
    partnerships = fake_slack.channel_id("partnerships")
    with pytest.raises(SlackApiError) as outside:
        client.chat_postMessage(channel=partnerships, text="hi")
    assert outside.value.response["error"] == "not_in_channel"
    assert client.conversations_join(channel=partnerships)["channel"]["is_member"] is True
    posted = client.chat_postMessage(channel=partnerships, text="hi")
    assert posted["ok"] and posted["channel"] == partnerships
    assert [(p.channel, p.text) for p in fake_slack.posted()] == [(partnerships, "hi")]

    secret = fake_slack.add_channel("secret", private=True)
    for call in (
        lambda: client.chat_postMessage(channel=secret, text="x"),
        lambda: client.conversations_join(channel=secret),
    ):
        with pytest.raises(SlackApiError) as hidden:
            call()
        assert hidden.value.response["error"] == "channel_not_found"
    fake_slack.set_channel("secret", bot_member=True)
    with pytest.raises(SlackApiError) as private:
        client.conversations_join(channel=secret)
    assert private.value.response["error"] == "method_not_supported_for_channel_type"
    with pytest.raises(SlackApiError) as empty, pytest.warns(UserWarning, match="`text` argument is missing"):
        client.chat_postMessage(channel=secret, text="")
    assert empty.value.response["error"] == "no_text"


def test_429_with_retry_after_and_the_sdks_rate_limit_retry_handler(fake_slack):
    token = fake_slack.install()
    fake_slack.rate_limit(times=1, retry_after=0, method="auth.test")
    with pytest.raises(SlackApiError) as limited:
        _client(fake_slack, token).auth_test()  # the default handlers do not retry a 429
    assert limited.value.response.status_code == 429
    assert limited.value.response.headers["Retry-After"] == "0"
    assert limited.value.response["error"] == "ratelimited"

    fake_slack.rate_limit(times=1, retry_after=0, method="auth.test")
    patient = _client(fake_slack, token, retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)])
    assert patient.auth_test()["ok"]  # waited Retry-After (0 s + jitter) and tried again
    assert fake_slack.calls("auth.test") == 3


def test_the_authorize_page_allow_and_cancel(fake_slack):
    query = f"client_id={fake_slack.client_id}&scope=chat:write&state=abc&redirect_uri={REDIRECT}"
    allowed = _click(f"{fake_slack.url}/oauth/v2/authorize?{query}", "allow")
    params = parse_qs(urlsplit(allowed).query)
    assert allowed.startswith(REDIRECT + "?") and params["state"] == ["abc"] and params["code"]
    cancelled = _click(f"{fake_slack.url}/oauth/v2/authorize?{query}", "cancel")
    assert parse_qs(urlsplit(cancelled).query) == {"error": ["access_denied"], "state": ["abc"]}
    unknown = requests.get(
        f"{fake_slack.url}/oauth/v2/authorize?client_id=other&scope=x&redirect_uri=x", timeout=5
    )
    assert unknown.status_code == 400


# ---------------------------------------------------------------- tandem.integrations.slack against the fake


def test_connect_from_authorize_url_to_an_encrypted_installation(fake_slack, app):
    state = slack.new_state(KEY, USER, now=1_900_000_000)
    location = _click(slack.authorize_url(app, state.token), "allow")
    params = parse_qs(urlsplit(location).query)
    back = slack.verify_state(KEY, params["state"][0], now=1_900_000_100, user_id=USER)
    assert back.state_id == state.state_id
    installation = slack.exchange_code(app, params["code"][0])
    assert installation.team_name == "Tandem Local" and installation.bot_token.startswith("xoxb-")
    assert installation.scope == ",".join(slack.BOT_SCOPES)
    key = slack.new_encryption_key()
    stored = slack.encrypt_installation(key, installation, owner=USER)
    token = slack.decrypt_installation(key, stored, owner=USER).bot_token
    assert slack.check_connection(app, token).outcome == "ok"
    with pytest.raises(slack.SlackError) as again:
        slack.exchange_code(app, params["code"][0])
    assert again.value.code == "invalid_code" and "expired or was already used" in again.value.message


def test_cancel_on_slacks_page(fake_slack, app):
    location = _click(slack.authorize_url(app, "s"), "cancel")
    error = parse_qs(urlsplit(location).query)["error"][0]
    assert (
        slack.callback_error_message(error)
        == "Slack wasn't connected: the request was cancelled on Slack's page."
    )


def test_channel_list_for_the_chooser_reads_every_page(fake_slack, app):
    for n in range(450):
        fake_slack.add_channel(f"c-{n:03d}")
    fake_slack.add_channel("Alpha-private", private=True, bot_member=True)
    fake_slack.add_channel("archived", archived=True)
    result = slack.list_channels(app, fake_slack.install())
    assert result.outcome == "ok"
    names = [c["name"] for c in result.channels]
    assert len(names) == 454 and names[0] == "Alpha-private" and "archived" not in names
    assert fake_slack.calls("conversations.list") == 3  # 200 a page
    private = next(c for c in result.channels if c["name"] == "Alpha-private")
    assert private == {"id": private["id"], "name": "Alpha-private", "is_private": True, "is_member": True}


def test_channel_list_waits_out_a_short_rate_limit_only(fake_slack, app):
    token = fake_slack.install()
    fake_slack.rate_limit(times=1, retry_after=0, method="conversations.list")
    assert slack.list_channels(app, token).outcome == "ok"
    fake_slack.rate_limit(times=1, retry_after=30, method="conversations.list")
    limited = slack.list_channels(app, token)
    assert (limited.outcome, limited.retry_after) == ("retry", 30)


def test_missing_scopes_are_reported(fake_slack, app):
    token = fake_slack.install(scope="chat:write")
    result = slack.list_channels(app, token)
    assert result.outcome == "failed" and result.error == "missing_scope"
    assert result.reason == "The app is missing a permission. Please connect Slack again."


def test_post_to_a_joined_channel(fake_slack, app):
    token = fake_slack.install()
    general = fake_slack.channel_id("general")
    result = slack.post_message(app, token, general, slack.message_text("Test", "It works"))
    assert result.outcome == "sent" and result.ts and not result.joined
    assert fake_slack.posted(general)[0].text == "*Test*\nIt works"


def test_not_in_a_public_channel_joins_once_and_posts(fake_slack, app):
    token = fake_slack.install()
    channel = fake_slack.channel_id("partnerships")
    result = slack.post_message(app, token, channel, "hello", channel_name="partnerships")
    assert result.outcome == "sent" and result.joined
    assert fake_slack.calls("conversations.join") == 1 and fake_slack.calls("chat.postMessage") == 2
    again = slack.post_message(app, token, channel, "hello again")
    assert again.outcome == "sent" and not again.joined
    assert fake_slack.calls("conversations.join") == 1
    assert [p.text for p in fake_slack.posted(channel)] == ["hello", "hello again"]


def test_private_channel_without_the_app_asks_for_an_invite(fake_slack, app):
    token = fake_slack.install()
    channel = fake_slack.add_channel("deals", private=True, bot_member=True)
    fake_slack.set_channel("deals", bot_member=False)  # someone removed the app
    result = slack.post_message(app, token, channel, "hello", channel_name="deals")
    assert result.outcome == "channel_not_found"
    assert result.reason.startswith("Slack can't find #deals: if it is private, invite the app")
    public_but_private_now = fake_slack.channel_id("random")
    fake_slack.set_channel("random", private=True, bot_member=True)
    fake_slack.set_channel("random", bot_member=False)
    assert slack.post_message(app, token, public_but_private_now, "x").outcome == "channel_not_found"
    assert fake_slack.posted() == []


def test_not_in_channel_that_cannot_be_joined_asks_for_an_invite(fake_slack, app):
    token = fake_slack.install(scope="chat:write,channels:read")  # installed without channels:join
    channel = fake_slack.channel_id("partnerships")
    result = slack.post_message(app, token, channel, "hello", channel_name="partnerships")
    assert result.outcome == "invite_app" and result.error == "missing_scope"
    assert (
        result.reason
        == "The app is not in #partnerships. Invite it there with /invite @Tandem, then try again."
    )
    assert fake_slack.posted() == []


def test_revoked_token_shows_as_disconnected(fake_slack, app):
    token = fake_slack.install()
    fake_slack.revoke(token)
    result = slack.post_message(app, token, fake_slack.channel_id("general"), "hello")
    assert result.outcome == "disconnected" and result.error == "token_revoked"
    assert slack.check_connection(app, token).outcome == "disconnected"
    assert slack.list_channels(app, token).outcome == "disconnected"
    assert slack.revoke(app, token).outcome == "ok"  # already revoked counts as done


def test_disconnect_revokes_the_token(fake_slack, app):
    token = fake_slack.install()
    assert slack.revoke(app, token).outcome == "ok"
    assert slack.check_connection(app, token).outcome == "disconnected"


def test_rate_limited_post_is_retried_later_with_retry_after(fake_slack, app):
    token = fake_slack.install()
    fake_slack.rate_limit(times=1, retry_after=12, method="chat.postMessage")
    result = slack.post_message(app, token, fake_slack.channel_id("general"), "hello")
    assert (result.outcome, result.retry_after) == ("retry", 12)
    assert fake_slack.calls("chat.postMessage") == 1  # not waited out inside the notifier
    assert slack.post_message(app, token, fake_slack.channel_id("general"), "hello").outcome == "sent"


def test_archived_channel_and_slack_not_answering(fake_slack, app):
    token = fake_slack.install()
    fake_slack.set_channel("general", archived=True)
    archived = slack.post_message(app, token, fake_slack.channel_id("general"), "x", channel_name="general")
    assert archived.outcome == "failed" and "#general is archived" in archived.reason
    gone = slack.SlackApp("id", "secret", REDIRECT, api_url="http://127.0.0.1:9/api/", timeout=1)
    assert slack.post_message(gone, token, "C1", "x").outcome == "retry"
