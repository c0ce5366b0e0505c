"""Our own evaluation world (tests/bench/eval_world.py) behind the simulation world protocol
(issue 37): the TUNING world. Every choice of the learned matching (weights, schedule, caps,
thresholds) is made on this one; the report worlds (interests, geo_size) are written by someone
else and only reported on.

The truth is eval_world's (markets, audience likeness, size against each brand's goal, formats,
competition, choosy brands); the profiles are its public profiles as the brand form fills them
(kinds and values limited to what the form offers). `wants` softens its yes/no into a
probability; `mutual` is its mutual yes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tandem.domain import brand_profile
from tests.bench import eval_world

SOFTNESS = 0.02  # utility points over a brand's threshold at which it is 73% sure


@dataclass
class OurWorld:
    world: eval_world.World
    profiles: list[dict[str, Any]]
    seed: int
    name: str = "ours (eval_world)"
    description: str = (
        "Our own evaluation world (tests/bench/eval_world.py): a brand says yes when its utility "
        "of a partner clears its own threshold: coverage of its markets, audience likeness (age, "
        "gender, interests), partner size against its goal (grow, peer, open), a format both can "
        "run, competition (same niche and tier), shared values; 15% of brands rarely say yes."
    )

    def _u(self, rows: np.ndarray) -> np.ndarray:
        n = self.world.n
        judges = np.repeat(rows, n)
        targets = np.tile(np.arange(n), len(rows))
        return self.world.utility(judges, targets).reshape(len(rows), n)

    def wants(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        z = (self._u(rows) - self.world.threshold[rows][:, None]) / SOFTNESS
        out = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        out[np.arange(len(rows)), rows] = 0.0
        return out

    def mutual(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        return np.array([self.world.mutual(int(r)) for r in rows])

    def habits(self, i: int) -> dict[str, Any]:
        rng = np.random.default_rng([self.seed, 77, i])
        return {
            "sessions_per_week": float(rng.gamma(2.0, 1.0)),
            "cards_looked_at": int(rng.integers(4, 16)),
            "credits_per_month": 6 if rng.random() < 0.8 else 0,
            "answer_rate": float(rng.beta(4, 2)),
            "position_bias": float(rng.uniform(0.75, 0.92)),
        }


def _form(p: Any) -> dict[str, Any]:
    kinds = sorted(k for k in p.collab_kinds if k in brand_profile.COLLAB_KINDS)
    values = sorted(v for v in p.values if v in brand_profile.VALUES)
    out: dict[str, Any] = {
        "name": f"Brand {p.brand_id}",
        "category": p.category,
        "values": values,
        "collabKinds": kinds,
        "audience": {
            "ageBands": sorted(p.age_bands),
            "genders": sorted(p.genders),
            "countries": sorted(p.countries),
        },
    }
    for key, value in (
        ("niche", p.niche),
        ("priceTier", p.price_tier),
        ("companySize", p.company_size),
        ("audienceSize", p.audience_size),
    ):
        if value:
            out[key] = value
    return out


def factory(seed: int, n: int, noise: float) -> OurWorld:
    world = eval_world.build(seed, n, noise)
    return OurWorld(world, [_form(p) for p in world.observed], seed)
