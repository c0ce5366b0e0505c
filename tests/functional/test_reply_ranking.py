"""The reply-time signal in ranking (issue 28): a brand that rarely answers the requests it
receives ranks lower in Matches (a match run's stored list) and in search's best-fit sort; a
brand with fewer than 3 ended requests is not touched. The tier lives in the match index's
search rows: set by the shard rebuild, kept by a profile save."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest

from tandem.domain import search_rows
from tandem.services import brand_search, match_index, match_runs
from tandem.store.connection import transaction
from tandem.store.matches import MatchIndexShard
from tandem.store.reply_stats import BrandReplyStats
from tests.functional.helpers import Brand, wait_for_run

DAY = 86400
PROFILE = {
    "category": "home",
    "collab_kinds": ["giveaways", "events"],
    "values": ["vegan", "local"],
    "countries": ["GB"],
    "age_bands": ["25-34"],
}


@pytest.fixture(autouse=True)
def fresh_index():
    brand_search.forget_index()
    yield
    brand_search.forget_index()


def history(brand_id: int, answered: int, expired: int) -> None:
    """Requests the brand received 5 days ago: `answered` within an hour, `expired` unanswered
    (the counters the answers' and expiries' transactions add to)."""
    now = int(time.time())
    for after in [3600] * answered + [None] * expired:
        with transaction() as tx:  # one request's end: one transaction each
            BrandReplyStats.add_in(tx, brand_id, now - 5 * DAY, after, now)


def scene() -> tuple[Brand, Brand, Brand]:
    """A viewer and two candidates alike in everything but who they are; the first made (the
    lower id, first on a tie) is the one whose reply history the tests vary."""
    me = Brand(
        "me@example.com",
        "Oat & Co",
        category="food & drink",
        **{k: v for k, v in PROFILE.items() if k != "category"},
    )
    rare = Brand("rare@example.com", "Fern Candles", **PROFILE)
    prompt = Brand("prompt@example.com", "Salt Studio", **PROFILE)
    return me, rare, prompt


def run_order(api, me: Brand) -> list[tuple[int, int]]:
    """(id, score shown) of the viewer's Matches after a match run, in the list's order."""
    run = match_runs.start_run(me.id)
    assert wait_for_run(api, me.token, me.id, run.run_id)["status"] == "done"
    status, body = api.call("GET", "/api/matches?list=potentials", me.headers)
    assert status == 200, body
    return [(c["id"], c["score"]) for c in body["matches"]]


def run_order_stored(me: Brand) -> list[tuple[int, int]]:
    """(candidate id, rank) of the brand's stored list, best first."""
    from tandem.store.matches import Match

    ranked = [(m.candidate_id, int(m.rank)) for m in Match.of_brand(me.id).values() if m.rank is not None]
    return sorted(ranked, key=lambda pair: pair[1])


def best_fit_order(api, me: Brand) -> list[tuple[int, int]]:
    status, body = api.call("GET", f"/api/brands/search?{urlencode({'sort': 'best'})}", me.headers)
    assert status == 200, body
    return [(c["id"], c["score"]) for c in body["matches"]]


def tier_of(brand_id: int) -> int:
    item = MatchIndexShard.find(match_index.shard_of(brand_id), consistent=True)
    row = {r.slot: r for r in search_rows.decode_rows(item.search)}[brand_id % match_index.SHARD_SIZE]
    return (row.flags & search_rows.REPLY_TIER) >> search_rows.REPLY_TIER_SHIFT


def test_a_brand_that_rarely_answers_ranks_lower_in_matches_and_in_best_fit_search(api):
    me, rare, prompt = scene()
    history(rare.id, answered=1, expired=5)  # answers 1 in 6
    history(prompt.id, answered=5, expired=1)
    match_index.rebuild()  # the nightly rebuild reads the reply figures into the rows
    assert (tier_of(rare.id), tier_of(prompt.id)) == (3, 0)

    matches = run_order(api, me)
    assert [i for i, _ in matches] == [prompt.id, rare.id]
    assert matches[0][1] == matches[1][1]  # the fit shown is the same: only the order moves
    found = best_fit_order(api, me)
    assert [i for i, _ in found] == [prompt.id, rare.id]
    assert found[0][1] == found[1][1]
    # The nightly run (every brand against the whole index) ranks them the same way.
    match_runs.nightly_batch("nightly-test", me.id, me.id)
    assert [i for i, _ in run_order_stored(me)] == [prompt.id, rare.id]


def test_no_effect_for_brands_with_fewer_than_3_ended_requests(api):
    me, rare, prompt = scene()
    history(rare.id, answered=0, expired=2)  # 2 ended: too few to say
    match_index.rebuild()
    assert (tier_of(rare.id), tier_of(prompt.id)) == (0, 0)
    # Equal: the tie goes to the lower id, the brand that has not answered its two.
    assert [i for i, _ in run_order(api, me)] == [rare.id, prompt.id]
    assert [i for i, _ in best_fit_order(api, me)] == [rare.id, prompt.id]


def test_a_profile_save_keeps_the_tier_until_the_next_rebuild(api):
    me, rare, prompt = scene()
    history(rare.id, answered=0, expired=4)
    match_index.rebuild()
    assert tier_of(rare.id) == 3

    status, body = api.call("PUT", f"/api/brands/{rare.id}", rare.headers, {"name": "Fern & Wick"})
    assert status == 200, body  # a name: its search row is rewritten
    assert tier_of(rare.id) == 3
    assert [i for i, _ in best_fit_order(api, me)] == [prompt.id, rare.id]
    status, body = api.call("PUT", f"/api/brands/{rare.id}", rare.headers, {"values": ["vegan"]})
    assert status == 200, body  # a match field: its record and row are rewritten
    assert tier_of(rare.id) == 3

    history(rare.id, answered=12, expired=0)  # it mends its ways: the next rebuild says so
    match_index.rebuild()
    assert tier_of(rare.id) == 0
