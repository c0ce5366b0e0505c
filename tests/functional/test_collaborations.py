"""Collaborations through the API (issue 41): two connected brands plan one from a collab idea,
change it, agree, run it on the shared checklist and thread, record results after the end and
see each other's; what is refused saves nothing; a brand that is not a party gets 404 on every
route; a block or a suspension ends what is not live yet. The clock starts at tests/clock.py's
named date and moves only forward."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from tests import clock
from tests.functional.helpers import Brand, mail_to, send

DAY = 86400
IDEA = "joint-event"


class Clock:
    def __init__(self, monkeypatch) -> None:
        from tandem.services import collaborations

        self.now = float(clock.start())
        monkeypatch.setattr(collaborations, "now_s", lambda: self.now)

    def day(self, days: int) -> str:
        return (datetime.fromtimestamp(self.now, UTC) + timedelta(days=days)).date().isoformat()

    def advance(self, days: float) -> None:
        self.now += days * DAY


@pytest.fixture
def now(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def connect(api, a: Brand, b: Brand) -> None:
    status, body = send(api, a, b)
    assert status == 201, body
    status, body = api.call("POST", f"/api/requests/{body['request']['id']}/accept", b.headers)
    assert status == 200, body


@pytest.fixture
def pair(api):
    a = Brand("oat@example.com", "Oat & Co", credits=6, category="food & drink")
    b = Brand("fern@example.com", "Fern Candles", credits=6, category="home")
    connect(api, a, b)
    return a, b


def plan(now: Clock, other: Brand, **changes) -> dict:
    return {
        "otherBrandId": other.id,
        "format": "events",
        "title": "A candlelit supper club",
        "bringsMine": "Oat drinks and the venue",
        "bringsTheirs": "Candles for every table",
        "goal": "reach",
        "start": now.day(10),
        "end": now.day(20),
        "idea": IDEA,
        **changes,
    }


def call(api, who: Brand, method: str, path: str, body=None, offset: str | None = None):
    headers = dict(who.headers)
    if offset is not None:
        headers["X-Timezone-Offset"] = offset
    return api.call(method, f"/api/collaborations{path}", headers, body)


def propose(api, now, a, b, **changes) -> dict:
    status, body = call(api, a, "POST", "", plan(now, b, **changes))
    assert status == 201, body
    return body["collaboration"]


@pytest.mark.delivery
def test_two_brands_plan_change_agree_run_and_record_a_collaboration(api, pair, now):
    a, b = pair
    made = propose(api, now, a, b)
    assert made["phase"] == "proposed" and made["proposedByYou"] and not made["yourTurn"]
    assert made["partner"]["name"] == "Fern Candles"
    assert made["idea"]["slug"] == IDEA and "Event brief" in made["brief"]
    items = made["checklist"]
    assert "Agree: Date and time" in [i["text"] for i in items]  # the idea's template, copied in
    assert all(now.day(0) <= i["due"] < now.day(10) for i in items)

    status, seen = call(api, b, "GET", f"/{made['id']}")
    assert status == 200, seen
    seen = seen["collaboration"]
    assert seen["yourTurn"] and seen["bringsMine"] == "Candles for every table"
    assert seen["can"]["accept"] and not seen["can"]["recordResults"]

    # b moves the dates once: the turn goes back to a, the change is visible to both
    status, body = call(
        api,
        b,
        "POST",
        f"/{made['id']}/changes",
        {"version": seen["version"], "start": now.day(12), "end": now.day(22)},
    )
    assert status == 200, body
    status, mine = call(api, a, "GET", f"/{made['id']}")
    mine = mine["collaboration"]
    assert mine["yourTurn"] and mine["start"] == now.day(12)
    change = mine["changes"][-1]
    assert change["kind"] == "changed" and change["byYou"] is False
    assert change["fields"] == {"start": [now.day(10), now.day(12)], "end": [now.day(20), now.day(22)]}
    # a reads an old version: refused, nothing saved
    assert call(api, a, "POST", f"/{made['id']}/accept", {"version": 1})[0] == 409
    status, body = call(api, a, "POST", f"/{made['id']}/accept", {"version": mine["version"]})
    assert status == 200, body
    assert body["collaboration"]["phase"] == "agreed"

    first = mine["checklist"][0]["id"]
    status, body = call(api, b, "PUT", f"/{made['id']}/checklist/{first}", {"done": True})
    assert status == 200, body
    status, body = call(api, a, "GET", f"/{made['id']}")
    ticked = body["collaboration"]["checklist"][0]
    assert ticked["done"] and not ticked["doneByYou"]

    status, body = call(api, a, "POST", f"/{made['id']}/messages", {"text": "Shall we do 40 seats?"})
    assert status == 200, body
    status, body = call(api, b, "GET", f"/{made['id']}")
    (msg,) = body["collaboration"]["messages"]
    assert msg["text"] == "Shall we do 40 seats?" and msg["byYou"] is False
    told = {m.subject for m in mail_to(b.email)}  # b's preferences: Collaborations by email (default)
    assert "Oat & Co proposed a collaboration: A candlelit supper club" in told
    assert "Oat & Co wrote about: A candlelit supper club" in told
    (written,) = [m for m in mail_to(b.email) if "wrote about" in m.subject]
    assert "Shall we do 40 seats?" in written.body and f"/collaborations/{made['id']}" in written.body
    assert "Fern Candles proposed changes to: A candlelit supper club" in {
        m.subject for m in mail_to(a.email)
    }

    now.advance(13)
    assert call(api, a, "GET", f"/{made['id']}")[1]["collaboration"]["phase"] == "live"
    assert call(api, a, "PUT", f"/{made['id']}/results", {"again": True, "rating": 5})[0] == 409  # not ended
    now.advance(10)
    assert call(api, a, "GET", f"/{made['id']}")[1]["collaboration"]["phase"] == "ended"

    results = {"reach": 12000, "followers": "340", "clicks": 900, "orders": 41, "revenue": "1250.50",
               "currency": "GBP", "again": True, "rating": 5}  # fmt: skip
    status, body = call(api, a, "PUT", f"/{made['id']}/results", results)
    assert status == 200, body
    shown = body["collaboration"]["results"]
    assert shown["mine"]["revenueMinor"] == 125050 and shown["mine"]["followers"] == 340
    assert shown["theirs"] is None
    _, theirs_view = call(api, b, "GET", f"/{made['id']}")
    assert theirs_view["collaboration"]["results"] == {
        "mine": None,
        "theirs": None,  # not until b records too (or 14 days after the end)
        "theirsRecorded": True,
        "visibleFrom": now.day(14),  # the end was yesterday
    }
    status, body = call(api, b, "PUT", f"/{made['id']}/results", {"reach": 8000, "again": False, "rating": 3})
    assert status == 200, body
    both = body["collaboration"]
    assert both["phase"] == "results-in" and both["results"]["theirs"]["reach"] == 12000

    from tandem.store.learning import MatchOutcome  # what matching learns from (issue 30, 37)

    month = datetime.fromtimestamp(clock.start(), UTC).strftime("%Y%m")
    # The collaboration's outcomes, in the month of its clock. The pair's accepted request is an
    # outcome too, at the real clock's month: on a day in March 2027 (the clock's own month) it
    # was in this month's list as well (a clean clone under faketime at 2027-03-28).
    learned = {
        o.request_id + o.outcome: int(o.percent)
        for o in MatchOutcome.of_month(month)
        if o.request_id.startswith("collab-")
    }
    assert learned == {f"collab-{made['id']}partner-again": 5, f"collab-{made['id']}not-again": 3}
    from tandem.services.match_index import to_profile
    from tandem.store.models import Brand as BrandItem

    # a format that worked counts as one the brand offers (a's profile lists none; b would not repeat)
    a_now, b_now = BrandItem.find(a.id, consistent=True), BrandItem.find(b.id, consistent=True)
    assert a_now.format_outcomes == {"events": {"again": 1, "not": 0}}
    assert b_now.format_outcomes == {"events": {"again": 0, "not": 1}}
    assert "events" in to_profile(a_now).collab_kinds and "events" not in to_profile(b_now).collab_kinds

    status, listed = call(api, a, "GET", "")
    assert status == 200
    (item,) = listed["items"]
    assert item["phase"] == "results-in" and item["partner"]["name"] == "Fern Candles"
    totals = listed["totals"]
    assert totals["overall"]["reach"] == 12000 and totals["overall"]["revenue"] == {"GBP": 125050}
    assert totals["byPartner"][0]["partner"] == "Fern Candles" and totals["byFormat"][0]["format"] == "events"

    headers = {k.lower(): v for k, v in a.headers.items()}
    response = api.gateway.handle("GET", "/api/collaborations/export", headers, b"", "127.0.0.1")
    assert response.status == 200
    rows = list(csv.DictReader(io.StringIO(response.body.decode())))
    assert rows[0]["title"] == "A candlelit supper club" and rows[0]["revenue"] == "1250.50"
    assert rows[0]["partner_again"] == "yes" and rows[0]["their_reach"] == "8000"


def test_the_member_date_is_the_one_their_offset_gives(api, pair, now):
    """At 12:00 UTC it is already tomorrow at UTC+14: 'today' there is in the past in UTC-11."""
    a, b = pair
    tomorrow_utc = now.day(1)
    status, body = call(api, a, "POST", "", plan(now, b, start=now.day(0), end=tomorrow_utc), offset="14")
    assert status == 400 and body["errors"]["start"] == "The start date can't be in the past"
    status, body = call(api, a, "POST", "", plan(now, b, start=now.day(0), end=tomorrow_utc), offset="-5")
    assert status == 201, body


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"start": "2020-01-01"}, "start", "The start date can't be in the past"),
        ({"end": "START-1"}, "end", "The end date can't be before the start date"),
        ({"format": "skydiving"}, "format", "Choose a format from the list"),
        ({"title": ""}, "title", "This field is required"),
        ({"goal": "fame"}, "goal", "Choose a goal: reach, sales, content or credibility"),
        ({"start": "10/03/2027"}, "start", "Choose a start date"),
    ],
)
def test_a_plan_with_bad_fields_is_refused_and_saves_nothing(api, pair, now, changes, field, message):
    a, b = pair
    if changes.get("end") == "START-1":
        changes = {"start": now.day(10), "end": now.day(9)}
    status, body = call(api, a, "POST", "", plan(now, b, **changes))
    assert status == 400
    assert body["error"] == "Please check the highlighted fields" and body["errors"][field] == message
    assert call(api, a, "GET", "")[1]["items"] == [] and call(api, b, "GET", "")[1]["items"] == []


def test_only_a_connected_brand_can_be_proposed_to(api, pair, now):
    a, _ = pair
    stranger = Brand("kiln@example.com", "Kiln Studio")
    status, body = call(api, a, "POST", "", plan(now, stranger))
    assert (status, body["error"]) == (404, "You are not connected with this brand")
    assert call(api, a, "POST", "", plan(now, stranger, otherBrandId=999999))[0] == 404
    assert call(api, stranger, "GET", "")[1]["items"] == []


@pytest.mark.long
def test_limits_messages_checklist_and_open_proposals(api, pair, now):
    a, b = pair
    made = propose(api, now, a, b, idea=None)
    path = f"/{made['id']}"
    status, body = call(api, a, "POST", f"{path}/messages", {"text": "x" * 2001})
    assert (status, body["error"]) == (400, "Please keep your message under 2,000 characters.")
    for n in range(60):
        assert call(api, a, "POST", f"{path}/messages", {"text": f"note {n}"})[0] == 200
    status, body = call(api, a, "POST", f"{path}/messages", {"text": "one more"})
    assert status == 429 and "60 messages" in body["error"]
    assert call(api, b, "POST", f"{path}/messages", {"text": "my own hour"})[0] == 200  # per brand
    now.advance(1 / 24)
    assert call(api, a, "POST", f"{path}/messages", {"text": "next hour"})[0] == 200
    assert len(call(api, b, "GET", path)[1]["collaboration"]["messages"]) == 62

    for n in range(100):
        status, body = call(api, a, "POST", f"{path}/checklist", {"text": f"Step {n}", "owner": "theirs"})
        assert status == 200, body
    status, body = call(api, b, "POST", f"{path}/checklist", {"text": "Step 101"})
    assert (status, body["error"]) == (400, "A checklist can have up to 100 items.")
    assert call(api, b, "GET", path)[1]["collaboration"]["checklist"][0]["owner"] == "mine"  # a said: theirs

    status, body = call(api, a, "PUT", f"{path}/results", {"revenue": "lots", "again": True, "rating": 4})
    assert status == 400 and body["errors"]["revenue"].startswith("Please enter the revenue as a number")

    for _ in range(19):
        propose(api, now, a, b, idea=None)
    status, body = call(api, a, "POST", "", plan(now, b, idea=None))
    assert status == 409 and body["error"].startswith("You have 20 collaborations waiting")
    assert len(call(api, a, "GET", "")[1]["items"]) == 20
    propose(api, now, b, a, idea=None)  # b's own proposals are b's count


def test_either_side_cancels_before_live_with_a_reason_but_not_after(api, pair, now):
    a, b = pair
    one = propose(api, now, a, b)
    status, body = call(api, b, "POST", f"/{one['id']}/cancel", {})
    assert status == 400 and body["errors"]["reason"] == "Please say why"
    status, body = call(api, b, "POST", f"/{one['id']}/cancel", {"reason": "Our stock is late"})
    assert status == 200 and body["collaboration"]["phase"] == "cancelled"
    assert call(api, a, "GET", f"/{one['id']}")[1]["collaboration"]["endedReason"] == "Our stock is late"
    assert call(api, a, "POST", f"/{one['id']}/messages", {"text": "Oh no"})[0] == 409

    two = propose(api, now, a, b, idea=None)
    status, body = call(
        api, b, "POST", f"/{two['id']}/decline", {"version": two["version"], "reason": "Not now"}
    )
    assert status == 200 and body["collaboration"]["phase"] == "declined"

    three = propose(api, now, a, b, idea=None)
    assert call(api, a, "POST", f"/{three['id']}/accept", {"version": 1})[0] == 403  # not a's turn
    call(api, b, "POST", f"/{three['id']}/accept", {"version": three["version"]})
    now.advance(10)
    status, body = call(api, a, "POST", f"/{three['id']}/cancel", {"reason": "Changed our minds"})
    assert (status, body["error"]) == (409, "This collaboration is already live, so it can't be cancelled.")


ROUTES = [
    ("GET", "/{id}", None),
    ("POST", "/{id}/accept", {"version": 1}),
    ("POST", "/{id}/changes", {"version": 1, "title": "Ours now"}),
    ("POST", "/{id}/decline", {"version": 1}),
    ("POST", "/{id}/cancel", {"reason": "Because"}),
    ("POST", "/{id}/checklist", {"text": "Sneak in"}),
    ("PUT", "/{id}/checklist/{item}", {"done": True}),
    ("POST", "/{id}/messages", {"text": "Hello"}),
    ("PUT", "/{id}/results", {"again": True, "rating": 5}),
]


def test_a_third_brand_gets_404_on_every_collaboration_route_and_changes_nothing(api, pair, now):
    from tests.factories import auth_headers

    a, b = pair
    made = propose(api, now, a, b)
    stranger = Brand("kiln@example.com", "Kiln Studio", credits=6)
    connect(api, stranger, a)  # connected to one party: still a stranger to their collaboration
    before = call(api, a, "GET", f"/{made['id']}")[1]
    for method, path, body in ROUTES:
        filled = path.replace("{id}", made["id"]).replace("{item}", made["checklist"][0]["id"])
        status, answer = call(api, stranger, method, filled, body)
        assert (status, answer["error"]) == (404, "Collaboration not found"), (method, path)
        # the stranger naming a party's brand in the header is refused at the door
        status, _ = api.call(method, f"/api/collaborations{filled}", auth_headers(stranger.token, a.id), body)
        assert status == 403, (method, path)
        status, answer = call(
            api, stranger, method, path.replace("{id}", "0" * 16).replace("{item}", "x"), body
        )
        assert status == 404, (method, path)
    assert call(api, a, "GET", f"/{made['id']}")[1] == before
    assert call(api, stranger, "GET", "")[1]["items"] == []


def test_a_block_ends_what_is_not_live_silently_for_the_blocker(api, pair, now):
    a, b = pair
    proposed = propose(api, now, a, b, idea=None)
    agreed = propose(api, now, a, b, idea=None, start=now.day(2), end=now.day(3))
    call(api, b, "POST", f"/{agreed['id']}/accept", {"version": agreed["version"]})
    status, body = api.call("POST", f"/api/brands/{a.id}/block", b.headers, {})
    assert status == 200, body

    assert call(api, b, "GET", "")[1]["items"] == []  # the blocker: silently gone
    assert call(api, b, "GET", f"/{proposed['id']}")[0] == 404
    listed = {i["id"]: i for i in call(api, a, "GET", "")[1]["items"]}
    assert set(listed) == {proposed["id"], agreed["id"]}
    for item in listed.values():
        assert (
            item["phase"] == "cancelled" and item["endedReason"] == "The other brand is no longer available."
        )
        assert item["partner"]["name"] == "A brand no longer on Tandem"


def test_a_suspension_ends_what_is_not_live(api, pair, now):
    from tandem.services import accounts, tokens

    a, b = pair
    proposed = propose(api, now, a, b, idea=None)
    account, user = accounts.create_account_with_user(
        email="admin@example.com", name="Ada Admin", password=None, access="admin", confirmed=True
    )
    admin = {
        "Authorization": f"Bearer {tokens.issue_access_token(user.user_id, account.account_id, 'admin')}"
    }
    status, body = api.call("POST", f"/api/admin/reports/{b.id}/action", admin, {"action": "suspend"})
    assert status == 200, body
    assert body["audit"]["details"]["endedCollaborations"] == 1
    (item,) = call(api, a, "GET", "")[1]["items"]
    assert item["id"] == proposed["id"] and item["phase"] == "cancelled"


@pytest.mark.delivery
def test_reminders_before_the_start_before_items_are_due_and_to_record_results(api, pair, now, aws):
    from tandem.services import collaboration_reminders

    a, b = pair
    made = propose(api, now, a, b, idea=None, start=now.day(5), end=now.day(8))
    item = {"text": "Book the room", "owner": "theirs", "due": now.day(4)}
    status, body = call(api, a, "POST", f"/{made['id']}/checklist", item)
    assert status == 200, body
    call(api, b, "POST", f"/{made['id']}/accept", {"version": body["collaboration"]["version"]})

    def reminders(email: str) -> list[str]:
        return sorted(m.subject for m in mail_to(email) if m.subject.startswith("Reminder"))

    at = clock.start()
    assert collaboration_reminders.run(now=at + 2 * DAY)["sent"] == 0
    assert (
        collaboration_reminders.run(now=at + 3 * DAY)["sent"] == 3
    )  # starts in 2 days; b's item due tomorrow
    assert collaboration_reminders.run(now=at + 3 * DAY)["sent"] == 0  # claimed once
    assert reminders(a.email) == [f"Reminder: it starts on {now.day(5)} (A candlelit supper club)"]
    assert reminders(b.email) == [
        "Reminder: 'Book the room' is due tomorrow (A candlelit supper club)",
        f"Reminder: it starts on {now.day(5)} (A candlelit supper club)",
    ]
    now.advance(9)
    call(api, a, "PUT", f"/{made['id']}/results", {"again": True, "rating": 4})
    assert collaboration_reminders.run(now=at + 9 * DAY)["sent"] == 1  # only b has not recorded
    assert sum("record what you saw" in s for s in reminders(b.email)) == 1
    assert collaboration_reminders.run(now=at + 30 * DAY) == {"watched": 1, "sent": 0, "left": 1}
    assert collaboration_reminders.run(now=at + 31 * DAY)["watched"] == 0


def test_the_admin_console_counts_collaborations_by_status_and_this_month(api, pair, now):
    from tandem.services import accounts, tokens

    a, b = pair
    one = propose(api, now, a, b, idea=None)
    two = propose(api, now, a, b, idea=None)
    propose(api, now, b, a, idea=None)
    call(api, b, "POST", f"/{one['id']}/accept", {"version": one["version"]})
    call(api, a, "POST", f"/{two['id']}/cancel", {"reason": "Not this season"})
    account, user = accounts.create_account_with_user(
        email="admin@example.com", name="Ada Admin", password=None, access="admin", confirmed=True
    )
    token = tokens.issue_access_token(user.user_id, account.account_id, "admin")
    status, body = api.call("GET", "/api/admin/collaborations", {"Authorization": f"Bearer {token}"})
    assert status == 200, body
    assert body["byStatus"] == {"proposed": 1, "agreed": 1, "declined": 0, "cancelled": 1, "results-in": 0}
    month = datetime.fromtimestamp(clock.start(), UTC).strftime("%Y%m")
    assert body["byMonth"] == [{"month": month, "proposed": 3}] and body["thisMonth"] == 3
    assert api.call("GET", "/api/admin/collaborations", a.headers)[0] == 403


def test_a_private_calendar_feed_lists_the_collaborations_until_revoked(api, pair, now):
    from urllib.parse import urlsplit

    from icalendar import Calendar

    a, b = pair
    made = propose(api, now, a, b)
    cancelled = propose(api, now, a, b, idea=None, title="Called off")
    call(api, a, "POST", f"/{cancelled['id']}/cancel", {"reason": "Not this season"})
    assert call(api, a, "GET", "/calendar-feed")[1] == {"feed": {"active": False, "createdAt": None}}
    status, body = call(api, a, "POST", "/calendar-feed")
    assert status == 200 and body["feed"]["active"] is True
    path = urlsplit(body["feed"]["url"]).path
    assert path.startswith("/api/calendar/") and path.endswith(".ics")
    assert "url" not in call(api, a, "GET", "/calendar-feed")[1]["feed"]  # shown once

    response = api.gateway.handle("GET", path, {}, b"", "127.0.0.1")  # no sign-in: the URL is the key
    assert response.status == 200
    assert dict((k.lower(), v) for k, v in response.headers)["content-type"].startswith("text/calendar")
    events = Calendar.from_ical(response.body).walk("VEVENT")
    summaries = {str(e["SUMMARY"]) for e in events}
    assert "A candlelit supper club (with Fern Candles)" in summaries
    assert "Called off (with Fern Candles)" not in summaries
    (collab,) = [e for e in events if str(e["UID"]) == f"{made['id']}@tandem"]
    assert collab.decoded("DTSTART").isoformat() == now.day(10)
    assert collab.decoded("DTEND").isoformat() == now.day(21)  # all day, the end included
    assert any(str(e["SUMMARY"]).startswith("Due: Agree: ") for e in events)  # the checklist's due items

    _, renewed = call(api, a, "POST", "/calendar-feed")
    assert api.gateway.handle("GET", path, {}, b"", "127.0.0.1").status == 404  # the old URL stops
    new_path = urlsplit(renewed["feed"]["url"]).path
    assert api.gateway.handle("GET", new_path, {}, b"", "127.0.0.1").status == 200
    call(api, a, "DELETE", "/calendar-feed")
    assert api.gateway.handle("GET", new_path, {}, b"", "127.0.0.1").status == 404
    assert api.gateway.handle("GET", "/api/calendar/" + "x" * 43 + ".ics", {}, b"", "127.0.0.1").status == 404


FUZZ_BODIES = [
    None,
    [],
    "text",
    {"version": "1"},
    {"version": True, "reason": 5, "text": None, "done": "yes"},
    {"text": ["a"], "owner": {}, "due": 20270101},
    {"start": None, "end": [], "title": 7, "format": None, "otherBrandId": "²"},
    {"reach": -5, "revenue": {"a": 1}, "currency": 3, "again": "true", "rating": 2.5},
    {"revenue": float("1e308"), "clicks": "9" * 40, "again": True, "rating": 5},
    {"text": "\ud83d" * 3, "reason": "x" * 100_000},
]


def test_no_collaboration_route_answers_a_server_error_to_bad_input(api, pair, now):
    """The route fuzz: every route, each malformed body, a bad id, as a party and as a stranger."""
    import json

    a, b = pair
    made = propose(api, now, a, b)
    stranger = Brand("kiln@example.com", "Kiln Studio")
    item = made["checklist"][0]["id"]
    routes = [(m, p.replace("{id}", made["id"]).replace("{item}", item)) for m, p, _ in ROUTES]
    routes += [("POST", ""), ("GET", ""), ("GET", "/export"), ("POST", "/calendar-feed"), ("GET", "/%00")]
    routes += [("GET", f"/{made['id']}/../../x"), ("PUT", f"/{made['id']}/checklist/{'z' * 500}")]
    for who in (a, b, stranger):
        for method, path in routes:
            for body in FUZZ_BODIES:
                raw = json.dumps(body).encode() if body is not None else b"{not json"
                headers = {k.lower(): v for k, v in who.headers.items()} | {
                    "content-type": "application/json"
                }
                response = api.gateway.handle(method, f"/api/collaborations{path}", headers, raw, "127.0.0.1")
                assert response.status < 500, (method, path, body, response.body[:200])
    for raw in ("x" * 43 + ".ics", "%2e%2e", "a" * 1000):
        assert api.gateway.handle("GET", f"/api/calendar/{raw}", {}, b"", "127.0.0.1").status == 404


def _share(api, who: Brand, other: Brand, body: dict, tail: str = ""):
    return api.call("POST", f"/api/connections/{other.id}/share{tail}", who.headers, body)


def _member_collabs(api, who: Brand) -> list[dict]:
    status, body = api.call("GET", "/api/collab/examples", who.headers)
    assert status == 200, body
    return body["items"]


def _finished(api, now, a: Brand, b: Brand, **changes) -> dict:
    """A collaboration of a and b, agreed and past its end (no results yet)."""
    made = propose(api, now, a, b, idea=None, start=now.day(1), end=now.day(2), **changes)
    status, body = call(api, b, "POST", f"/{made['id']}/accept", {"version": made["version"]})
    assert status == 200, body
    now.advance(3)
    return made


SUMMARY = "A candlelit supper club: our oat drinks and their candles, forty seats, sold out twice."


def test_a_finished_collaboration_goes_to_member_collabs_with_only_the_figures_both_allowed(api, pair, now):
    a, b = pair
    made = _finished(api, now, a, b)
    a_results = {"reach": 12000, "clicks": 900, "orders": 41, "revenue": "1250.50", "currency": "GBP",
                 "again": True, "rating": 5}  # fmt: skip
    assert call(api, a, "PUT", f"/{made['id']}/results", a_results)[0] == 200
    assert call(api, b, "PUT", f"/{made['id']}/results", {"reach": 8000, "orders": 12, "again": True,
                                                          "rating": 4})[0] == 200  # fmt: skip

    # a shows its reach, orders and revenue; b agrees to show its reach and clicks
    proposal = {"summary": SUMMARY, "collaboration": made["id"], "figures": ["revenue", "reach", "orders"]}
    status, body = _share(api, a, b, proposal)
    assert status == 200, body
    proposal = body["share"]
    assert proposal["collaboration"] == {"id": made["id"], "title": "A candlelit supper club"}
    assert proposal["figures"] == {"yours": ["reach", "orders", "revenue"], "theirs": []}
    _, seen = api.call("GET", f"/api/connections/{a.id}/share", b.headers)
    assert seen["share"]["figures"] == {"yours": [], "theirs": ["reach", "orders", "revenue"]}
    assert _member_collabs(api, a) == []  # not until b agrees

    status, body = _share(
        api, b, a, {"proposedAt": seen["share"]["proposedAt"], "figures": ["reach", "clicks"]}, "/agree"
    )
    assert status == 200, body
    assert body["share"]["state"] == "shared"

    reader = Brand("reader@example.com", "Kiln Studio")
    (item,) = _member_collabs(api, reader)
    shown = item["collaboration"]
    assert shown["title"] == "A candlelit supper club" and shown["format"] == "events"
    assert (shown["start"], shown["end"]) == (made["start"], made["end"])
    # reach is the only figure both allowed: a's orders and revenue, b's clicks stay private
    assert shown["figures"] == [{"figure": "reach", "label": "Reach", "values": [12000, 8000]}]
    assert [brand["name"] for brand in item["brands"]] == ["Oat & Co", "Fern Candles"]


def test_a_shared_collaboration_shows_no_figures_until_each_side_may_see_the_others(api, pair, now):
    a, b = pair
    made = _finished(api, now, a, b)
    assert call(api, a, "PUT", f"/{made['id']}/results", {"reach": 500, "again": True, "rating": 4})[0] == 200
    _, body = _share(api, a, b, {"summary": SUMMARY, "collaboration": made["id"], "figures": ["reach"]})
    _share(api, b, a, {"proposedAt": body["share"]["proposedAt"], "figures": ["reach"]}, "/agree")
    (item,) = _member_collabs(api, Brand("reader@example.com", "Kiln Studio"))
    assert item["collaboration"]["figures"] == []  # b has not recorded, and the 14 days have not passed
    now.advance(15)
    (item,) = _member_collabs(api, Brand("reader2@example.com", "Moss Ceramics"))
    assert item["collaboration"]["figures"] == [{"figure": "reach", "label": "Reach", "values": [500, None]}]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("live", "Choose a finished collaboration with this brand, or none."),
        ("unknown", "Choose a finished collaboration with this brand, or none."),
        ("figures-without", "Choose a finished collaboration with this brand, or none."),
        (
            "bad-figure",
            "Choose the figures to show from the list: reach, followers, clicks, orders and revenue.",
        ),
    ],
)
def test_a_share_naming_a_collaboration_not_finished_or_not_theirs_is_refused(api, pair, now, case, message):
    a, b = pair
    body: dict = {"summary": SUMMARY}
    if case == "live":
        live = propose(api, now, a, b, idea=None, start=now.day(0), end=now.day(5))
        call(api, b, "POST", f"/{live['id']}/accept", {"version": live["version"]})
        body["collaboration"] = live["id"]
    elif case == "unknown":
        other = Brand("kiln@example.com", "Kiln Studio", credits=6)
        connect(api, other, a)
        theirs = _finished(api, now, other, a)  # a's, but with another brand
        body["collaboration"] = theirs["id"]
    elif case == "figures-without":
        body["figures"] = ["reach"]
    else:
        made = _finished(api, now, a, b)
        body |= {"collaboration": made["id"], "figures": ["reach", "secret"]}
    status, answer = _share(api, a, b, body)
    assert (status, answer["error"]) == (400, message)
    assert api.call("GET", f"/api/connections/{b.id}/share", a.headers)[1] == {"share": {"state": "none"}}


def test_a_hidden_brand_stays_masked_in_a_shared_collaboration_but_to_its_partner(api, now):
    zed = Brand("zed@example.com", "Zyxquor Hidden Studio", credits=6, hide_name=True, category="outdoors")
    ria = Brand("ria@example.com", "Ria Rugs", credits=6, category="home")
    connect(api, zed, ria)
    made = _finished(api, now, zed, ria, title="Zyxquor Hidden Studio tents at the Ria Rugs fair")
    for who, reach in ((zed, 300), (ria, 700)):
        call(api, who, "PUT", f"/{made['id']}/results", {"reach": reach, "again": True, "rating": 5})
    _, body = _share(api, zed, ria, {"summary": SUMMARY, "collaboration": made["id"], "figures": ["reach"]})
    _share(api, ria, zed, {"proposedAt": body["share"]["proposedAt"], "figures": ["reach"]}, "/agree")

    (item,) = _member_collabs(api, Brand("reader@example.com", "Kiln Studio"))
    assert item["name"] == "An outdoors brand × Ria Rugs"
    assert item["collaboration"]["title"] == "This brand tents at the Ria Rugs fair"
    assert item["collaboration"]["figures"][0]["values"] == [300, 700]
    for party in (zed, ria):
        (own,) = _member_collabs(api, party)
        assert own["collaboration"]["title"] == "Zyxquor Hidden Studio tents at the Ria Rugs fair"


def _match_scores(api, me: Brand) -> dict[int, int]:
    """{candidate id: score shown} of the brand's Matches after a match run (the state machine run)."""
    from tandem.services import match_runs
    from tests.functional.helpers import wait_for_run

    run = match_runs.start_run(me.id)
    assert wait_for_run(api, me.token, me.id, run.run_id)["status"] == "done"
    return _listed_scores(api, me)


