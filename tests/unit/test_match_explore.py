"""Exploration places with logged propensities (issue 37, tandem.domain.matching.explore): which
places, who may fill them, the probability each card had of being shown, and how a run's list
and a view keep it."""

from __future__ import annotations

import base64
import random
from collections import Counter
from datetime import UTC, datetime

import numpy as np

from tandem.domain import matching
from tandem.domain.matching import Profile, Scored, explore, pack
from tandem.services import match_learning, match_runs
from tandem.store.learning import unpack_views
from tandem.store.matches import MatchCard, MatchCards


def _key(item: int) -> int:
    return item


def test_one_place_in_ten_after_the_first_ten_is_drawn_from_the_unsure_with_the_probability_it_logs():
    ranked = list(range(1, 71))  # 70 ranked brands, best first
    unsure = [3, 20, 48, 49, 50, 55, 60, 66]  # 3 and 20 are kept by rank anyway
    shown = Counter()
    runs = 4000
    for seed in range(runs):
        out = explore.fill(ranked, unsure, 50, random.Random(seed), _key)
        assert len(out) == 50 and len({i for i, _ in out}) == 50
        places = [k for k, (_, p) in enumerate(out) if p < 1]
        assert places == [14, 24, 34, 44] == explore.places(50)
        # The other 46 places are the ranking's best 46, in order, each certain to be shown.
        assert [i for i, p in out if p == 1.0] == ranked[:46]
        drawn = [i for i, p in out if p < 1]
        assert set(drawn) <= {48, 49, 50, 55, 60, 66}
        assert {p for _, p in out if p < 1} == {4 / 6}  # 4 places, 6 unsure outside the kept 46
        shown.update(drawn)
    # The propensity is the truth: each unsure brand is shown in 4 / 6 of the runs.
    assert all(abs(shown[i] / runs - 4 / 6) < 0.03 for i in (48, 49, 50, 55, 60, 66))


def test_the_same_seed_draws_the_same_list():
    ranked, unsure = list(range(100)), list(range(50, 100))
    first = explore.fill(ranked, unsure, 50, random.Random("7:run-1"), _key)
    assert first == explore.fill(ranked, unsure, 50, random.Random("7:run-1"), _key)
    assert first != explore.fill(ranked, unsure, 50, random.Random("7:run-2"), _key)
    assert {p for _, p in first if p < 1} == {4 / 50}  # 4 places, the 50 unsure brands 50..99


def test_fewer_unsure_brands_than_places_are_all_shown_and_the_ranking_fills_the_rest():
    ranked = list(range(1, 61))
    out = explore.fill(ranked, [58, 59], 50, random.Random(1), _key)
    assert [p for _, p in out] == [1.0] * 50  # each was certain to be shown
    assert sorted(i for i, _ in out) == sorted([*ranked[:48], 58, 59])
    assert {out[14][0], out[24][0]} == {58, 59}
    assert [i for i, _ in out[:10]] == ranked[:10]  # the first ten are the ranking's


def test_a_short_list_or_no_unsure_brand_explores_nothing():
    assert explore.fill(list(range(30)), list(range(30)), 50, random.Random(1), _key) == [
        (i, 1.0) for i in range(30)
    ]
    assert explore.fill(list(range(80)), [], 50, random.Random(1), _key) == [(i, 1.0) for i in range(50)]


_NICHE = {"home": "decor", "beauty": "skincare", "fashion": "accessories"}


def _profile(i: int, complete: bool) -> Profile:
    category = ("home", "beauty", "fashion")[i % 3]
    return Profile(
        i,
        f"acct{i}",
        category=category,
        company_size="11-50" if complete else "",
        audience_size="10K-100K" if complete else "",
        niche=_NICHE[category] if complete else "",
        price_tier="mid-range" if complete else "",
        values=frozenset({"vegan"}),
        collab_kinds=frozenset({"giveaways"}),
        countries=frozenset({"GB"}),
        age_bands=frozenset({"25-34"}),
        genders=frozenset({"women"}),
    )


def test_unsure_means_an_incomplete_profile_or_a_brand_the_model_has_no_behaviour_of():
    full = Profile(
        5,
        "a",
        "home",
        "11-50",
        "10K-100K",
        frozenset(),
        frozenset({"giveaways"}),
        frozenset({"GB"}),
        frozenset({"25-34"}),
        frozenset({"women"}),
        niche="decor",
        price_tier="mid-range",
    )
    assert not explore.incomplete(full)
    assert explore.unsure(_profile(6, complete=False), None)
    assert not explore.unsure(full, None)  # no model: profiles alone decide
    assert explore.unsure(full, frozenset({1, 2}))  # the model learned nothing of brand 5
    assert not explore.unsure(full, frozenset({5}))


def _entries(me: bytes, n: int) -> list[list]:
    records = [pack(_profile(i, complete=i % 4 == 0)) for i in range(2, n + 2)]  # 1 in 4 complete
    cands = matching.Packed.from_bytes(records)
    return match_runs._top_entries(me, cands, [], [], prior=False)["top"]


