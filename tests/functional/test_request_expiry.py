"""Requests that expire (issue 28): the expire-requests job's reminders on day 3 and day 10,
its expiry on day 14 with the credit back as on a decline, the sender's email; racing an
accept, two runs at once, a run cut short; preferences and unsubscribes; reply-time figures."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.functional.helpers import DAY, Brand, available, mail_to, run_job, send, wait_for_run


def _run(at: int) -> dict:
    from tandem.services.requests import expiry

    return expiry.run(now=at)


def _status(request_id: str) -> str:
    from tandem.store.requests import ConnectionRequest

    return ConnectionRequest.find(request_id, consistent=True).status


def _expiry_mail(email: str) -> list:
    return [m for m in mail_to(email) if "didn't reply in 14 days" in m.subject]


def _reminders(email: str) -> list:
    return [m for m in mail_to(email) if "is waiting for your answer" in m.subject]


@pytest.mark.delivery
def test_a_request_nobody_answers_is_reminded_then_expires_with_its_credit_back(api, aws):
    from tandem.services import credits

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    status, body = send(api, a, b)
    assert status == 201, body
    request = body["request"]
    sent_at = int(time.time())
    assert request["expiresAt"].endswith("Z") and available(a.account) == 5
    listed = api.call("GET", "/api/requests?box=sent", a.headers)[1]["items"][0]
    assert listed["id"] == request["id"] and listed["expiresAt"] == request["expiresAt"]
    received = api.call("GET", "/api/requests?box=received", b.headers)[1]["items"][0]
    assert received["expiresAt"] == request["expiresAt"]

    assert _run(sent_at + 2 * DAY) == {}  # nothing due yet
    assert _run(sent_at + 3 * DAY + 60) == {"reminded": 1}
    (reminder,) = _reminders("b@example.com")
    assert reminder.subject == "Oat & Co is waiting for your answer"
    assert "The request expires in 11 days." in reminder.body
    assert f"/quick-action/accept/{b.id}/{a.id}/{request['id']}-" in reminder.body
    assert f"/quick-action/decline/{b.id}/{a.id}/{request['id']}-" in reminder.body
    assert _run(sent_at + 3 * DAY + 120) == {}  # never twice
    assert _run(sent_at + 10 * DAY + 60) == {"reminded": 1}
    assert len(_reminders("b@example.com")) == 2
    assert _status(request["id"]) == "pending" and available(a.account) == 5

    assert _run(sent_at + 14 * DAY + 60) == {"expired": 1}
    assert _status(request["id"]) == "expired"
    assert available(a.account) == 6 and credits.verify(a.account) == {}
    (mail,) = _expiry_mail("a@example.com")
    assert mail.subject == "Fern Candles didn't reply in 14 days; your credit is back"
    assert "/declines/out/" in mail.body
    out = api.call("GET", "/api/declines?dir=out", a.headers)[1]["items"]
    into = api.call("GET", "/api/declines?dir=in", b.headers)[1]["items"]
    assert [(i["id"], i["status"]) for i in out] == [(request["id"], "expired")]
    assert [(i["id"], i["status"]) for i in into] == [(request["id"], "expired")]
    assert api.call("GET", "/api/requests?box=sent", a.headers)[1]["items"] == []
    assert api.call("GET", "/api/requests?box=received", b.headers)[1]["items"] == []
    # Too late to answer now.
    status, body = api.call("POST", f"/api/requests/{request['id']}/accept", b.headers)
    assert status == 409 and body["error"] == "This request expired: it wasn't answered within 14 days."

    assert _run(sent_at + 20 * DAY) == {}  # done: nothing left in the due index
    assert len(_expiry_mail("a@example.com")) == 1 and available(a.account) == 6


def test_the_scheduler_runs_the_job(api, aws):
    assert run_job(aws, "expire-requests") == {}


@pytest.mark.delivery
def test_an_answered_request_is_neither_reminded_nor_expired(api, aws):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Pine Press")
    first = send(api, a, b)[1]["request"]["id"]
    second = send(api, a, c)[1]["request"]["id"]
    now = int(time.time())
    assert api.call("POST", f"/api/requests/{first}/accept", b.headers)[0] == 200
    assert api.call("POST", f"/api/requests/{second}/cancel", a.headers)[0] == 200
    assert _run(now + 15 * DAY) == {}
    assert (_status(first), _status(second)) == ("accepted", "cancelled")
    assert _reminders("b@example.com") == _reminders("c@example.com") == []
    assert available(a.account) == 5  # the accepted one's credit is spent, the cancelled one's back


@pytest.mark.delivery
def test_reminders_follow_preferences_and_unsubscribes(api, aws):
    from tandem.services import notification_settings

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    c = Brand("c@example.com", "Pine Press")
    notification_settings.update(b.user.user_id, {"requests_received": {"email": False}})
    notification_settings.unsubscribe_email(c.user.user_id, "requests_received")
    send(api, a, b)
    send(api, a, c)
    now = int(time.time())
    assert _run(now + 3 * DAY + 60) == {"reminded": 2}  # claimed, and delivered per settings
    assert _reminders("b@example.com") == [] and _reminders("c@example.com") == []
    # The expiry email follows the sender's settings for declines.
    notification_settings.update(a.user.user_id, {"request_declined": {"email": False}})
    assert _run(now + 14 * DAY + 60) == {"expired": 2}
    assert _expiry_mail("a@example.com") == [] and available(a.account) == 6


@pytest.mark.delivery
@pytest.mark.long
def test_expiry_racing_an_accept_ends_in_one_state_with_the_credit_counted_once(api, aws):
    """50 requests, each answered in the same instant the job expires it."""
    from tandem.services import credits
    from tandem.services.requests import expiry
    from tandem.store.requests import ConnectionRequest

    runs = 50
    a = Brand("a@example.com", "Oat & Co", credits=runs)
    receivers = [Brand(f"r{i}@example.com", f"Receiver {i}") for i in range(runs)]
    ids = [send(api, a, r)[1]["request"]["id"] for r in receivers]
    at = int(time.time()) + 14 * DAY + 60
    outcomes = []
    with ThreadPoolExecutor(2) as pool:
        for request_id, receiver in zip(ids, receivers, strict=True):
            gate = threading.Barrier(2)
            req = ConnectionRequest.find(request_id, consistent=True)

            def answer(rid=request_id, who=receiver, gate=gate):
                gate.wait()
                return api.call("POST", f"/api/requests/{rid}/accept", who.headers)[0]

            def expire(req=req, gate=gate):
                gate.wait()
                return expiry.step(req, at)

            accepted, expired = pool.submit(answer), pool.submit(expire)
            outcomes.append((accepted.result(), expired.result()))
    finals = [_status(i) for i in ids]
    for (code, step), final in zip(outcomes, finals, strict=True):
        assert (code, step, final) in ((200, "skipped", "accepted"), (409, "expired", "expired"))
    won_by_expiry = finals.count("expired")
    assert available(a.account) == won_by_expiry  # spent on accept, back on expiry
    assert credits.verify(a.account) == {}
    assert len(_expiry_mail("a@example.com")) == won_by_expiry
    assert _run(at + DAY) == {}


def _due_requests(api, count: int) -> tuple[Brand, list[str]]:
    a = Brand("a@example.com", "Oat & Co", credits=count)
    ids = [
        send(api, a, Brand(f"r{i}@example.com", f"Receiver {i}"))[1]["request"]["id"] for i in range(count)
    ]
    return a, ids


@pytest.mark.delivery
def test_two_runs_at_once_do_each_step_once(api, aws):
    from tandem.services import credits

    a, ids = _due_requests(api, 6)
    at = int(time.time()) + 14 * DAY + 60
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.submit(_run, at), pool.submit(_run, at)
        results = [first.result(), second.result()]
    assert sum(r.get("expired", 0) for r in results) == 6
    assert {_status(i) for i in ids} == {"expired"}
    assert available(a.account) == 6 and credits.verify(a.account) == {}
    assert len(_expiry_mail("a@example.com")) == 6


@pytest.mark.delivery
def test_a_run_cut_short_is_finished_by_the_next(api, aws, monkeypatch):
    from tandem.services import credits
    from tandem.services.requests import expiry

    a, ids = _due_requests(api, 5)
    at = int(time.time()) + 14 * DAY + 60
    real = expiry.transition_outcome
    calls = []

    def dies_after_the_third_expiry(*args, **kwargs):
        calls.append(1)
        done = real(*args, **kwargs)
        if len(calls) == 3:
            raise SystemExit("the Lambda timed out")  # after the transaction, before the email
        return done

    monkeypatch.setattr(expiry, "transition_outcome", dies_after_the_third_expiry)
    with pytest.raises(SystemExit):
        _run(at)
    assert sorted(_status(i) for i in ids) == ["expired"] * 3 + ["pending"] * 2
    assert len(_expiry_mail("a@example.com")) == 2
    monkeypatch.setattr(expiry, "transition_outcome", real)
    assert _run(at) == {"expired": 2, "mailed": 1}
    assert {_status(i) for i in ids} == {"expired"}
    assert available(a.account) == 5 and credits.verify(a.account) == {}
    assert len(_expiry_mail("a@example.com")) == 5  # one each: none lost, none twice
    assert _run(at) == {}


def test_reply_time_figures_from_a_hand_built_history(api, aws):
    from tandem.services import reply_stats

    b = Brand("b@example.com", "Fern Candles")
    senders = [Brand(f"s{i}@example.com", f"Sender {i}", credits=2) for i in range(5)]
    ids = [send(api, s, b)[1]["request"]["id"] for s in senders]
    assert reply_stats.figures_of(b.id).received == 0
    api.call("POST", f"/api/requests/{ids[0]}/accept", b.headers)
    api.call("POST", f"/api/requests/{ids[1]}/decline", b.headers, {})
    assert reply_stats.labels_of([b.id])[b.id] == []  # 2 ended: too few for a label
    api.call("POST", f"/api/requests/{ids[2]}/cancel", senders[2].headers)  # says nothing of b
    _run(int(time.time()) + 14 * DAY + 60)  # ids[3] and ids[4] expire unanswered
    figures = reply_stats.figures_of(b.id)
    assert (figures.received, figures.answered, figures.median_days()) == (4, 2, 1)
    assert figures.answer_rate == 0.5
    assert reply_stats.labels_of([b.id])[b.id] == ["Usually replies within a day"]  # half is not most
    # 90 days on, none of it counts any more.
    assert reply_stats.figures_of(b.id, now=int(time.time()) + 100 * DAY).received == 0


def _answered_requests(api, to: Brand, count: int, prefix: str) -> None:
    for i in range(count):
        sender = Brand(f"{prefix}{i}@example.com", f"Sender {prefix}{i}", credits=1)
        request_id = send(api, sender, to)[1]["request"]["id"]
        assert api.call("POST", f"/api/requests/{request_id}/accept", to.headers)[0] == 200


# Brands that match one another (the senders, without a profile, match nobody).
ALIKE = {
    "category": "food",
    "collab_kinds": ["giveaways", "events"],
    "values": ["vegan", "local"],
    "countries": ["GB"],
    "age_bands": ["25-34"],
}


def test_the_brand_page_shows_the_reply_labels_live_and_a_card_as_of_the_last_rebuild_and_run(api, aws):
    from tandem.services import match_index

    b = Brand("b@example.com", "Fern Candles", **ALIKE)
    c = Brand("c@example.com", "Salt Studio", **ALIKE)
    viewer = Brand("v@example.com", "Pine Press", **ALIKE)
    page = api.call("GET", f"/api/brand/{b.id}", viewer.headers)[1]
    assert page["brand"]["replyLabels"] == []  # no history: no label
    _answered_requests(api, b, 3, "s")
    _answered_requests(api, c, 2, "t")  # two ended: too few for a label
    labels = ["Usually replies within a day", "Replies to most requests"]
    # The page reads the figures live.
    assert api.call("GET", f"/api/brand/{b.id}", viewer.headers)[1]["brand"]["replyLabels"] == labels
    # A card shows what the last nightly rebuild and match run saw: nothing yet.
    api.call("PUT", f"/api/matches/{b.id}/saved", viewer.headers)
    (card,) = api.call("GET", "/api/matches?list=saved", viewer.headers)[1]["matches"]
    assert card["id"] == b.id and card["replyLabels"] == []
    match_index.rebuild()
    status, started = api.call("POST", f"/api/matching/run/{viewer.id}", viewer.headers)
    assert status == 202, started
    assert wait_for_run(api, viewer.token, viewer.id, started["runId"])["status"] == "done"
    (card,) = api.call("GET", "/api/matches?list=saved", viewer.headers)[1]["matches"]
    assert card["id"] == b.id and card["replyLabels"] == labels
    listed = {c["id"]: c for c in api.call("GET", "/api/matches", viewer.headers)[1]["matches"]}
    assert set(listed) == {b.id, c.id}
    assert listed[b.id]["replyLabels"] == labels and listed[c.id]["replyLabels"] == []


def test_the_nightly_rebuild_and_run_put_the_reply_labels_on_the_cards(api, aws):
    from tandem.services import match_index, match_runs

    b = Brand("b@example.com", "Fern Candles", **ALIKE)
    viewer = Brand("v@example.com", "Pine Press", **ALIKE)
    _answered_requests(api, b, 3, "s")
    match_index.rebuild()
    # A profile save after the rebuild keeps the brand's labels in its row.
    assert api.call("PUT", f"/api/brands/{b.id}", b.headers, {"name": "Fern & Wick Candles"})[0] == 200
    match_runs.nightly_batch("nightly-test", viewer.id, viewer.id)
    listed = {c["id"]: c for c in api.call("GET", "/api/matches", viewer.headers)[1]["matches"]}
    assert listed[b.id]["replyLabels"] == ["Usually replies within a day", "Replies to most requests"]
    assert listed[b.id]["name"] == "Fern & Wick Candles"


@pytest.mark.delivery
def test_a_receiver_with_browser_push_on_gets_the_reminder_as_a_push(api, aws, fake_push):
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    _, key = api.call("GET", "/api/browser-notifications/vapid-public-key", b.headers)
    subscription = fake_push.subscribe(key["publicKey"])
    api.call("POST", "/api/browser-notifications/subscribe", b.headers, subscription.info())
    change = {"requests_received": {"email": False, "browser": True}}
    assert api.call("PUT", "/api/notifications/user", b.headers, change)[0] == 200
    send(api, a, b)
    assert _run(int(time.time()) + 10 * DAY + 60) == {"reminded": 1}  # day 3 is past: not sent late
    assert _reminders("b@example.com") == []
    reminder = fake_push.messages(subscription)[-1].json()
    assert reminder["title"] == "Oat & Co is waiting for your answer"
    assert reminder["body"] == "The request expires in 4 days."
    assert "/requests/received/" in reminder["url"]


@pytest.mark.delivery
def test_requests_pending_from_before_the_index_are_backfilled_and_expire(api, aws):
    from tandem.store.requests import ConnectionRequest

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    request_id = send(api, a, b)[1]["request"]["id"]
    old = ConnectionRequest.find(request_id, consistent=True)
    actions = [getattr(ConnectionRequest, n).remove() for n in ("expires_at", "due_step", "gsi3pk", "gsi3sk")]
    old.update(actions=actions)  # as a request sent before the due index was
    assert _run(int(time.time()) + 15 * DAY) == {}
    assert run_job(aws, "index-pending-requests") == {"indexed": 1}
    assert run_job(aws, "index-pending-requests") == {"indexed": 0}  # idempotent
    assert _run(int(time.time()) + 15 * DAY) == {"expired": 1}
    assert _status(request_id) == "expired" and available(a.account) == 6
