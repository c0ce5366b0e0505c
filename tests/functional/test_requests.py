"""Connection requests through the HTTP API (local gateway, moto): send, accept, decline,
cancel, lists, menu counts, emails, awaiting approval, month-end settle, admin grants."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.factories import auth_headers, member
from tests.functional.helpers import (
    DAY,
    Brand,
    available,
    grant,
    mail_to,
    relation_state,
    run_job,
    send,
    sent_mail,
    subscribe,
)

# ---------------------------------------------------------------- send


@pytest.mark.delivery
def test_send_holds_a_credit_records_both_relations_and_emails_the_recipient(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6, category="food & drink")
    b = Brand("b@example.com", "Fern Candles", category="home")

    status, body = send(api, a, b, "  Hello Fern, a winter bundle?  ")
    assert status == 201, body
    request = body["request"]
    assert request["status"] == "pending"
    assert request["direction"] == "sent"
    assert request["message"] == "Hello Fern, a winter bundle?"
    assert request["fromBrand"] == {
        "id": a.id,
        "name": "Oat & Co",
        "logoUrl": None,
        "category": "food & drink",
    }
    assert request["toBrand"]["id"] == b.id and request["toBrand"]["name"] == "Fern Candles"
    assert request["contact"] is None and request["isNew"] is False
    assert request["createdAt"].endswith("Z")
    assert body["credits"]["available"] == 5 and body["credits"]["total"] == 6
    assert available(a.account) == 5
    assert credits.verify(a.account) == {}
    assert relation_state(a.id, b.id) == "requested-out"
    assert relation_state(b.id, a.id) == "requested-in"

    (mail,) = mail_to("b@example.com")
    assert mail.subject == "Oat & Co would like to collaborate with Fern Candles"
    assert "Hello Fern, a winter bundle?" in mail.body
    assert f"/quick-action/accept/{b.id}/{a.id}/{request['id']}-" in mail.body
    assert f"/quick-action/decline/{b.id}/{a.id}/{request['id']}-" in mail.body
    # "See the request" signs the member in on it (tests/functional/test_sign_in_links.py).
    assert "/login/" in mail.body and "/request-received" in mail.body


@pytest.mark.delivery
@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"toBrandId": None, "message": "hi"}, 400, "Choose the brand to send your request to"),
        ({"message": "hi"}, 400, "Choose the brand to send your request to"),
        ({"toBrandId": "x", "message": "hi"}, 400, "Choose the brand to send your request to"),
        ({"toBrandId": "TARGET"}, 400, "This field is required"),
        ({"toBrandId": "TARGET", "message": "   "}, 400, "This field is required"),
        ({"toBrandId": "TARGET", "message": 12}, 400, "This must be text"),
        ({"toBrandId": "TARGET", "message": "x" * 1001}, 400, "Your message can be at most 1000 characters"),
        ({"toBrandId": 999999, "message": "hi"}, 404, "Brand not found"),
        ({"toBrandId": "SELF", "message": "hi"}, 400, "You can't send a request to your own brand"),
    ],
)
def test_bad_sends_are_refused_and_change_nothing(api, body, status, error):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    body = {k: (b.id if v == "TARGET" else a.id if v == "SELF" else v) for k, v in body.items()}
    got, answer = api.call("POST", "/api/requests", a.headers, body)
    assert (got, answer["error"]) == (status, error)
    assert available(a.account) == 6
    assert relation_state(a.id, b.id) == ""
    assert sent_mail() == []


def test_a_message_of_exactly_1000_characters_is_accepted(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    status, body = send(api, a, b, "x" * 1000)
    assert status == 201, body


def test_a_brand_of_the_same_account_cannot_be_asked(api):
    user, (one, two), token = member("a@example.com", ("Oat & Co", "Fern Candles"))
    subscribe(user.account_id)
    grant(user.account_id)
    status, body = api.call(
        "POST",
        "/api/requests",
        auth_headers(token, int(one.brand_id)),
        {"toBrandId": int(two.brand_id), "message": "hi"},
    )
    assert (status, body["error"]) == (400, "You can't send a request to your own brand")


def test_without_a_subscription_or_credits_the_answer_is_402_no_subscription(api):
    a = Brand("a@example.com", "Oat & Co", status="none")
    b = Brand("b@example.com", "Fern Candles")
    status, body = send(api, a, b)
    assert status == 402
    assert body == {"error": "You need to buy a subscription to continue.", "code": "no_subscription"}
    assert available(a.account) == 0


def test_credits_held_without_a_plan_are_spent_like_any_other(api):
    """Credits left after a plan ended (or gifted) are the member's to spend (issue 21)."""
    a = Brand("a@example.com", "Oat & Co", credits=2, status="none")
    b = Brand("b@example.com", "Fern Candles")
    status, body = send(api, a, b)
    assert status == 201, body
    assert body["credits"]["available"] == 1 and body["credits"]["hasSubscription"] is False


