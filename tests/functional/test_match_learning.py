"""Learning from outcomes (issue 30): a request keeps the pair's packed records from its send,
and its outcome (accepted, declined, cancelled, expired) is recorded once, in the transaction
that changes its status; the train-matching job learns a model from the recorded history."""

from __future__ import annotations

import time

import pytest

from tests.functional.helpers import DAY, Brand, send


def _outcomes() -> list:
    from tandem.services import match_learning
    from tandem.store.models import MatchOutcome

    return [
        o
        for month in match_learning._months(int(time.time()) + 30 * DAY, 2)
        for o in MatchOutcome.of_month(month)
    ]


def _pair(category: str = "Beauty") -> tuple[Brand, Brand]:
    a = Brand("a@example.com", "Oat & Co", credits=6, category="Food & drink")
    b = Brand("b@example.com", "Fern Candles", category=category)
    return a, b


def test_a_sent_request_keeps_both_brands_packed_records(api, aws):
    from tandem.domain import matching
    from tandem.services.match_index import to_profile
    from tandem.store.models import Brand as BrandItem
    from tandem.store.models import ConnectionRequest

    a, b = _pair()
    status, body = send(api, a, b)
    assert status == 201, body
    req = ConnectionRequest.find(body["request"]["id"], consistent=True)
    assert bytes(req.from_record) == matching.pack(to_profile(BrandItem.find(a.id)))
    assert bytes(req.to_record) == matching.pack(to_profile(BrandItem.find(b.id)))
    assert matching.unpack(bytes(req.to_record)).category.lower() == "beauty"
    assert _outcomes() == []  # nothing is an outcome yet


@pytest.mark.parametrize(
    ("action", "actor", "outcome"),
    [("accept", "b", "accepted"), ("decline", "b", "declined"), ("cancel", "a", "cancelled")],
)
def test_an_answer_or_a_cancel_records_its_outcome_once(api, aws, action, actor, outcome):
    a, b = _pair()
    request_id = send(api, a, b)[1]["request"]["id"]
    who = {"a": a, "b": b}[actor]
    status, body = api.call("POST", f"/api/requests/{request_id}/{action}", who.headers)
    assert status == 200, body
    # A second try is refused and records nothing more.
    assert api.call("POST", f"/api/requests/{request_id}/{action}", who.headers)[0] == 409
    (row,) = _outcomes()
    assert (row.request_id, row.outcome) == (request_id, outcome)
    from tandem.domain import matching

    assert matching.unpack(bytes(row.sender)).brand_id == a.id
    assert matching.unpack(bytes(row.recipient)).brand_id == b.id


def test_an_expired_request_records_its_outcome_once(api, aws):
    from tandem.services.requests import expiry

    a, b = _pair()
    sent_at = int(time.time())
    request_id = send(api, a, b)[1]["request"]["id"]
    assert expiry.run(now=sent_at + 14 * DAY + 60) == {"expired": 1}
    expiry.run(now=sent_at + 15 * DAY)  # its sender's email; nothing more is recorded
    assert [(r.request_id, r.outcome) for r in _outcomes()] == [(request_id, "expired")]


def test_a_request_sent_before_records_were_kept_records_no_outcome(api, aws):
    from tandem.store.models import ConnectionRequest

    a, b = _pair()
    request_id = send(api, a, b)[1]["request"]["id"]
    ConnectionRequest.at(request_id).update(
        actions=[ConnectionRequest.from_record.remove(), ConnectionRequest.to_record.remove()]
    )
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers)[0] == 200
    assert _outcomes() == []
