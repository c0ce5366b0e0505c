"""No free inbox flooding: after the sender cancels a request or the recipient declines it, the
same sender may ask that brand again only after tandem.domain.requests.RESEND_DAYS."""

from __future__ import annotations

import time

import pytest

from tests.functional.helpers import Brand, available, links, mail_to, press, relation_state, send


def invited(email: str) -> int:
    return len([m for m in mail_to(email) if "would like to collaborate" in m.subject])


def wait_message(name: str, closed_between: tuple[int, int]) -> set[str]:
    from tandem.domain import requests as rules

    return {
        f"You can send {name} a new request from {rules.resend_date(rules.resend_at(t))}."
        for t in closed_between
    }


def stored_resend_at(brand: int, other: int) -> int | None:
    from tandem.store.models import BrandRelation

    found = BrandRelation.find(brand, other, consistent=True)
    return None if found is None or found.resend_at is None else int(found.resend_at)


def end_wait(brand: int, other: int, at: int) -> None:
    """As if the wait were over: the stored date moves to `at` (30 days passing)."""
    from tandem.store.models import BrandRelation

    BrandRelation.at(brand, other).update(actions=[BrandRelation.resend_at.set(at)])


@pytest.mark.delivery
def test_cancel_then_resend_is_refused_with_the_date_and_holds_no_credit(api):
    from tandem.domain import requests as rules
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Oat & Honey")
    request_id = send(api, a, b)[1]["request"]["id"]
    before = int(time.time())
    assert api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)[0] == 200
    after = int(time.time())
    assert available(a.account) == 6 and invited("b@example.com") == 1
    assert stored_resend_at(a.id, b.id) in {rules.resend_at(before), rules.resend_at(after)}
    assert stored_resend_at(a.id, b.id) - before >= (rules.RESEND_DAYS - 1) * 86400
    assert stored_resend_at(b.id, a.id) is None  # the recipient may still ask the sender

    status, body = send(api, a, b, "Please, one more time?")
    assert status == 409
    assert body["error"] in wait_message("Oat & Honey", (before, after))
    assert available(a.account) == 6 and credits.verify(a.account) == {}
    assert invited("b@example.com") == 1  # no second email
    assert relation_state(a.id, b.id) == relation_state(b.id, a.id) == "cancelled"
    sent = api.call("GET", "/api/requests?box=sent", a.headers)[1]["items"]
    assert [(i["id"], i["status"]) for i in sent] == [(request_id, "cancelled")]  # the sender's record

    # 30 days later (the stored date reached) it works again, with a credit held and an email.
    end_wait(a.id, b.id, int(time.time()))
    status, body = send(api, a, b, "Please, one more time?")
    assert status == 201, body
    assert available(a.account) == 5 and invited("b@example.com") == 2
    assert relation_state(a.id, b.id) == "requested-out"


def test_a_decline_makes_the_sender_wait_but_not_the_brand_that_declined(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles", credits=6)
    request_id = send(api, a, b)[1]["request"]["id"]
    before = int(time.time())
    assert api.call("POST", f"/api/requests/{request_id}/decline", b.headers)[0] == 200
    after = int(time.time())
    assert available(a.account) == 6

    status, body = send(api, a, b)
    assert status == 409 and body["error"] in wait_message("Fern Candles", (before, after))
    assert available(a.account) == 6

    # The brand that declined may change its mind and ask the other way round.
    status, body = send(api, b, a, "On second thoughts: shall we?")
    assert status == 201, body
    assert relation_state(b.id, a.id) == "requested-out" and relation_state(a.id, b.id) == "requested-in"


@pytest.mark.delivery
def test_a_decline_by_email_link_makes_the_sender_wait_too(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    send(api, a, b)
    assert press(api, links("b@example.com")["decline"])[0] == 200
    status, body = send(api, a, b)
    assert status == 409 and body["error"].startswith("You can send Fern Candles a new request from ")


def test_the_wait_message_names_a_masked_brand_as_the_sender_sees_it(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Oat & Honey", category="food", hide_name=True)
    request_id = send(api, a, b)[1]["request"]["id"]
    api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)
    status, body = send(api, a, b)
    assert status == 409
    assert body["error"].startswith("You can send A food brand a new request from ")
    assert "Honey" not in body["error"]


def test_the_wait_holds_even_when_the_first_check_missed_it(api, monkeypatch):
    """The send transaction itself refuses a sender still waiting (a close racing a send)."""
    from tandem.services.requests import sending

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)

    original = sending._refusal
    calls = []

    def stale_first_look(ctx, now):
        calls.append(now)
        return None if len(calls) == 1 else original(ctx, now)

    monkeypatch.setattr(sending, "_refusal", stale_first_look)
    status, body = send(api, a, b)
    assert status == 409 and body["error"].startswith("You can send Fern Candles a new request from ")
    assert len(calls) == 2
    assert available(a.account) == 6
    assert relation_state(a.id, b.id) == "cancelled"


def test_an_accepted_request_sets_no_wait(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers)[0] == 200
    assert stored_resend_at(a.id, b.id) is None
    assert send(api, a, b) == (409, {"error": "You are already connected"})
