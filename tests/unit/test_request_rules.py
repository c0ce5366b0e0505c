import pytest

from tandem.domain import requests as rules


@pytest.mark.parametrize(
    ("sender", "recipient", "expected"),
    [
        ("", "", None),
        (None, None, None),
        ("cancelled", "cancelled", None),
        ("declined-out", "declined-in", None),  # a declined brand may be asked again
        ("requested-out", "", rules.ALREADY_SENT),
        ("", "requested-in", rules.ALREADY_SENT),
        ("requested-in", "requested-out", rules.ALREADY_RECEIVED),
        ("connected", "connected", rules.ALREADY_CONNECTED),
        ("", "connected", rules.ALREADY_CONNECTED),
    ],
)
def test_who_may_be_asked(sender, recipient, expected):
    assert rules.conflict_for(sender, recipient) == expected


def test_transitions_start_only_from_open_states():
    assert rules.can("accept", "pending") and rules.can("decline", "pending")
    assert not rules.can("accept", "awaiting_approval")
    assert rules.can("cancel", "awaiting_approval") and rules.can("cancel", "pending")
    for action in ("accept", "decline", "cancel"):
        for done in ("accepted", "declined", "cancelled"):
            assert not rules.can(action, done)
    assert (
        rules.refusal("cancel", "accepted")
        == "This request was already accepted. It can no longer be cancelled."
    )
    assert rules.refusal("accept", "cancelled") == "This request was cancelled by the brand that sent it."


def test_messages_are_trimmed_required_and_limited():
    assert rules.clean_message("  hi  ") == "hi"
    assert rules.clean_message("x" * 1000) == "x" * 1000
    for bad, error in [
        ("", "This field is required"),
        (None, "This field is required"),
        (3, "This must be text"),
    ]:
        with pytest.raises(ValueError, match=error):
            rules.clean_message(bad)
    with pytest.raises(ValueError, match="at most 1000"):
        rules.clean_message("x" * 1001)
    assert rules.clean_message(None, required=False) == ""


def test_hidden_names_read_as_their_category_until_connected():
    """Requests use the one identity rule (tandem.domain.identity)."""
    from types import SimpleNamespace

    from tandem.domain.identity import identity

    def shown(category: str, relation: str) -> str:
        kept = SimpleNamespace(name="Oat & Co", category=category, hide_name=True, logo_url=None)
        return identity(None, kept, relation).name

    assert shown("food & drink", "introduced") == "A food & drink brand"
    assert shown("outdoors", "introduced") == "An outdoors brand"
    assert shown(" ", "introduced") == "A brand"
    assert shown("food", "connected") == "Oat & Co"
    assert not hasattr(rules, "masked_name")  # one rule, not two


def test_quick_action_links_verify_expire_and_refuse_tampering():
    key = rules.quick_action_key("secret")
    qa = rules.QuickAction("decline", 7, 3, "abcdef0123456789", 1_000)
    unique = rules.sign_quick_action(key, qa)
    assert rules.quick_action_path(key, qa) == f"/quick-action/decline/7/3/{unique}"
    assert rules.verify_quick_action(key, "decline", "7", "3", unique, 999) == qa
    with pytest.raises(rules.LinkError) as expired:
        rules.verify_quick_action(key, "decline", "7", "3", unique, 1_000)
    assert expired.value.status == 410
    for args in [
        ("accept", "7", "3", unique),
        ("decline", "3", "7", unique),
        ("decline", "7", "3", unique + "x"),
    ]:
        with pytest.raises(rules.LinkError) as forged:
            rules.verify_quick_action(key, *args, 999)
        assert forged.value.status == 400


# ---------------------------------------------------------------- re-sending after a close

NOV_22_2026_1430 = 1795357800  # 2026-11-22 14:30 UTC
DEC_22_2026 = 1797897600  # 2026-12-22 00:00 UTC


def test_a_closed_request_lets_its_sender_ask_again_from_the_day_thirty_days_later():
    assert rules.RESEND_DAYS == 30
    assert rules.resend_at(NOV_22_2026_1430) == DEC_22_2026
    assert rules.resend_at(DEC_22_2026 - 30 * 86400) == DEC_22_2026  # closed at midnight exactly
    assert rules.resend_at(DEC_22_2026 - 29 * 86400 - 1) == DEC_22_2026  # last second of 22 Nov
    assert rules.resend_date(DEC_22_2026) == "22 Dec 2026"
    assert (
        rules.resend_date(rules.resend_at(1777982400)) == "4 Jun 2026"
    )  # closed 5 May 12:00; no leading zero
    assert rules.CLOSING == ("decline", "cancel", "expire")  # an expiry waits like a decline


def test_only_what_the_two_members_did_starts_the_senders_wait():
    """Issue 39: a cancel caused by the recipient's block or by a suspension is not the
    sender's act, so it starts no wait; the sender's own cancel, a decline and an expiry do."""
    assert [rules.starts_wait(action) for action in ("cancel", "decline", "expire", "accept")] == [
        True,
        True,
        True,
        False,
    ]
    assert not rules.starts_wait("cancel", rules.UNAVAILABLE)
    assert not rules.starts_wait("cancel", rules.SUSPENDED)


def test_resend_refusal_names_the_brand_and_the_date_until_the_wait_is_over():
    allowed = rules.resend_at(NOV_22_2026_1430)
    message = "You can send Oat & Honey a new request from 22 Dec 2026."
    assert rules.resend_refusal("Oat & Honey", allowed, NOV_22_2026_1430) == message
    assert rules.resend_refusal("Oat & Honey", allowed, allowed - 1) == message
    assert rules.resend_refusal("Oat & Honey", allowed, allowed) is None
    assert rules.resend_refusal("Oat & Honey", allowed, allowed + 86400) is None
    assert rules.resend_refusal("Oat & Honey", None, NOV_22_2026_1430) is None  # never closed
    from tandem.domain.brand_profile import masked_name

    masked = masked_name("food")
    assert rules.resend_refusal(masked, allowed, NOV_22_2026_1430) == (
        "You can send A food brand a new request from 22 Dec 2026."
    )
