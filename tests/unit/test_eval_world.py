"""The held-out matching bench's own world (tests/bench/eval_world.py), small: what it decides
and what Tandem is shown of it."""

import numpy as np

from tandem.domain import matching
from tests.bench import eval_world


def test_true_fits_are_mutual_rare_and_never_direct_competitors():
    world = eval_world.build(5, 400, 0.0)
    rates = []
    for a in range(0, 400, 20):
        mutual = world.mutual(a)
        assert not mutual[a]
        assert (mutual <= world.accepts(a)).all() and (mutual <= world.wanted_by(a)).all()
        rival = (world.cat == world.cat[a]) & (world.niche == world.niche[a]) & (world.tier == world.tier[a])
        assert not (mutual & rival).any()
        rates.append(mutual.mean())
    assert 0.002 < np.mean(rates) < 0.1
    # The same pair decides the same way every time it is asked.
    assert (world.accepts(3) == world.accepts(3)).all()


def test_profiles_show_the_truth_without_noise_and_lose_fields_with_it():
    clean = eval_world.build(6, 300, 0.0)
    for i in range(0, 300, 30):
        shown = clean.observed[i]
        markets = {eval_world.MARKETS[m] for m in np.flatnonzero(clean.market_w[i] > 0)}
        assert shown.countries == frozenset(markets)
        assert shown.category == eval_world.CATEGORIES[clean.cat[i]]
        assert shown.audience_size and shown.company_size
        assert shown.niche == matching.NICHES[shown.category][clean.niche[i]]
        assert shown.price_tier == matching.PRICE_TIERS[clean.tier[i]]
    noisy = eval_world.build(6, 300, 0.4)
    empty = np.mean([not p.countries for p in noisy.observed])
    assert 0.12 < empty < 0.3  # about half of 40% of fields are left empty
    assert 0.12 < np.mean([not p.niche for p in noisy.observed]) < 0.3  # niche and tier: the same noise
    assert 0.12 < np.mean([not p.price_tier for p in noisy.observed]) < 0.3
