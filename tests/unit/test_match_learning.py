"""Learning from outcomes (issue 30): the training rows a request's outcome gives, the model
fitted from them, and how a match run's choice blends it with the rules."""

from __future__ import annotations

import base64
import random

import numpy as np

from tandem.domain import matching
from tandem.domain.matching import Packed, Profile, learned, pack
from tandem.services import match_learning, match_runs


def _profile(i: int, values: tuple[str, ...] = (), countries: tuple[str, ...] = ("GB",)) -> Profile:
    return Profile(
        i,
        f"acct{i}",
        category="home" if i % 2 else "beauty",
        company_size="",
        audience_size="",
        values=frozenset(values),
        collab_kinds=frozenset({"giveaways"}),
        countries=frozenset(countries),
        age_bands=frozenset({"25-34"}),
        genders=frozenset(),
    )


def test_training_rows_label_answers_and_expiries_and_leave_cancels_out():
    me = pack(_profile(1, countries=("GB", "US")))
    yes, no, gone, late = (
        pack(_profile(i, countries=c)) for i, c in ((2, ("GB",)), (3, ("FR",)), (4, ("GB",)), (5, ("US",)))
    )
    x, y = match_learning.training_rows(
        [
            (me, yes, "accepted"),
            (me, no, "declined"),
            (me, gone, "cancelled"),
            (me, late, "expired"),
            (me, b"short", "accepted"),
        ]
    )
    assert y.tolist() == [1.0, 0.0, 0.0]  # accepted, declined, expired; cancelled and a bad record out
    expected = learned.pair_features(me, Packed.from_bytes([yes, no, late]))
    assert np.array_equal(x, expected)
    assert x[0, learned.FEATURES.index("countries_ab")] == 0.5  # half of my markets are theirs


def test_a_model_is_fitted_only_from_enough_answers_and_learns_what_they_say():
    rng = random.Random(5)
    rows = []
    for i in range(2, 302):
        shares = rng.random() < 0.5
        other = pack(_profile(i, countries=("GB",) if shares else ("JP",)))
        said_yes = shares if rng.random() < 0.9 else not shares
        rows.append((pack(_profile(1, countries=("GB",))), other, "accepted" if said_yes else "declined"))
    assert match_learning.fit(rows[:3]) is None  # too few answers: no model, the rules alone
    model = match_learning.fit(rows)
    assert model is not None and model["outcomes"] == 300
    weights = np.asarray(model["weights"])
    assert len(weights) == len(learned.FEATURES) + 1
    assert weights[learned.FEATURES.index("countries_ab")] > 1  # sharing markets: more yeses


def _world():
    rng = random.Random(11)
    values = ("sustainable", "vegan", "local", "family", "premium", "playful")
    profiles = [
        Profile(
            i,
            f"acct{i}",
            category=rng.choice(("home", "beauty", "food", "fashion")),
            company_size="",
            audience_size="",
            values=frozenset(rng.sample(values, rng.randint(0, 2))),
            collab_kinds=frozenset(rng.sample(("giveaways", "events", "bundles"), 2)),
            countries=frozenset(rng.sample(("GB", "US", "IE"), rng.randint(1, 2))),
            age_bands=frozenset({"25-34"}),
            genders=frozenset(),
        )
        for i in range(1, 400)
    ]
    me = Profile(
        999,
        "mine",
        "home",
        "",
        "",
        frozenset({"vegan"}),
        frozenset({"giveaways", "events"}),
        frozenset({"GB"}),
        frozenset({"25-34"}),
        frozenset(),
    )
    return pack(me), Packed.from_bytes(pack(p) for p in profiles)


def _shares_values(record: bytes, chosen) -> float:
    cands = Packed.from_bytes(base64.b64decode(e) for e in chosen)
    return float(learned.pair_features(record, cands)[:10, learned.FEATURES.index("values_ab")].mean())


def test_a_run_blends_a_model_with_enough_history_and_not_one_with_too_little():
    record, cands = _world()
    top = match_runs._top_entries(record, cands, [], [])["top"]
    me = matching.unpack(record)
    weights = [0.0] * (len(learned.FEATURES) + 1)
    weights[learned.FEATURES.index("values_ab")] = 8.0  # "brands that share my values say yes"
    weights[-1] = -4.0

    def order(model):
        chosen, _ = match_runs._choose(me, top, set(), model, record)
        return [s.candidate_id for s in chosen]

    rules = order(None)
    assert order({"weights": weights, "outcomes": learned.BLEND_MIN - 1}) == rules  # too little history
    learned_order = order({"weights": weights, "outcomes": 20_000})
    assert learned_order != rules

    by_id = {e[0]: e[2] for e in top}
    assert _shares_values(record, [by_id[i] for i in learned_order]) > _shares_values(
        record, [by_id[i] for i in rules]
    )


def test_the_blend_is_rules_alone_under_its_minimum_history():
    rules = np.array([0.5, 0.4], dtype=np.float32)
    assert learned.blend_weight(learned.BLEND_MIN - 1) == 0.0
    assert learned.blend(rules, np.array([0.1, 0.9], dtype=np.float32), learned.BLEND_MIN - 1) is rules
    assert 0 < learned.blend_weight(learned.BLEND_MIN) < learned.BLEND_MAX


def test_the_send_and_answer_paths_record_the_pair_without_importing_numpy():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys\n"
        "from tandem.services.requests import sending, transitions\n"
        "from tandem.store.models import Audience, Brand\n"
        "a = Brand('BRAND#1', 'PROFILE', brand_id=1, account_id='x', category='home', values={'vegan'},"
        " audience=Audience(countries={'GB'}))\n"
        "b = Brand('BRAND#2', 'PROFILE', brand_id=2, account_id='y', category='beauty')\n"
        "records = sending.match_learning.pair_records(a, b)\n"
        "assert len(records['from_record']) == len(records['to_record']) == 66\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root / "layers/core/python"), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"