def test_out_of_credits_is_402_out_of_credits(api):
    a = Brand("a@example.com", "Oat & Co", credits=1)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    assert send(api, a, b)[0] == 201
    status, body = send(api, a, c)
    assert status == 402
    assert body == {"error": "You're out of credits. Buy more to continue.", "code": "out_of_credits"}
    assert relation_state(a.id, c.id) == ""


def test_a_second_request_either_way_is_a_409(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles", credits=6)
    status, first = send(api, a, b)
    assert status == 201
    assert send(api, a, b) == (409, {"error": "You have already sent a request to this brand"})
    status, body = send(api, b, a)
    assert (status, body["error"]) == (
        409,
        "This brand has already sent you a request. You can accept it in Requests.",
    )
    assert available(a.account) == 5 and available(b.account) == 6

    assert api.call("POST", f"/api/requests/{first['request']['id']}/accept", b.headers)[0] == 200
    assert send(api, a, b) == (409, {"error": "You are already connected"})
    assert send(api, b, a) == (409, {"error": "You are already connected"})


def test_two_simultaneous_sends_to_one_brand_hold_one_credit(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: send(api, a, b)[0], range(4)))
    assert sorted(results) == [201, 409, 409, 409]
    assert available(a.account) == 5
    assert credits.verify(a.account) == {}


# ---------------------------------------------------------------- accept / decline / cancel


@pytest.mark.delivery
def test_accept_spends_the_hold_shares_contacts_and_emails_both(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]

    status, body = api.call("POST", f"/api/requests/{request_id}/accept", b.headers)
    assert status == 200, body
    assert body["request"]["status"] == "accepted"
    assert body["request"]["direction"] == "received"
    assert body["request"]["contact"] == {"name": "Mia Member", "email": "a@example.com", "phone": None}
    assert "available" in body["credits"]
    assert available(a.account) == 5  # the held credit is spent, not returned
    assert credits.verify(a.account) == {}
    assert relation_state(a.id, b.id) == relation_state(b.id, a.id) == "connected"

    seen_by_sender = api.call("GET", f"/api/requests/{request_id}", a.headers)[1]["request"]
    assert seen_by_sender["contact"] == {"name": "Mia Member", "email": "b@example.com", "phone": None}
    (accepted,) = [m for m in mail_to("a@example.com") if "accepted" in m.subject]
    assert accepted.subject == "Fern Candles accepted your request"
    assert "b@example.com" in accepted.body
    (connected,) = [m for m in mail_to("b@example.com") if "connected" in m.subject]
    assert "a@example.com" in connected.body

    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers) == (
        409,
        {"error": "This request was already accepted."},
    )
    assert api.call("POST", f"/api/requests/{request_id}/cancel", a.headers) == (
        409,
        {"error": "This request was already accepted. It can no longer be cancelled."},
    )


