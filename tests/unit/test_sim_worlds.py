"""The simulated worlds (tests/bench/worlds) keep the world protocol the platform simulation loads."""

from __future__ import annotations

import numpy as np
import pytest

from tandem.domain.brand_profile import clean_profile
from tests.bench.worlds import WORLDS, load
from tests.bench.worlds._common import NOISY_FIELDS, field_value

N = 300
SEED = 11
FORM_KEYS = {
    "name", "website", "description", "category", "companySize", "audienceSize", "niche", "priceTier",
    "audience", "values", "collabKinds", "social", "contact", "hideName",
}  # fmt: skip


@pytest.fixture(scope="module", params=WORLDS)
def built(request):
    factory = load(request.param)
    return {noise: factory(SEED, N, noise) for noise in (0.0, 0.4)}, factory


@pytest.mark.parametrize("noise", [0.0, 0.4])
def test_every_profile_is_what_the_brand_form_accepts(built, noise):
    world = built[0][noise]
    assert len(world.profiles) == N
    for profile in world.profiles:
        assert set(profile) == FORM_KEYS
        clean_profile(profile, creating=True)  # raises ProfileInvalid on any field the form refuses
    assert world.name and len(world.description) > 100


@pytest.mark.parametrize("noise", [0.0, 0.4])
def test_wants_and_mutual_have_the_protocol_shapes_and_ranges(built, noise):
    world = built[0][noise]
    rows = np.array([0, 5, 299])
    wants = world.wants(rows)
    assert wants.shape == (3, N) and wants.dtype == np.float64
    assert wants.min() >= 0.0 and wants.max() <= 1.0
    assert wants[np.arange(3), rows].tolist() == [0.0, 0.0, 0.0]
    assert wants.max() > 0.3  # some partners are wanted
    everyone = np.arange(N)
    mutual = world.mutual(everyone)
    assert mutual.shape == (N, N) and mutual.dtype == bool
    assert (mutual == mutual.T).all()
    assert not mutual.diagonal().any()
    assert (world.mutual(rows) == mutual[rows]).all()  # a block is the same rows of the whole
    pairs = mutual[np.triu_indices(N, 1)]
    assert 0.005 <= pairs.mean() <= 0.02


def test_a_world_is_the_same_across_calls_and_factories(built):
    worlds, factory = built
    again = factory(SEED, N, 0.4)
    world = worlds[0.4]
    rows = np.arange(0, N, 7)
    assert (world.wants(rows) == world.wants(rows)).all()
    assert (world.wants(rows) == again.wants(rows)).all()
    assert (world.mutual(rows) == again.mutual(rows)).all()
    assert world.profiles == again.profiles
    assert [world.habits(i) for i in range(N)] == [again.habits(i) for i in range(N)]
    other = factory(SEED + 1, N, 0.4)
    assert (other.mutual(rows) != world.mutual(rows)).any()


def test_noise_changes_profiles_not_the_truth(built):
    worlds, factory = built
    clean, noisy = worlds[0.0], worlds[0.4]
    assert (clean.wants(np.arange(N)) == noisy.wants(np.arange(N))).all()

    def changed(a, b):
        filled = changed = 0
        for p, q in zip(a.profiles, b.profiles, strict=True):
            for field in NOISY_FIELDS:
                filled += bool(field_value(p, field))
                changed += field_value(p, field) != field_value(q, field)
        return changed / filled

    assert changed(clean, factory(SEED, N, 0.0)) == 0.0
    assert 0.3 <= changed(clean, noisy) <= 0.5


def test_profiles_leave_fields_empty_as_members_do(built):
    profiles = built[0][0.0].profiles
    for field in ("audienceSize", "niche", "priceTier"):
        assert 0.2 <= np.mean([not p[field] for p in profiles]) <= 0.4
    for field in ("companySize", "values", "collabKinds", "audience.countries"):
        assert 0.03 <= np.mean([not field_value(p, field) for p in profiles]) < 0.25
    assert all(p["category"] and p["name"] for p in profiles)


def test_habits_have_every_key_in_range(built):
    world = built[0][0.0]
    habits = [world.habits(i) for i in range(N)]
    for h in habits:
        assert set(h) == {
            "sessions_per_week",
            "cards_looked_at",
            "credits_per_month",
            "answer_rate",
            "position_bias",
        }
        assert isinstance(h["cards_looked_at"], int) and h["cards_looked_at"] >= 1
        assert h["sessions_per_week"] > 0
        assert h["credits_per_month"] in (0, 6)
        assert 0.0 <= h["answer_rate"] <= 1.0
        assert 0.0 < h["position_bias"] < 1.0
    assert 0.5 < np.mean([h["credits_per_month"] == 6 for h in habits]) < 0.95


def test_load_names_a_factory_or_says_what_is_wrong():
    assert callable(load("tests.bench.worlds.interests"))
    with pytest.raises(ValueError, match="names no factory"):
        load("tests.bench.worlds.interests:nothing")
    with pytest.raises(ValueError, match="package.module:factory"):
        load(":factory")