def test_a_runs_list_gives_its_exploration_places_to_unsure_brands_and_keeps_their_propensity():
    me = pack(_profile(1, complete=True))
    entries = _entries(me, 300)
    plain, _ = match_runs._choose(matching.unpack(me), entries, set())
    chosen, _ = match_runs._choose(matching.unpack(me), entries, set(), explore_seed="1:run")
    again, _ = match_runs._choose(matching.unpack(me), entries, set(), explore_seed="1:run")
    assert chosen == again and len(chosen) == match_runs.MATCHES_KEPT
    assert all(s.propensity == 1.0 for s in plain)
    explored = [k for k, s in enumerate(chosen) if s.propensity < 1]
    assert explored == explore.places(match_runs.MATCHES_KEPT)
    profiles = {int(e[0]): matching.unpack(base64.b64decode(e[2])) for e in entries}
    assert all(explore.incomplete(profiles[chosen[k].candidate_id]) for k in explored)
    kept = [s.candidate_id for s in chosen if s.propensity == 1.0]
    assert kept == [s.candidate_id for s in plain][: len(kept)]
    # The match list keeps each card's propensity (only an explored card writes one).
    cards = match_runs._cards(chosen, [])
    item = MatchCards.of(1, "run", cards, datetime.now(UTC))
    listed = list(MatchCards.from_raw_data(item.serialize()).listed().values())
    assert np.allclose([c.propensity for c in listed], [s.propensity for s in chosen], atol=1e-4)
    assert listed[0] == MatchCard(chosen[0].candidate_id, chosen[0].score, chosen[0].reasons, 1, 0)


def test_a_view_keeps_each_cards_propensity():
    start = 1_800_000_000  # a fixed, named instant (2027-01-15 08:00 UTC)
    blob = match_learning.views_after(None, [(7, 91, 1.0), (3, 64, 0.1), (4, 60)], at_s=start)
    (view,) = unpack_views(blob)
    assert [c[2] for c in view.cards] == [1.0, round(0.1 * 255) / 255, 1.0]
    records = {11: pack(_profile(11, complete=True))}
    (impression,) = match_learning.kept_impressions({11: blob}, records, start + 60)
    assert [c[2] for c in impression.cards] == [1.0, round(0.1 * 255) / 255, 1.0]


def test_a_scored_card_is_certain_unless_explored():
    assert Scored(1, 0.5).propensity == 1.0


def test_the_first_ten_hold_the_pools_share_of_incomplete_profiles():
    # 50 ranked brands, best first, ten of them incomplete (20%), none in the first ten:
    # 20% of ten places is two.
    ranked = list(range(1, 51))
    empty = {12, 15, 30, 31, 40, 41, 42, 43, 44, 45}

    out = explore.fair_top(ranked, ranked, lambda i: i in empty)
    # 12 and 15, the best incomplete ones after the first ten, move up to places nine and ten;
    # 9 and 10, the lowest complete ones of the first ten, move down just after; nothing else moves.
    assert out[:14] == [1, 2, 3, 4, 5, 6, 7, 8, 12, 15, 9, 10, 11, 13]
    assert out[14:] == [14, *ranked[15:]]

    # The share is the pool's, not the list's: a pool of 20 with 7 incomplete (35%) asks for
    # four of the first ten (3.5, rounded half up); 3 of the first ten is incomplete already.
    pool = list(range(1, 21))
    more = {3, 12, 15, 16, 17, 18, 19}
    out = explore.fair_top(ranked, pool, lambda i: i in more)
    assert out[:10] == [1, 2, 3, 4, 5, 6, 7, 12, 15, 16]
    assert out[10:13] == [8, 9, 10] and sorted(out) == ranked


def test_a_first_ten_that_holds_its_share_is_left_as_ranked():
    ranked = list(range(1, 31))
    assert explore.fair_top(ranked, ranked, lambda i: i in (2, 7)) == ranked  # 2 of 10: 2/30 x 10 -> 1
    assert explore.fair_top(ranked, ranked, lambda _: False) == ranked
    assert explore.fair_top(ranked, [], lambda _: True) == ranked
    # Not enough incomplete profiles after the first ten: the ones there move up, no more.
    assert explore.fair_top(ranked[:12], ranked, lambda i: i > 10) == [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 9, 10]


def test_a_runs_first_ten_give_incomplete_profiles_their_share_of_the_pool():
    # 300 candidates, 1 in 4 complete: the rules rank the complete ones first (they match on the
    # fields the others leave empty), so the first ten would be all complete; the pool is 3 in
    # 4 incomplete, and a run's first ten now hold 8 incomplete profiles (7.5 rounded up).
    me = pack(_profile(1, complete=True))
    entries = _entries(me, 300)
    profiles = {int(e[0]): matching.unpack(base64.b64decode(e[2])) for e in entries}
    by_rank = sorted(entries, key=lambda e: -e[5])
    assert not any(explore.incomplete(profiles[int(e[0])]) for e in by_rank[:10])
    chosen, _ = match_runs._choose(matching.unpack(me), entries, set())
    first_ten = [explore.incomplete(profiles[s.candidate_id]) for s in chosen[:10]]
    pool = [explore.incomplete(p) for p in profiles.values()]
    assert sum(first_ten) == int(10 * sum(pool) / len(pool) + 0.5)
    assert len(chosen) == match_runs.MATCHES_KEPT and len({s.candidate_id for s in chosen}) == len(chosen)