def test_accept_uses_the_brands_own_contact_details_when_it_has_them(api):
    from tandem.store import keys
    from tandem.store.models import Brand as BrandModel

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    if not hasattr(BrandModel, "contact"):
        pytest.skip("Brand.contact arrives with the brands issue")
    item = BrandModel.get(keys.brand_pk(b.id), keys.PROFILE)
    item.update(
        actions=[
            BrandModel.contact.set({"name": "Fern Team", "email": "hello@fern.example", "phone": "+44 1"})
        ]
    )
    request_id = send(api, a, b)[1]["request"]["id"]
    api.call("POST", f"/api/requests/{request_id}/accept", b.headers)
    contact = api.call("GET", f"/api/requests/{request_id}", a.headers)[1]["request"]["contact"]
    assert contact == {"name": "Fern Team", "email": "hello@fern.example", "phone": "+44 1"}


@pytest.mark.delivery
def test_decline_returns_the_credit_and_replies_for_the_recipient(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    first = send(api, a, b)[1]["request"]["id"]
    second = send(api, a, c)[1]["request"]["id"]
    assert available(a.account) == 4

    status, body = api.call(
        "POST", f"/api/requests/{first}/decline", b.headers, {"reply": "Thanks! Not this season."}
    )
    assert status == 200, body
    assert body["request"]["status"] == "declined"
    assert body["request"]["reply"] == "Thanks! Not this season."
    assert available(a.account) == 5
    assert relation_state(a.id, b.id) == "declined-out" and relation_state(b.id, a.id) == "declined-in"
    # One email: the decline, the credit note and the reply sent on the recipient's behalf.
    (declined,) = mail_to("a@example.com")
    assert declined.subject == "Fern Candles declined your request"
    assert "Your credit has been returned." in declined.body
    assert "Thanks! Not this season." in declined.body and "Thanks! Not this season." in declined.html

    assert api.call("POST", f"/api/requests/{second}/decline", c.headers)[0] == 200  # no reply text
    reply = [m for m in mail_to("a@example.com") if m.subject == "Salt Harbour declined your request"][0]
    assert "Thank you for reaching out" in reply.body
    assert available(a.account) == 6
    assert credits.verify(a.account) == {}

    too_long = api.call("POST", f"/api/requests/{first}/decline", b.headers, {"reply": "x" * 1001})
    assert too_long[0] == 400


def test_cancel_by_the_sender_returns_the_credit(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]

    status, body = api.call("POST", f"/api/requests/{request_id}/cancel", b.headers)
    assert (status, body["error"]) == (403, "Only the brand that sent this request can cancel it")
    status, body = api.call("POST", f"/api/requests/{request_id}/accept", a.headers)
    assert (status, body["error"]) == (403, "Only the brand that received this request can accept it")

    status, body = api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)
    assert status == 200 and body["request"]["status"] == "cancelled"
    assert body["credits"]["available"] == 6
    assert relation_state(a.id, b.id) == relation_state(b.id, a.id) == "cancelled"
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers) == (
        409,
        {"error": "This request was cancelled by the brand that sent it."},
    )
    # The same brand may be asked again only after a wait (test_request_resend.py).
    status, body = send(api, a, b)
    assert status == 409 and body["error"].startswith("You can send Fern Candles a new request from ")


