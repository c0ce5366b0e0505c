import pytest

from tandem.domain import unsubscribe as u

KEY = u.unsubscribe_key("app-signing-secret")
NOW = 1_800_000_000
USER = "0f3c2a9b8e7d4c6b9a1f2e3d4c5b6a79"


def test_a_token_names_its_user_and_source_until_it_expires():
    token = u.sign_unsubscribe(KEY, USER, "requests_received", NOW)
    assert "." not in token and "/" not in token
    item = u.verify_unsubscribe(KEY, token, NOW + 100 * 86400)
    assert item == u.Unsubscribe(USER, "requests_received", NOW + u.UNSUBSCRIBE_DAYS * 86400)


def test_an_expired_token_is_410():
    token = u.sign_unsubscribe(KEY, USER, "tips", NOW, days=1)
    with pytest.raises(u.UnsubscribeError) as raised:
        u.verify_unsubscribe(KEY, token, NOW + 86400)
    assert raised.value.status == 410 and raised.value.message == u.LINK_EXPIRED


def _tampered(token: str, index: int, value: str) -> str:
    parts = token.split("-", 3)
    parts[index] = value
    return "-".join(parts)


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: _tampered(t, 1, "new_matches"),  # the same signature for another source
        lambda t: _tampered(t, 0, "someoneelse"),  # another user
        lambda t: _tampered(t, 2, str(NOW + 10**8)),  # a later expiry
        lambda t: _tampered(t, 3, "A" * 43),  # a made-up signature
        lambda t: t[:-1],  # truncated
        lambda t: _tampered(t, 1, "billing_account"),
        lambda t: _tampered(t, 1, "nosuchsource"),
        lambda t: "not-a-token",
        lambda t: "",
        lambda t: t + "x" * 400,
        lambda t: _tampered(t, 2, "１２３"),  # non-ASCII digits
    ],
)
def test_forged_or_altered_tokens_are_400(forge):
    token = u.sign_unsubscribe(KEY, USER, "tips", NOW)
    with pytest.raises(u.UnsubscribeError) as raised:
        u.verify_unsubscribe(KEY, forge(token), NOW)
    assert raised.value.status == 400 and raised.value.message == u.LINK_INVALID


def test_a_token_signed_with_another_key_is_refused():
    token = u.sign_unsubscribe(u.unsubscribe_key("another-secret"), USER, "tips", NOW)
    with pytest.raises(u.UnsubscribeError):
        u.verify_unsubscribe(KEY, token, NOW)


def test_required_emails_have_no_unsubscribe():
    assert not u.can_unsubscribe("billing_account") and not u.can_unsubscribe("feature_status")
    assert u.can_unsubscribe("tips")
    with pytest.raises(ValueError, match="Billing and account emails can't be unsubscribed from."):
        u.sign_unsubscribe(KEY, USER, "billing_account", NOW)
    with pytest.raises(ValueError, match="letters, digits"):
        u.sign_unsubscribe(KEY, "a-b", "tips", NOW)


def test_headers_follow_rfc_8058():
    url = u.api_url("https://app.tandem.test/", "TOKEN")
    assert url == "https://app.tandem.test/api/notifications/unsubscribe/TOKEN"
    assert u.page_url("https://app.tandem.test", "TOKEN") == "https://app.tandem.test/unsubscribe/TOKEN"
    assert u.list_unsubscribe_headers(url) == {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    both = u.list_unsubscribe_headers(url, mailto="unsubscribe@tandem.test")
    assert both["List-Unsubscribe"] == f"<{url}>, <mailto:unsubscribe@tandem.test>"


def test_headers_need_https_except_on_loopback_and_no_header_breaks():
    assert u.list_unsubscribe_headers("http://127.0.0.1:18700/api/notifications/unsubscribe/T")
    with pytest.raises(ValueError, match="https"):
        u.list_unsubscribe_headers("http://app.tandem.test/api/notifications/unsubscribe/T")
    with pytest.raises(ValueError, match="can't carry"):
        u.list_unsubscribe_headers("https://app.tandem.test/x>\r\nBcc: a@b.test")