def _listed_scores(api, me: Brand) -> dict[int, int]:
    status, body = api.call("GET", "/api/matches?list=potentials", me.headers)
    assert status == 200, body
    return {c["id"]: c["score"] for c in body["matches"]}


def _night(aws) -> None:
    """The nightly match run for every brand (its state machine run)."""
    from tandem.services import match_runs
    from tests.conftest import wait_for_execution

    started = match_runs.start_nightly()
    machine = aws.state_machines["NightlyMatchRunStateMachine"]
    arn = machine.arn.replace(":stateMachine:", ":execution:") + ":" + started["execution"]
    assert wait_for_execution(arn)["status"] == "SUCCEEDED"


def test_a_format_that_worked_raises_that_formats_score_for_the_brand_on_the_next_run(api, aws, now):
    profile = {"company_size": "11-50", "countries": ["GB"], "age_bands": ["25-34"]}
    home = {"category": "home", **profile}
    a = Brand("oat@example.com", "Oat & Co", credits=6, category="food & drink",
              collab_kinds=["events", "giveaways"], **profile)  # fmt: skip
    b = Brand("fern@example.com", "Fern Candles", credits=6, collab_kinds=["events"], **home)
    # two candidates alike but for the format they offer
    events = Brand("salt@example.com", "Salt Studio", collab_kinds=["events"], **home)
    giveaways = Brand("tide@example.com", "Tide Soaps", collab_kinds=["giveaways"], **home)
    connect(api, a, b)
    before = _match_scores(api, a)
    assert before[events.id] == before[giveaways.id]

    made = _finished(api, now, a, b)
    status, body = call(api, a, "PUT", f"/{made['id']}/results", {"again": True, "rating": 5})
    assert status == 200, body
    after = _match_scores(api, a)
    assert after[events.id] > before[events.id]  # events worked for a
    assert after[giveaways.id] == before[giveaways.id]  # other formats keep their score
    # the nightly run, which rewrites every brand's list, raises it alike
    _night(aws)
    assert _listed_scores(api, a) == after

    # b would not partner again: its events are not raised
    before_b = _match_scores(api, b)
    status, body = call(api, b, "PUT", f"/{made['id']}/results", {"again": False, "rating": 2})
    assert status == 200, body
    assert _match_scores(api, b) == before_b