def test_another_members_request_is_not_found_and_unchanged(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    stranger = Brand("s@example.com", "Stranger Goods", credits=6)
    request_id = send(api, a, b)[1]["request"]["id"]

    for method, path in [
        ("GET", f"/api/requests/{request_id}"),
        ("POST", f"/api/requests/{request_id}/accept"),
        ("POST", f"/api/requests/{request_id}/decline"),
        ("POST", f"/api/requests/{request_id}/cancel"),
    ]:
        assert api.call(method, path, stranger.headers) == (404, {"error": "Request not found"})
        status, _ = api.call(method, path, auth_headers(stranger.token, b.id))  # their brand in the header
        assert status == 403
    for bad in ("nope!", "0" * 60, "..%2F"):
        assert api.call("GET", f"/api/requests/{bad}", a.headers)[0] == 404
    assert api.call("GET", f"/api/requests/{request_id}", b.headers)[1]["request"]["status"] == "pending"
    assert available(a.account) == 5
    assert api.call("GET", f"/api/connections/{a.id}", stranger.headers)[0] == 404
    assert api.call("GET", "/api/requests?box=received", stranger.headers)[1]["items"] == []


def test_two_simultaneous_accepts_and_accept_racing_cancel_have_one_winner(api):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    first = send(api, a, b)[1]["request"]["id"]
    second = send(api, a, c)[1]["request"]["id"]

    with ThreadPoolExecutor(max_workers=2) as pool:
        twice = list(
            pool.map(lambda _: api.call("POST", f"/api/requests/{first}/accept", b.headers), range(2))
        )
    assert sorted(s for s, _ in twice) == [200, 409]
    assert [body["error"] for s, body in twice if s == 409] == ["This request was already accepted."]

    calls = [(f"/api/requests/{second}/accept", c.headers), (f"/api/requests/{second}/cancel", a.headers)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        raced = list(pool.map(lambda call: api.call("POST", *call), calls))
    assert sorted(s for s, _ in raced) == [200, 409]
    final = api.call("GET", f"/api/requests/{second}", a.headers)[1]["request"]["status"]
    assert final in ("accepted", "cancelled")
    assert available(a.account) == (4 if final == "accepted" else 5)
    assert credits.verify(a.account) == {}


# ---------------------------------------------------------------- lists and counts


def test_lists_are_newest_first_paged_and_mark_received_items_seen(api):
    a = Brand("a@example.com", "Oat & Co", credits=30)
    others = [Brand(f"b{i}@example.com", f"Brand {i}") for i in range(23)]
    sent_ids = []
    for other in others:
        status, body = send(api, a, other, f"Hello {other.brand.name}")
        assert status == 201, body
        sent_ids.append(body["request"]["id"])

    status, page = api.call("GET", "/api/requests?box=sent", a.headers)
    assert status == 200
    assert [i["id"] for i in page["items"]] == sent_ids[::-1][:20]
    assert all(i["direction"] == "sent" and i["status"] == "pending" for i in page["items"])
    status, rest = api.call("GET", f"/api/requests?box=sent&cursor={page['nextCursor']}", a.headers)
    assert [i["id"] for i in rest["items"]] == sent_ids[::-1][20:]
    assert rest["nextCursor"] is None

    receiver = others[0]
    dash = api.call("GET", "/api/dashboard", receiver.headers)[1]
    assert dash["menuCounts"]["requests"] == 1
    status, received = api.call("GET", "/api/requests?box=received", receiver.headers)
    assert [(i["id"], i["isNew"], i["direction"]) for i in received["items"]] == [
        (sent_ids[0], True, "received")
    ]
    assert api.call("GET", "/api/dashboard", receiver.headers)[1]["menuCounts"]["requests"] == 0
    again = api.call("GET", "/api/requests?box=received", receiver.headers)[1]
    assert again["items"][0]["isNew"] is False

    for cursor in ("garbage", "eyJhIjoxfQ", page["nextCursor"][:-4] + "AAAA"):
        status, body = api.call("GET", f"/api/requests?box=sent&cursor={cursor}", a.headers)
        assert (status, body) == (400, {"error": "This list link is out of date. Please reload the list."})
    # Another brand's cursor cannot read that brand's box.
    status, _ = api.call("GET", f"/api/requests?box=sent&cursor={page['nextCursor']}", receiver.headers)
    assert status == 400
    assert api.call("GET", "/api/requests?box=everything", a.headers)[0] == 400


def test_connections_and_declines_lists_with_new_flags_and_counts(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    to_b = send(api, a, b)[1]["request"]["id"]
    to_c = send(api, a, c)[1]["request"]["id"]
    api.call("POST", f"/api/requests/{to_b}/accept", b.headers)
    api.call("POST", f"/api/requests/{to_c}/decline", c.headers, {"reply": "Maybe next year"})

    counts = api.call("GET", "/api/dashboard", a.headers)[1]["menuCounts"]
    assert (counts["connections"], counts["declines"]) == (1, 1)
    assert api.call("GET", "/api/dashboard", b.headers)[1]["menuCounts"]["connections"] == 0  # its own accept

    status, connections = api.call("GET", "/api/connections", a.headers)
    assert status == 200
    (item,) = connections["items"]
    assert item["id"] == to_b and item["brand"]["id"] == b.id and item["isNew"] is True
    assert item["contact"]["email"] == "b@example.com"
    assert item["connectedAt"].endswith("Z")
    assert connections["nextCursor"] is None
    assert api.call("GET", "/api/dashboard", a.headers)[1]["menuCounts"]["connections"] == 0
    theirs = api.call("GET", "/api/connections", b.headers)[1]["items"]
    assert [(i["brand"]["id"], i["contact"]["email"], i["isNew"]) for i in theirs] == [
        (a.id, "a@example.com", False)
    ]

    one = api.call("GET", f"/api/connections/{b.id}", a.headers)
    assert one[0] == 200 and one[1]["connection"]["brand"]["id"] == b.id
    assert api.call("GET", f"/api/connections/{c.id}", a.headers) == (
        404,
        {"error": "You are not connected with this brand"},
    )

    out = api.call("GET", "/api/declines?dir=out", a.headers)[1]
    assert [(i["id"], i["status"], i["isNew"], i["reply"]) for i in out["items"]] == [
        (to_c, "declined", True, "Maybe next year")
    ]
    assert api.call("GET", "/api/dashboard", a.headers)[1]["menuCounts"]["declines"] == 0
    assert api.call("GET", "/api/declines?dir=out", a.headers)[1]["items"][0]["isNew"] is False
    into = api.call("GET", "/api/declines?dir=in", c.headers)[1]
    assert [(i["id"], i["direction"]) for i in into["items"]] == [(to_c, "received")]
    assert api.call("GET", "/api/declines?dir=in", a.headers)[1]["items"] == []
    assert api.call("GET", "/api/declines?dir=sideways", a.headers)[0] == 400


def test_connections_page_across_both_directions(api):
    hub = Brand("hub@example.com", "Hub Goods", credits=30)
    peers = [Brand(f"p{i}@example.com", f"Peer {i}", credits=3) for i in range(24)]
    for i, peer in enumerate(peers):
        if i % 2:
            rid = send(api, hub, peer)[1]["request"]["id"]
            assert api.call("POST", f"/api/requests/{rid}/accept", peer.headers)[0] == 200
        else:
            rid = send(api, peer, hub)[1]["request"]["id"]
            assert api.call("POST", f"/api/requests/{rid}/accept", hub.headers)[0] == 200
    first = api.call("GET", "/api/connections", hub.headers)[1]
    assert len(first["items"]) == 20 and first["nextCursor"]
    second = api.call("GET", f"/api/connections?cursor={first['nextCursor']}", hub.headers)[1]
    assert second["nextCursor"] is None
    ids = [i["brand"]["id"] for i in first["items"] + second["items"]]
    assert ids == [p.id for p in peers][::-1]  # newest connection first, each once


# ---------------------------------------------------------------- awaiting approval, month end


@pytest.mark.delivery
def test_requests_sent_while_awaiting_approval_wait_for_it(api):
    from tandem.services import requests

    a = Brand("a@example.com", "Oat & Co", credits=6, status="pending_approval")
    b = Brand("b@example.com", "Fern Candles")
    status, body = send(api, a, b)
    assert status == 201 and body["request"]["status"] == "awaiting_approval"
    assert body["credits"]["available"] == 5
    request_id = body["request"]["id"]
    assert mail_to("b@example.com") == []
    assert api.call("GET", "/api/requests?box=received", b.headers)[1]["items"] == []
    assert api.call("GET", f"/api/requests/{request_id}", b.headers)[0] == 404
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers)[0] == 404
    assert [i["status"] for i in api.call("GET", "/api/requests?box=sent", a.headers)[1]["items"]] == [
        "awaiting_approval"
    ]
    assert send(api, b, a)[0] == 409  # no crossing request meanwhile

    assert requests.release_awaiting(a.account) == {"released": 1}
    assert requests.release_awaiting(a.account) == {"released": 0}
    (mail,) = mail_to("b@example.com")
    assert "would like to collaborate" in mail.subject
    received = api.call("GET", "/api/requests?box=received", b.headers)[1]["items"]
    assert [(i["id"], i["status"], i["isNew"]) for i in received] == [(request_id, "pending", True)]
    assert relation_state(b.id, a.id) == "requested-in"
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers)[0] == 200


def test_an_awaiting_request_can_be_cancelled_for_its_credit(api):
    a = Brand("a@example.com", "Oat & Co", credits=6, status="pending_approval")
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    status, body = api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)
    assert status == 200 and body["credits"]["available"] == 6
    assert relation_state(a.id, b.id) == "cancelled" and relation_state(b.id, a.id) == ""


