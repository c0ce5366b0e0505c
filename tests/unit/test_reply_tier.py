"""The reply-time signal as ranking reads it (issue 28): the reply tier of a brand, its factor,
the two bits of the search row that carry it, and a match run's choice with it."""

from __future__ import annotations

import numpy as np
import pytest

from tandem.domain import search_rows as rows
from tandem.domain.matching import Packed, Profile, pack
from tandem.domain.matching.reply import REPLY_WEIGHT, reply_factor, reply_tier, tier_factor, tier_factors


@pytest.mark.parametrize(
    ("received", "answered", "tier"),
    [
        (0, 0, 0),  # no history
        (2, 0, 0),  # fewer than 3 ended requests: too few to say
        (3, 0, 3),
        (10, 10, 0),
        (10, 6, 0),  # the pivot (60%) and up cost nothing
        (10, 5, 1),
        (10, 4, 1),  # each band's floor is in it
        (10, 3, 2),
        (10, 2, 2),
        (10, 1, 3),
        (10, 0, 3),
    ],
)
def test_the_tier_of_an_answer_rate(received, answered, tier):
    assert reply_tier(received, answered) == tier


def test_each_tier_ranks_with_the_reply_factor_of_its_bands_middle():
    assert tier_factor(0) == 1.0
    assert tier_factor(1) == pytest.approx(reply_factor(0.5))
    assert tier_factor(2) == pytest.approx(reply_factor(0.3))
    assert tier_factor(3) == pytest.approx(reply_factor(0.1))
    assert 1.0 > tier_factor(1) > tier_factor(2) > tier_factor(3) > 1.0 - REPLY_WEIGHT
    assert tier_factor(7) == 1.0  # not a tier: no effect
    column = tier_factors(np.array([0, 3, 1, 2], dtype=np.uint8))
    assert column.tolist() == pytest.approx([1.0, tier_factor(3), tier_factor(1), tier_factor(2)])


def test_the_tier_rides_in_two_spare_bits_of_the_row_flags():
    row = rows.row_for(slot=5, created=1, name="Fern", hides_name=True, feature_only=True, reply_tier=2)
    assert row.flags & rows.HIDDEN and row.flags & rows.FEATURE_ONLY
    assert rows.reply_tiers(np.array([row.flags], dtype=np.uint8)).tolist() == [2]
    plain = rows.row_for(slot=6, created=1, name="Moss", hides_name=False, feature_only=False)
    assert rows.reply_tiers(np.array([plain.flags], dtype=np.uint8)).tolist() == [0]  # as rows written before
    blob = rows.encode_rows([row, plain])
    assert [r.flags for r in rows.decode_rows(blob)] == [row.flags, plain.flags]
    # A brand's flags by id (a brand without a row: hidden, tier 0).
    assert rows.reply_tiers(rows.flags_of(np.array([16005, 16006, 16007]), blob, 2000)).tolist() == [2, 0, 0]


def test_a_row_rewritten_by_a_save_keeps_the_tier_it_had():
    blob = rows.encode_rows([rows.row_for(5, 1, "Fern", False, False, reply_tier=3)])
    saved = rows.row_for(5, 1, "Fern & Wick", False, True)
    kept = {r.slot: r for r in rows.decode_rows(rows.splice_row(blob, saved, 5, keep=rows.REPLY_TIER))}[5]
    assert kept.name == "Fern & Wick" and kept.flags & rows.FEATURE_ONLY
    assert (kept.flags & rows.REPLY_TIER) >> rows.REPLY_TIER_SHIFT == 3
    replaced = rows.decode_rows(rows.splice_row(blob, saved, 5))[0]
    assert replaced.flags & rows.REPLY_TIER == 0


def _profile(brand_id: int, account: str) -> Profile:
    return Profile(
        brand_id=brand_id,
        account_id=account,
        category="home",
        collab_kinds=frozenset({"giveaways"}),
        values=frozenset({"vegan"}),
        countries=frozenset({"GB"}),
    )


def test_a_run_puts_the_brand_that_rarely_answers_after_its_twin_and_shows_the_same_fit():
    from tandem.services import match_runs

    me = Profile(
        brand_id=1,
        account_id="me",
        category="food & drink",
        collab_kinds=frozenset({"giveaways"}),
        values=frozenset({"vegan"}),
        countries=frozenset({"GB"}),
    )
    cands = Packed.from_bytes(pack(x) for x in (me, _profile(2, "rare"), _profile(3, "prompt")))
    for tiers, order in (([0, 0, 0], [2, 3]), ([0, 3, 0], [3, 2]), ([0, 1, 0], [3, 2])):
        top = match_runs._top_entries(pack(me), cands, [], [], np.array(tiers, dtype=np.uint8))
        chosen, _ = match_runs._choose(me, top["top"], saved=set())
        assert [s.candidate_id for s in chosen] == order
        assert chosen[0].score == chosen[1].score  # the stored (shown) fit is the plain score
    # Entries of a run started before tiers (three fields) rank as tier 0.
    old = [entry[:3] for entry in top["top"]]
    assert [s.candidate_id for s in match_runs._choose(me, old, saved=set())[0]] == [2, 3]
