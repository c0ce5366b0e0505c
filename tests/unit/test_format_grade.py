"""A format that worked for a brand, as a learned grade (issue 41): bounded, shrunk toward 0
while outcomes are few, never raised by bad outcomes; and how it moves the packed scores."""

import pytest

from tandem.domain.matching import Packed, Profile, pack, score_packed
from tandem.domain.matching.format_grade import MAX_BOOST, add_outcome, format_boost, format_boosts


def test_no_outcomes_no_boost():
    assert format_boost(0, 0) == 0.0
    assert format_boosts(None) == {} and format_boosts({}) == {}


@pytest.mark.parametrize("again", [1, 2, 5, 20, 100, 10_000])
def test_the_boost_is_bounded_and_grows_with_each_good_outcome(again):
    assert 0 < format_boost(again, 0) < MAX_BOOST
    assert format_boost(again + 1, 0) > format_boost(again, 0)


def test_few_outcomes_are_shrunk_toward_zero():
    assert format_boost(1, 0) == pytest.approx(0.06)  # one "would partner again": a fifth of the bound
    assert format_boost(10, 0) == pytest.approx(0.3 * 10 / 14)
    assert format_boost(10_000, 0) == pytest.approx(MAX_BOOST, abs=0.001)


@pytest.mark.parametrize(("again", "not_again"), [(0, 1), (1, 1), (2, 3), (0, 10)])
def test_a_format_with_as_many_bad_outcomes_is_not_raised(again, not_again):
    assert format_boost(again, not_again) == 0.0


def test_bad_outcomes_pull_a_good_format_down():
    assert 0 < format_boost(3, 1) < format_boost(3, 0)


def test_only_formats_of_the_brand_form_with_a_positive_grade_are_kept():
    outcomes = {
        "events": {"again": 2, "not": 0},
        "giveaways": {"again": 0, "not": 2},
        "juggling": {"again": 9},  # not a format of the form
    }
    assert format_boosts(outcomes) == {"events": round(0.3 * 2 / 6, 4)}


def test_an_outcome_adds_to_the_counts_without_changing_the_stored_ones():
    stored = {"events": {"again": 1, "not": 0}}
    assert add_outcome(stored, "events", again=False) == {"events": {"again": 1, "not": 1}}
    assert add_outcome(stored, "giveaways", again=True) == {
        "events": {"again": 1, "not": 0},
        "giveaways": {"again": 1, "not": 0},
    }
    assert stored == {"events": {"again": 1, "not": 0}}


def _p(brand_id, account, kinds):
    return Profile(
        brand_id=brand_id,
        account_id=account,
        category="food & drink",
        company_size="11-50",
        collab_kinds=frozenset(kinds),
        countries=frozenset({"GB"}),
        age_bands=frozenset({"25-34"}),
    )


def test_candidates_offering_a_proven_format_score_higher_others_unchanged():
    me = _p(1, "a", ["events", "giveaways"])
    events, giveaways = _p(2, "b", ["events"]), _p(3, "c", ["giveaways"])
    cands = Packed.from_bytes(pack(x) for x in (events, giveaways))
    plain = score_packed(pack(me), cands).score
    assert plain[0] == pytest.approx(plain[1])  # alike but for the format
    boosted = score_packed(pack(me), cands, format_boosts={"events": 0.2}).score
    assert boosted[0] == pytest.approx(min(plain[0] * 1.2, 1.0), rel=1e-5)
    assert boosted[0] > plain[0] and boosted[1] == pytest.approx(plain[1])
    # the bound holds whatever is passed in, and a score never passes 1
    capped = score_packed(pack(me), cands, format_boosts={"events": 5.0}).score
    assert capped[0] == pytest.approx(min(plain[0] * (1 + MAX_BOOST), 1.0), rel=1e-5) and capped[0] <= 1.0