@pytest.mark.delivery
def test_a_hold_past_its_month_is_settled_and_a_late_decline_returns_nothing(api, aws):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co")
    b = Brand("b@example.com", "Fern Candles")
    grant(a.account, 6, start=int(time.time()) - 29 * DAY - DAY // 2, op="grant:main:old")
    grant(a.account, 6, start=int(time.time()) + DAY // 2, op="grant:main:next")
    request_id = send(api, a, b)[1]["request"]["id"]
    assert available(a.account) == 5

    assert credits.settle_expired_holds(int(time.time()))["settled"] == 0  # still this month
    assert credits.settle_expired_holds(int(time.time()) + DAY)["settled"] == 1
    assert credits.settle_expired_holds(int(time.time()) + DAY)["settled"] == 0

    status, body = api.call("POST", f"/api/requests/{request_id}/decline", b.headers)
    assert status == 200 and body["request"]["status"] == "declined"
    declined = next(m for m in mail_to("a@example.com") if "declined" in m.subject)
    assert "not returned" in declined.body
    assert credits.verify(a.account) == {}
    result = run_job(aws, "verify-credit-ledgers")
    assert result["mismatched"] == {} and result["accounts"] >= 1


def test_a_decline_after_the_month_ended_spends_the_hold(api):
    from tandem.services import credits, requests
    from tandem.store import keys
    from tandem.store.models import CreditHold

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    req = requests.get_request(request_id)
    real_time = time.time
    try:
        time.time = lambda: real_time() + 31 * DAY  # the hold's month is over, no job ran yet
        requests.transition(req, "decline")
    finally:
        time.time = real_time
    hold = CreditHold.get(keys.account_pk(a.account), keys.hold_sk(request_id))
    assert hold.status == "spent"
    assert credits.verify(a.account) == {}


def test_the_ledger_check_job_reports_a_mismatch(aws):
    from tandem.services import accounts
    from tandem.store import keys
    from tandem.store.models import CreditBucket

    account, _ = accounts.create_account_with_user(email="ledger@example.com", name="Lee", password=None)
    grant(account.account_id, 6)
    bucket = next(
        iter(CreditBucket.query(keys.account_pk(account.account_id), CreditBucket.sk.startswith("BUCKET#")))
    )
    bucket.update(actions=[CreditBucket.available.add(1)])  # a write that bypassed the ledger
    result = run_job(aws, "verify-credit-ledgers")
    assert result["mismatched"] == {account.account_id: {bucket.bucket_id: [7, 6]}}


# ---------------------------------------------------------------- admin grant, dashboard credits


def test_admin_grant_adds_credits_and_members_cannot(api):
    from tandem.services import accounts, tokens

    a = Brand("a@example.com", "Oat & Co", status="none")
    _, admin = accounts.create_account_with_user(
        email="boss@example.com", name="Ada Admin", password=None, access="admin"
    )
    admin_headers = {
        "Authorization": f"Bearer {tokens.issue_access_token(admin.user_id, admin.account_id, 'admin')}"
    }
    body = {"email": "A@example.com", "amount": 6, "kind": "main", "days": 30}

    assert api.call("POST", "/api/admin/credits/grant", a.headers, body) == (
        403,
        {"error": "Only Tandem admins can do that"},
    )
    assert available(a.account) == 0

    status, answer = api.call("POST", "/api/admin/credits/grant", admin_headers, body)
    assert status == 200, answer
    assert (answer["credits"]["available"], answer["credits"]["totalMain"]) == (6, 6)
    status, answer = api.call(
        "POST", "/api/admin/credits/grant", admin_headers, {**body, "kind": "gifted", "amount": 2}
    )
    assert answer["credits"]["total"] == 8
    assert answer["credits"]["addOns"][0]["type"] == "gifted"

    for bad, field in [
        ({**body, "email": "nobody@example.com"}, "email"),
        ({**body, "amount": 0}, "amount"),
        ({**body, "amount": "6"}, "amount"),
        ({**body, "kind": "free"}, "kind"),
        ({**body, "days": 0}, "days"),
        ({k: v for k, v in body.items() if k != "email"}, "email"),
    ]:
        status, answer = api.call("POST", "/api/admin/credits/grant", admin_headers, bad)
        assert status == 400 and field in answer["errors"], (bad, answer)
    assert available(a.account) == 8


def test_dashboard_serves_the_credits_info(api):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    credits = api.call("GET", "/api/dashboard", a.headers)[1]["credits"]
    assert (credits["available"], credits["total"], credits["active"], credits["hasSubscription"]) == (
        6,
        6,
        True,
        True,
    )
    assert credits["notAllowedMessage"] is None
    assert credits["next"]["credits"] == 6 and credits["next"]["to"].endswith("Z")
    assert set(credits) >= {
        "available", "total", "totalMain", "totalAddOns", "active", "trialling", "giftedOnly", "fixedTerm",
        "isYearly", "hasSubscription", "addOns", "next", "expires", "featureDone", "productsAllowed",
        "addonsAllowed", "cancels", "notAllowedMessage",
    }  # fmt: skip
    none = Brand("n@example.com", "No Sub", status="none")
    info = api.call("GET", "/api/dashboard", none.headers)[1]["credits"]
    assert (info["total"], info["active"], info["notAllowedMessage"]) == (
        0,
        False,
        "You need to buy a subscription to continue.",
    )


@pytest.mark.delivery
def test_demo_seed_gives_the_demo_member_credits_and_received_requests(api):
    from infra.local.seed import seed
    from tandem.services import accounts, auth

    seed(population=60)
    dana = accounts.find_user_by_email("demo@tandem.local")
    headers = {"Authorization": f"Bearer {auth.login_response(dana)['access_token']}"}
    credits = api.call("GET", "/api/dashboard", headers)[1]["credits"]
    assert (credits["available"], credits["total"], credits["active"]) == (6, 6, True)
    received = api.call("GET", "/api/requests?box=received", headers)[1]["items"]
    assert len(received) == 2 and all(i["status"] == "pending" and i["isNew"] for i in received)
    assert {m.subject.split(" would like")[0] for m in mail_to("demo@tandem.local")} == {
        i["fromBrand"]["name"] for i in received
    }


# ---------------------------------------------------------------- the sender's record of a cancel


def test_a_cancelled_request_stays_in_the_senders_sent_list_as_cancelled(api):
    """Issue 10: a cancelled request vanished from every list. The sender keeps it in Requests
    sent, with status 'cancelled' (newest change first); the recipient never lists it again."""
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Salt Harbour")
    to_b = send(api, a, b)[1]["request"]["id"]
    to_c = send(api, a, c)[1]["request"]["id"]
    status, body = api.call("POST", f"/api/requests/{to_b}/cancel", a.headers)
    assert status == 200 and body["request"]["status"] == "cancelled"

    sent = api.call("GET", "/api/requests?box=sent", a.headers)[1]
    assert [(i["id"], i["status"], i["direction"]) for i in sent["items"]] == [
        (to_b, "cancelled", "sent"),  # its last change (the cancel) is the newest
        (to_c, "pending", "sent"),
    ]
    cancelled = sent["items"][0]
    assert cancelled["toBrand"]["name"] == "Fern Candles" and cancelled["message"]
    assert cancelled["isNew"] is False and cancelled["contact"] is None
    assert api.call("GET", f"/api/requests/{to_b}", a.headers)[1]["request"]["status"] == "cancelled"
    assert api.call("GET", "/api/requests?box=received", b.headers)[1]["items"] == []
    assert api.call("GET", "/api/dashboard", b.headers)[1]["menuCounts"]["requests"] == 0
    for view in ("/api/connections", "/api/declines?dir=out", "/api/declines?dir=in"):
        assert api.call("GET", view, a.headers)[1]["items"] == []


def test_the_brand_page_says_when_the_sender_may_ask_again_after_a_cancel(api):
    """Issue 10: during the wait after a cancel, the brand page offered "Send request" and the
    send was then refused. The page now carries the wait (the refusal's own words); the other
    brand may still ask, so its page carries none."""
    from tandem.domain import requests as rules

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    assert api.call("GET", f"/api/brand/{b.id}", a.headers)[1]["relation"]["waitMessage"] is None
    api.call("POST", f"/api/requests/{request_id}/cancel", a.headers)

    relation = api.call("GET", f"/api/brand/{b.id}", a.headers)[1]["relation"]
    when = rules.resend_date(rules.resend_at(int(time.time())))
    assert relation["requestState"] == "cancelled"
    assert relation["waitMessage"] == f"You can send Fern Candles a new request from {when}."
    assert send(api, a, b)[1] == {"error": relation["waitMessage"]}
    assert api.call("GET", f"/api/brand/{a.id}", b.headers)[1]["relation"]["waitMessage"] is None


def test_a_sender_that_hides_its_name_is_hidden_in_its_message_too(api):
    """Issue 40: the request is masked, and so is the name written in its message."""
    from tests.functional.helpers import Brand, send

    zed = Brand("zed@example.com", "Zyxquor Hidden Studio", credits=6, hide_name=True, category="outdoors")
    ria = Brand("ria@example.com", "Ria Rugs")
    status, sent = send(api, zed, ria, "Hi from ZyxquorHiddenStudio! See zyxquor-hidden-studio.example")
    assert (status, sent["notice"]) == (
        201,
        "Your message names your brand; it will be shown with the name removed.",
    )
    (item,) = api.call("GET", "/api/requests?box=received", ria.headers)[1]["items"]
    assert item["fromBrand"]["name"] == "An outdoors brand"
    assert item["message"] == "Hi from This brand! See this brand's website"
    (mine,) = api.call("GET", "/api/requests?box=sent", zed.headers)[1]["items"]
    assert mine["message"] == "Hi from ZyxquorHiddenStudio! See zyxquor-hidden-studio.example"
    assert send(api, zed, Brand("sol@example.com", "Sol Soap"), "Hello there")[1]["notice"] is None
    tia = Brand("tia@example.com", "Tia Tea", credits=6)
    uma = Brand("uma@example.com", "Uma Umbrellas")
    assert send(api, tia, uma, "Tia Tea says hello")[1]["notice"] is None
