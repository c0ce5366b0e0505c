"""The fresh prior (issue 37, h50-37): P(mutual fit) from public profiles alone, fitted offline on
our tuning world (tests/bench/fit_prior.py) and committed beside the training module; how a
fresh deployment and the learned blend rank by it."""

from __future__ import annotations

import json

import numpy as np

from tandem.domain.matching import Packed, Profile, pack, score_packed, training


def _profile(i: int, countries=("GB",), kinds=("giveaways",), ages=("25-34",), category="home") -> Profile:
    return Profile(
        i,
        f"acct{i}",
        category=category,
        company_size="11-50",
        audience_size="10K-100K",
        values=frozenset({"vegan"}),
        collab_kinds=frozenset(kinds),
        countries=frozenset(countries),
        age_bands=frozenset(ages),
        genders=frozenset({"women"}),
    )


def test_the_committed_prior_is_over_todays_pair_features():
    prior = training.prior_model()
    assert prior is not None, "tandem/domain/matching/prior_model.json missing or over other features"
    assert prior["features"] == training.N_FEATURES == len(prior["weights"])
    assert 0 < prior["blend"] <= 1
    assert "tests.bench.worlds.ours" in prior["fitted_on"]  # the tuning world, never a report world


def test_a_prior_over_other_features_is_not_used(tmp_path, monkeypatch):
    stale = {**training.prior_model(), "features": training.N_FEATURES - 1}
    path = tmp_path / "prior_model.json"
    path.write_text(json.dumps(stale))
    monkeypatch.setattr(training, "PRIOR_FILE", path)
    training.prior_model.cache_clear()
    try:
        assert training.prior_model() is None
        me, cands = pack(_profile(1)), Packed.from_bytes([pack(_profile(2, category="beauty"))])
        rules = score_packed(me, cands).score
        assert training.rank_scores(me, cands, rules, None) is rules  # the rules alone
    finally:
        monkeypatch.undo()
        training.prior_model.cache_clear()


def test_the_prior_is_the_same_from_either_side_and_prefers_a_pair_with_more_in_common():
    prior = training.prior_model()
    a = pack(_profile(1, countries=("GB", "US"), kinds=("giveaways", "events"), ages=("25-34", "35-44")))
    near = pack(
        _profile(2, countries=("GB", "US"), kinds=("giveaways", "events"), ages=("25-34",), category="beauty")
    )
    far = pack(_profile(3, countries=("FR",), kinds=("bundles",), ages=("55+",), category="beauty"))
    both = training.prior_score(a, Packed.from_bytes([near, far]), prior)
    assert both[0] > both[1]
    back = training.prior_score(near, Packed.from_bytes([a]), prior)
    assert abs(float(back[0]) - float(both[0])) < 1e-6


def test_the_rules_zeros_stay_zero_and_a_learned_model_blends_on_the_fresh_value():
    me = pack(_profile(1))
    cands = Packed.from_bytes(
        [pack(_profile(i, category=("beauty", "fashion", "home")[i % 3])) for i in range(2, 40)]
        + [pack(Profile(40, "acct1", "beauty"))]  # my own account's brand: never suggested
    )
    rules = score_packed(me, cands, exclude=[5]).score
    fresh = training.rank_scores(me, cands, rules, None)
    assert np.all((fresh > 0) == (rules > 0)) and fresh[-1] == 0
    model = {
        "version": training.MODEL_VERSION,
        "accept": [0.01] * training.N_FEATURES + [0.0],
        "evidence": training.BLEND_HALF,
    }
    w = training.blend_weight(model)
    learned = training.learned_score(me, cands, model)
    expected = np.power(np.maximum(fresh, 1e-6), 1 - w) * np.power(learned, w)
    blended = training.rank_scores(me, cands, rules, model)
    assert np.allclose(blended[rules > 0], expected[rules > 0], rtol=1e-5) and np.all(
        blended[rules == 0] == 0
    )
