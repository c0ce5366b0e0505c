"""Email quick-action links: accept or decline without signing in; signed, single-use, expiring."""

from __future__ import annotations

import time

import pytest

from tests.functional.helpers import Brand, available, links, mail_to, press, relation_state, send


@pytest.mark.delivery
def test_accept_link_connects_both_brands_once(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    found = links("b@example.com")
    assert set(found) == {"accept", "decline"}

    status, body = press(api, found["accept"])
    assert status == 200, body
    assert body == {
        "result": "accepted",
        "message": "You're connected with Oat & Co. We've emailed you both each other's contact details.",
        "request": {
            "fromBrand": {"id": a.id, "name": "Oat & Co", "logoUrl": None, "category": ""},
            "toBrand": {"id": b.id, "name": "Fern Candles", "logoUrl": None, "category": ""},
            "status": "accepted",
        },
    }
    assert relation_state(a.id, b.id) == "connected"
    assert api.call("GET", f"/api/requests/{request_id}", a.headers)[1]["request"]["status"] == "accepted"
    assert any(m.subject == "Fern Candles accepted your request" for m in mail_to("a@example.com"))
    assert available(a.account) == 5 and credits.verify(a.account) == {}

    mails_before = len(mail_to("a@example.com"))
    assert press(api, found["accept"]) == (410, {"error": "This request was already accepted."})
    assert press(api, found["decline"]) == (410, {"error": "This request was already accepted."})
    assert len(mail_to("a@example.com")) == mails_before
    assert relation_state(a.id, b.id) == "connected"


@pytest.mark.delivery
def test_decline_link_returns_the_credit_and_sends_the_polite_reply(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    send(api, a, b)
    assert available(a.account) == 5

    status, body = press(api, links("b@example.com")["decline"])
    assert status == 200
    assert body["result"] == "declined"
    assert (
        body["message"] == "You declined the request from Oat & Co. We've let them know with a polite reply."
    )
    assert body["request"]["status"] == "declined"
    assert available(a.account) == 6
    (declined,) = [m for m in mail_to("a@example.com") if m.subject == "Fern Candles declined your request"]
    assert "Their reply, sent by Tandem on their behalf" in declined.body
    assert press(api, links("b@example.com")["decline"])[0] == 410


@pytest.mark.delivery
def test_a_link_for_a_cancelled_request_says_so(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)
    assert press(api, links("b@example.com")["accept"]) == (
        410,
        {"error": "This request was cancelled by the brand that sent it."},
    )


@pytest.mark.delivery
def test_forged_tampered_and_swapped_links_are_refused_and_change_nothing(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    send(api, a, b)
    accept = links("b@example.com")["accept"]
    _, action, actioner, actionee, unique = accept.strip("/").split("/")
    request_id, expires, signature = unique.split("-", 2)
    invalid = {"error": "This link is not valid. Please sign in to answer the request."}

    forged = [
        f"/quick-action/accept/{actioner}/{actionee}/{request_id}-{expires}-{signature[:-2]}xx",
        f"/quick-action/accept/{actioner}/{actionee}/{request_id}-{int(expires) + 86400}-{signature}",
        f"/quick-action/accept/{c.id}/{actionee}/{unique}",  # someone else as the actioner
        f"/quick-action/accept/{actionee}/{actioner}/{unique}",  # swapped
        f"/quick-action/decline/{actioner}/{actionee}/{unique}",  # the accept link's signature
        f"/quick-action/delete/{actioner}/{actionee}/{unique}",
        f"/quick-action/accept/{actioner}/{actionee}/not-a-link",
        f"/quick-action/accept/x/{actionee}/{unique}",
        f"/quick-action/accept/{actioner}/{actionee}/{'a' * 300}",
    ]
    for path in forged:
        assert press(api, path) == (400, invalid), path
    assert relation_state(a.id, b.id) == "requested-out"
    assert available(a.account) == 5
    assert action == "accept"


def test_an_expired_link_is_gone(api, monkeypatch):
    from tandem.domain import requests as rules
    from tandem.services import requests

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    old = requests.quick_action_links(requests.get_request(request_id), now=int(time.time()) - 15 * 86400)
    path = old["accept"].split("://", 1)[1].split("/", 1)[1]
    assert press(api, f"/{path}") == (410, {"error": rules.LINK_EXPIRED})
    assert relation_state(a.id, b.id) == "requested-out"
    # A link just inside its 14 days still works.
    fresh = requests.quick_action_links(requests.get_request(request_id), now=int(time.time()) - 13 * 86400)
    path = fresh["decline"].split("://", 1)[1].split("/", 1)[1]
    assert press(api, f"/{path}")[0] == 200


def test_links_are_signed_with_a_key_derived_from_the_app_secret(aws):
    from tandem.domain import requests as rules

    qa = rules.QuickAction("accept", 2, 1, "abc123", 2_000_000_000)
    one = rules.sign_quick_action(rules.quick_action_key("secret-one"), qa)
    two = rules.sign_quick_action(rules.quick_action_key("secret-two"), qa)
    assert one != two
    key = rules.quick_action_key("secret-one")
    assert rules.verify_quick_action(key, "accept", "2", "1", one, 1_999_999_999) == qa
    with pytest.raises(rules.LinkError):
        rules.verify_quick_action(
            rules.quick_action_key("secret-two"), "accept", "2", "1", one, 1_999_999_999
        )


def look(api, path: str):
    return api.call("GET", f"/api{path}")  # what the page shows before the person's click


@pytest.mark.delivery
def test_opening_a_link_only_shows_the_request_and_changes_nothing(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    found = links("b@example.com")
    mails_before = len(mail_to("a@example.com"))
    for action in ("accept", "decline", "accept"):  # a mail scanner may open each link, repeatedly
        status, body = look(api, found[action])
        assert status == 200, body
        assert body == {
            "action": action,
            "request": {
                "fromBrand": {"id": a.id, "name": "Oat & Co", "logoUrl": None, "category": ""},
                "toBrand": {"id": b.id, "name": "Fern Candles", "logoUrl": None, "category": ""},
                "message": "Shall we run a giveaway together?",
                "status": "pending",
            },
        }
    assert relation_state(a.id, b.id) == "requested-out"
    assert api.call("GET", f"/api/requests/{request_id}", a.headers)[1]["request"]["status"] == "pending"
    assert available(a.account) == 5 and credits.verify(a.account) == {}
    assert len(mail_to("a@example.com")) == mails_before
    # The link still works once the person clicks; afterwards the page is told it was used.
    assert press(api, found["decline"])[0] == 200
    assert look(api, found["decline"]) == (410, {"error": "This request was already declined."})
    assert look(api, found["accept"]) == (410, {"error": "This request was already declined."})


@pytest.mark.delivery
def test_opening_a_link_from_a_masked_brand_keeps_its_name_hidden(api):
    a = Brand("a@example.com", "Oat & Co", credits=6, category="food", hide_name=True)
    b = Brand("b@example.com", "Fern Candles")
    send(api, a, b)
    status, body = look(api, links("b@example.com")["accept"])
    assert status == 200
    assert body["request"]["fromBrand"] == {
        "id": a.id,
        "name": "A food brand",
        "logoUrl": None,
        "category": "food",
    }
    assert "Oat" not in str(body)


@pytest.mark.delivery
def test_opening_forged_expired_and_used_links_gives_the_same_errors_as_pressing(api):
    from tandem.services import requests

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    request_id = send(api, a, b)[1]["request"]["id"]
    accept = links("b@example.com")["accept"]
    _, _, actioner, actionee, unique = accept.strip("/").split("/")
    rid, expires, signature = unique.split("-", 2)
    old = requests.quick_action_links(requests.get_request(request_id), now=int(time.time()) - 15 * 86400)
    expired = "/" + old["accept"].split("://", 1)[1].split("/", 1)[1]
    bad = {  # a link that was never ours is a 400; one that was ours and ran out, 410
        f"/quick-action/accept/{actioner}/{actionee}/{rid}-{expires}-{signature[:-2]}xx": 400,
        f"/quick-action/accept/{c.id}/{actionee}/{unique}": 400,
        f"/quick-action/decline/{actioner}/{actionee}/{unique}": 400,
        f"/quick-action/delete/{actioner}/{actionee}/{unique}": 400,
        f"/quick-action/accept/x/{actionee}/{unique}": 400,
        expired: 410,
    }
    for path, expected in bad.items():
        seen = look(api, path)
        assert seen[0] == expected, (path, seen)
        assert seen == press(api, path), path
    assert relation_state(a.id, b.id) == "requested-out"
    api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)
    used = (410, {"error": "This request was cancelled by the brand that sent it."})
    assert look(api, accept) == used == press(api, accept)
