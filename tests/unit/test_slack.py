import base64
from urllib.parse import parse_qs, urlsplit

import pytest

from tandem.integrations import slack

KEY = slack.state_key("app-signing-secret")
NOW = 1_800_000_000
USER = "0f3c2a9b8e7d4c6b9a1f2e3d4c5b6a79"
APP = slack.SlackApp("123.456", "shh", "https://app.tandem.test/account/notifications/slack")


def test_state_is_bound_to_the_member_and_lasts_ten_minutes():
    state = slack.new_state(KEY, USER, NOW)
    assert state.expires == NOW + 600 and state.user_id == USER and len(state.state_id) == 32
    assert slack.verify_state(KEY, state.token, NOW + 599, user_id=USER) == state
    assert slack.verify_state(KEY, state.token, NOW + 599).user_id == USER  # callback without a session
    with pytest.raises(slack.SlackError) as raised:
        slack.verify_state(KEY, state.token, NOW + 600, user_id=USER)
    assert raised.value.message == slack.STATE_EXPIRED
    with pytest.raises(slack.SlackError) as raised:
        slack.verify_state(KEY, state.token, NOW, user_id="someoneelse")
    assert raised.value.message == slack.STATE_OTHER_MEMBER


def test_every_state_is_new():
    assert slack.new_state(KEY, USER, NOW).state_id != slack.new_state(KEY, USER, NOW).state_id


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t.replace(USER, "a" * 32),  # claims another member
        lambda t: ".".join(t.split(".")[:2] + [str(NOW + 10**6)] + t.split(".")[3:]),  # later expiry
        lambda t: t[:-2],
        lambda t: "x.y.z",
        lambda t: None,
        lambda t: "",
        lambda t: t + "." * 400,
    ],
)
def test_forged_states_are_refused(forge):
    token = slack.new_state(KEY, USER, NOW).token
    with pytest.raises(slack.SlackError) as raised:
        slack.verify_state(KEY, forge(token), NOW)
    assert raised.value.message == slack.STATE_INVALID


def test_a_state_signed_with_another_key_is_refused():
    token = slack.new_state(slack.state_key("other"), USER, NOW).token
    with pytest.raises(slack.SlackError):
        slack.verify_state(KEY, token, NOW)


def test_authorize_url_asks_for_the_bot_scopes_and_carries_the_state():
    url = slack.authorize_url(APP, "STATE")
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://slack.com/oauth/v2/authorize"
    query = parse_qs(parts.query)
    assert query == {
        "client_id": ["123.456"],
        "scope": ["chat:write,channels:read,groups:read,channels:join"],
        "state": ["STATE"],
        "redirect_uri": [APP.redirect_uri],
    }


def test_callback_errors_have_member_messages():
    assert "cancelled" in slack.callback_error_message("access_denied")
    assert slack.callback_error_message("whatever") == "Slack wasn't connected. Please try again."


INSTALL = slack.Installation("T1", "Oat & Honey HQ", "xoxb-1-secret", "U0BOT", "chat:write", "A1", 1)


def test_installation_round_trips_encrypted_and_bound_to_its_owner():
    key = slack.new_encryption_key()
    blob = slack.encrypt_installation(key, INSTALL, owner="account-1")
    # Neither the token nor the team's name is there, as text or as bytes under the base64 (whole
    # values: a 3- or 4-letter piece turns up in random base64 about once in 1,300 blobs).
    raw = base64.urlsafe_b64decode(blob[3:] + "=" * (-len(blob[3:]) % 4))
    for secret in (INSTALL.bot_token, INSTALL.team_name):
        assert secret not in blob and secret.encode() not in raw
    assert blob.startswith("v1.")
    assert slack.decrypt_installation(key, blob, owner="account-1") == INSTALL
    assert slack.encrypt_installation(key, INSTALL, "account-1") != blob  # a fresh nonce each time
    for wrong in (
        lambda: slack.decrypt_installation(key, blob, owner="account-2"),
        lambda: slack.decrypt_installation(slack.new_encryption_key(), blob, owner="account-1"),
        lambda: slack.decrypt_installation(key, blob[:-4] + "AAAA", owner="account-1"),
        lambda: slack.decrypt_installation(key, "v0." + blob[3:], owner="account-1"),
        lambda: slack.decrypt_installation(key, "garbage", owner="account-1"),
    ):
        with pytest.raises(slack.SlackError) as raised:
            wrong()
        assert raised.value.message == slack.UNREADABLE


def test_bad_encryption_keys_are_refused():
    with pytest.raises(ValueError, match="32 bytes"):
        slack.encrypt_installation("c2hvcnQ", INSTALL, "a")


def test_the_token_never_shows_in_a_repr():
    assert "xoxb" not in repr(INSTALL) and "secret" not in repr(INSTALL)


def test_message_text_escapes_what_members_typed():
    text = slack.message_text(
        "<!channel> Bean & Co would like to collaborate",
        "Hi <@U123>, see <https://evil.test|this>",
        "https://app.tandem.test/requests/received/2/r1",
    )
    assert text == (
        "*&lt;!channel&gt; Bean &amp; Co would like to collaborate*\n"
        "Hi &lt;@U123&gt;, see &lt;https://evil.test|this&gt;\n"
        "<https://app.tandem.test/requests/received/2/r1|Open in Tandem>"
    )
    with pytest.raises(ValueError):
        slack.message_text("x", url="javascript:alert(1)")
    with pytest.raises(ValueError):
        slack.message_text("x", url="https://a.test/|<!channel>")
