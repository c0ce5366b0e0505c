"""What both worlds share: the form's vocabularies, the base world (wants, mutual, habits, base
rate calibration), profile assembly with realistic empties, and profile noise.

A world's truth is latent; a subclass gives `_logits(a, b)`: how much brand a wants brand b, for
index arrays a and b that broadcast (a row block against every brand, or pairs). It is computed
with element-wise numpy operations only (no matrix products), so a pair's value is bit for bit
the same whichever block computes it: `mutual` is exactly symmetric.

Three independent random streams per seed: the latent truth, the clean profiles, the noise. So
for one seed the truth and the clean profiles are the same at every noise level, noise 0 gives
the clean profiles, and a field noisy at 0.2 is noisy at 0.4 too.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tandem.domain import brand_profile as bp

CATEGORIES = bp.CATEGORIES
NICHES = bp.NICHES
PRICE_TIERS = bp.PRICE_TIERS
COMPANY_SIZES = bp.COMPANY_SIZES
AUDIENCE_SIZES = bp.AUDIENCE_SIZES
VALUES = bp.VALUES
COLLAB_KINDS = bp.COLLAB_KINDS
AGE_BANDS = bp.AGE_BANDS
GENDERS = bp.GENDERS
SOCIAL_NETWORKS = bp.SOCIAL_NETWORKS
ALL_COUNTRIES = tuple(sorted(bp.COUNTRY_CODES))

# Where the members are (both worlds): code, weight.
COUNTRY_WEIGHTS = (
    ("GB", 22), ("US", 18), ("DE", 7), ("FR", 6), ("NL", 5), ("IE", 4), ("ES", 4), ("IT", 4),
    ("SE", 3), ("DK", 3), ("NO", 2), ("FI", 1.5), ("BE", 2), ("CH", 2), ("AT", 1.5), ("PT", 1.5),
    ("PL", 1.5), ("AU", 5), ("NZ", 1.5), ("CA", 4), ("JP", 1), ("SG", 1), ("AE", 1), ("ZA", 1),
)  # fmt: skip
POOL = tuple(code for code, _ in COUNTRY_WEIGHTS)
POOL_P = np.array([w for _, w in COUNTRY_WEIGHTS]) / sum(w for _, w in COUNTRY_WEIGHTS)

# The fields noise acts on (API names; audience.* inside `audience`).
NOISY_FIELDS = (
    "category", "niche", "priceTier", "companySize", "audienceSize", "values", "collabKinds",
    "audience.ageBands", "audience.genders", "audience.countries",
)  # fmt: skip

# Share of profiles that leave a field empty at noise 0.
EMPTY = {
    "audienceSize": 0.30, "niche": 0.30, "priceTier": 0.30, "companySize": 0.15, "values": 0.15,
    "collabKinds": 0.10, "audience.ageBands": 0.20, "audience.genders": 0.25,
    "audience.countries": 0.10, "description": 0.10, "website": 0.15,
}  # fmt: skip

_ADJECTIVES = (
    "Wild", "Little", "Golden", "Quiet", "Bright", "Northern", "Honest", "Salt", "Copper",
    "Velvet", "Humble", "Bold", "Sunny", "Fern", "Maple", "Urban", "Coastal", "Meadow", "Iron",
    "Paper", "Silver", "Juniper", "Oak", "Clover", "Lunar", "Rosy", "Tidal", "Brave",
)  # fmt: skip
_NOUNS = (
    "Fox", "Harbour", "Bee", "Owl", "Pine", "River", "Kettle", "Lantern", "Finch", "Moth",
    "Stone", "Thread", "Orchard", "Wolf", "Hare", "Cloud", "Tide", "Ember", "Acorn", "Heron",
    "Compass", "Garden", "Loom", "Pebble", "Swift", "Bloom",
)  # fmt: skip
_SUFFIXES = ("", "", "", " Co", " & Co", " Studio", " Lab", " Goods", " Supply", " Collective")


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))


def _splitmix(x: np.ndarray) -> np.ndarray:
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def pair_uniform(seed: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A uniform in [0, 1) per unordered pair {a, b}: the same for (a, b) and (b, a)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64))
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    salt = _splitmix(np.array([seed % 2**63], dtype=np.uint64))[0]
    key = _splitmix(((lo << np.uint64(32)) | hi) ^ salt)
    return (key >> np.uint64(11)).astype(np.float64) * 2.0**-53


def pick_subset(
    rng: np.random.Generator, options: tuple[str, ...], k: int, p: np.ndarray | None = None
) -> list[str]:
    k = max(0, min(k, len(options)))
    chosen = set(rng.choice(len(options), size=k, replace=False, p=p).tolist())
    return [options[i] for i in range(len(options)) if i in chosen]


def leaky_subset(
    rng: np.random.Generator, options: tuple[str, ...], preferred: tuple[str, ...], k: int, leak: float
) -> list[str]:
    """k options, each one of `preferred` with probability `leak`, else any option."""
    chosen: set[str] = set()
    for _ in range(8 * k):
        if len(chosen) >= k:
            break
        pool = preferred if rng.random() < leak else options
        chosen.add(pool[rng.integers(len(pool))])
    return [o for o in options if o in chosen]


class World:
    """The protocol's world object; subclasses set the latent arrays and `_logits`."""

    name = "world"
    description = ""
    target_rate = 0.01  # share of pairs that are true mutual fits

    def __init__(self, seed: int, n: int, noise: float) -> None:
        if n < 2:
            raise ValueError("A world needs at least two brands")
        if not 0.0 <= noise <= 1.0:
            raise ValueError("noise is a share, from 0 to 1")
        self.seed, self.n, self.noise = int(seed), int(n), float(noise)
        self.offset = 0.0
        self.profiles: list[dict[str, Any]] = []
        self._habits: dict[str, np.ndarray] = {}

    # ------------------------------------------------------------ truth

    def _logits(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _p(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return sigmoid(self._logits(a, b) + self.offset)

    def _rows(self, rows: Any) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        if rows.size and (rows.min() < 0 or rows.max() >= self.n):
            raise IndexError("rows must be brand indexes 0..n-1")
        return rows

    def wants(self, rows: Any) -> np.ndarray:
        """P(brand r, shown brand j, would want to partner with j): (len(rows), n), diagonal 0."""
        rows = self._rows(rows)
        cols = np.arange(self.n)
        w = self._p(rows[:, None], cols[None, :])
        w[rows[:, None] == cols[None, :]] = 0.0
        return w

    def mutual_probability(self, rows: Any) -> np.ndarray:
        """P(both want each other) = wants[a, b] * wants[b, a] (the oracle's score), diagonal 0."""
        rows = self._rows(rows)
        cols = np.arange(self.n)
        p = self._p(rows[:, None], cols[None, :]) * self._p(cols[None, :], rows[:, None])
        p[rows[:, None] == cols[None, :]] = 0.0
        return p

    def mutual(self, rows: Any) -> np.ndarray:
        """The true mutual fits: each pair is one draw (fixed by the seed) against its probability."""
        rows = self._rows(rows)
        u = pair_uniform(self.seed, rows[:, None], np.arange(self.n)[None, :])
        return u < self.mutual_probability(rows)

    def _calibrate(self, rng: np.random.Generator) -> None:
        """Set the global offset so that the mean mutual probability is `target_rate`."""
        samples = min(200_000, max(50_000, self.n * self.n // 2))
        a = rng.integers(self.n, size=samples)
        b = (a + 1 + rng.integers(self.n - 1, size=samples)) % self.n
        fwd, bwd = self._logits(a, b), self._logits(b, a)
        lo, hi = -20.0, 10.0
        for _ in range(40):
            mid = (lo + hi) / 2
            rate = float(np.mean(sigmoid(fwd + mid) * sigmoid(bwd + mid)))
            lo, hi = (mid, hi) if rate < self.target_rate else (lo, mid)
        self.offset = (lo + hi) / 2

    # ------------------------------------------------------------ behaviour

    def habits(self, i: int) -> dict[str, Any]:
        h = self._habits
        return {
            "sessions_per_week": float(h["sessions_per_week"][i]),
            "cards_looked_at": int(h["cards_looked_at"][i]),
            "credits_per_month": int(h["credits_per_month"][i]),
            "answer_rate": float(h["answer_rate"][i]),
            "position_bias": float(h["position_bias"][i]),
        }

    def _set_habits(self, rng: np.random.Generator, engagement: np.ndarray, answer_shift: np.ndarray) -> None:
        """`engagement` (about N(0, 1)) raises sessions and cards; `answer_shift` moves the answer rate."""
        n = self.n
        sessions = np.exp(np.log(1.5) + 0.6 * engagement + rng.normal(0, 0.5, n))
        cards = np.clip(np.round(np.exp(np.log(12) + 0.3 * engagement + rng.normal(0, 0.45, n))), 3, 60)
        credits = np.where(rng.random(n) < 0.72, 6, 0)
        answer = rng.beta(4.0, 2.0, n) + answer_shift
        never = rng.random(n) < 0.12  # members who hardly ever answer
        answer = np.where(never, rng.uniform(0.0, 0.15, n), answer)
        self._habits = {
            "sessions_per_week": np.round(np.clip(sessions, 0.1, 14.0), 2),
            "cards_looked_at": cards.astype(np.int64),
            "credits_per_month": credits.astype(np.int64),
            "answer_rate": np.round(np.clip(answer, 0.0, 1.0), 3),
            "position_bias": np.round(rng.uniform(0.72, 0.95, n), 3),
        }


# ---------------------------------------------------------------- profiles


def brand_name(rng: np.random.Generator) -> str:
    adjective = _ADJECTIVES[rng.integers(len(_ADJECTIVES))]
    noun = _NOUNS[rng.integers(len(_NOUNS))]
    return f"{adjective} {noun}{_SUFFIXES[rng.integers(len(_SUFFIXES))]}"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def profile(
    rng: np.random.Generator,
    *,
    category: str,
    niche: str,
    tier: str,
    company_size: str,
    audience_size: str,
    values: list[str],
    kinds: list[str],
    ages: list[str],
    genders: list[str],
    countries: list[str],
    description: str,
) -> dict[str, Any]:
    """The brand form's payload for what a member chose to write, with realistic empties."""

    def kept(field: str, value: Any) -> Any:
        empty: Any = "" if isinstance(value, str) else []
        return empty if rng.random() < EMPTY[field] else value

    name = brand_name(rng)
    slug = f"{_slug(name)}-{rng.integers(100, 1000)}"
    social = {network: None for network in SOCIAL_NETWORKS}
    for network, share in zip(SOCIAL_NETWORKS, (0.7, 0.35, 0.3, 0.15, 0.1, 0.08), strict=True):
        if rng.random() < share:
            social[network] = f"https://{network}.com/{slug}"
    phone = f"+44 20 7946 {rng.integers(1000, 10000)}" if rng.random() < 0.3 else None
    return {
        "name": name,
        "website": kept("website", f"https://{slug}.example.com") or None,
        "description": kept("description", description),
        "category": category,
        "companySize": kept("companySize", company_size),
        "audienceSize": kept("audienceSize", audience_size),
        "niche": kept("niche", niche),
        "priceTier": kept("priceTier", tier),
        "audience": {
            "ageBands": kept("audience.ageBands", ages),
            "genders": kept("audience.genders", genders),
            "countries": kept("audience.countries", countries),
        },
        "values": kept("values", values),
        "collabKinds": kept("collabKinds", kinds),
        "social": social,
        "contact": {
            "name": "Sam Taylor" if rng.random() < 0.5 else None,
            "email": f"hello@{slug}.example.com" if rng.random() < 0.6 else None,
            "phone": phone,
        },
        "hideName": bool(rng.random() < 0.1),
    }


def field_value(p: dict[str, Any], field: str) -> Any:
    head, _, tail = field.partition(".")
    return p[head][tail] if tail else p[head]


def _set(p: dict[str, Any], field: str, value: Any) -> None:
    head, _, tail = field.partition(".")
    if tail:
        p[head][tail] = value
    else:
        p[head] = value


def _other(rng: np.random.Generator, options: tuple[str, ...], current: str) -> str:
    rest = [o for o in options if o != current]
    return rest[rng.integers(len(rest))] if rest else current


def _band(rng: np.random.Generator, options: tuple[str, ...], current: str) -> str:
    """Mostly one band up or down (a member's guess), sometimes any other band."""
    if rng.random() < 0.3:
        return _other(rng, options, current)
    i = options.index(current) + (1 if rng.random() < 0.5 else -1)
    if not 0 <= i < len(options):
        i = options.index(current) + (1 if i < 0 else -1)
    return options[i]


def _swap(
    rng: np.random.Generator,
    options: tuple[str, ...],
    current: list[str],
    pool: tuple[str, ...] | None = None,
) -> list[str]:
    """Replace one chosen item by one not chosen (sometimes also drop or add one), or pick anew."""
    pool = pool or options
    order = {o: i for i, o in enumerate(options)}
    before = sorted(current, key=lambda o: order.get(o, len(order)))
    for _ in range(20):
        chosen = set(current)
        if rng.random() < 0.25:
            chosen = set(pick_subset(rng, pool, max(1, len(current))))
        else:
            unchosen = [o for o in pool if o not in chosen]
            if unchosen:
                chosen.discard(sorted(chosen)[rng.integers(len(chosen))])
                chosen.add(unchosen[rng.integers(len(unchosen))])
            roll = rng.random()
            if roll < 0.25 and len(chosen) > 1:
                chosen.discard(sorted(chosen)[rng.integers(len(chosen))])
            elif roll < 0.5:
                unchosen = [o for o in pool if o not in chosen]
                if unchosen:
                    chosen.add(unchosen[rng.integers(len(unchosen))])
        out = sorted(chosen, key=lambda o: order.get(o, len(order)))
        if out != before:
            return out
    return before


def _ages(rng: np.random.Generator, current: list[str]) -> list[str]:
    idx = [AGE_BANDS.index(a) for a in current]
    shift = 1 if rng.random() < 0.5 else -1
    if min(idx) + shift < 0 or max(idx) + shift >= len(AGE_BANDS):
        shift = -shift
    moved = sorted({min(max(i + shift, 0), len(AGE_BANDS) - 1) for i in idx})
    return [AGE_BANDS[i] for i in moved]


def add_noise(
    rng: np.random.Generator,
    profiles: list[dict[str, Any]],
    noise: float,
    country_pool: tuple[str, ...] = POOL,
) -> None:
    """At rate `noise`, each filled field of NOISY_FIELDS is replaced or perturbed (in place).

    The draws that decide which fields are noisy do not depend on `noise`, so a field noisy at
    0.2 is noisy at 0.4 too, and noise 0 changes nothing."""
    hits = rng.random((len(profiles), len(NOISY_FIELDS))) < noise
    for p, row in zip(profiles, hits, strict=True):
        if not row.any():
            continue
        fix = np.random.default_rng(rng.integers(2**63))
        for field, hit in zip(NOISY_FIELDS, row, strict=True):
            value = field_value(p, field)
            if not hit or not value:
                continue
            if field == "category":
                p["category"] = _other(fix, CATEGORIES, value)
                if p["niche"]:
                    niches = NICHES[p["category"]]
                    p["niche"] = niches[fix.integers(len(niches))]
            elif field == "niche":
                p["niche"] = _other(fix, NICHES[p["category"]], value)
            elif field == "priceTier":
                p["priceTier"] = _band(fix, PRICE_TIERS, value)
            elif field == "companySize":
                p["companySize"] = _band(fix, COMPANY_SIZES, value)
            elif field == "audienceSize":
                p["audienceSize"] = _band(fix, AUDIENCE_SIZES, value)
            elif field == "values":
                p["values"] = _swap(fix, VALUES, value)
            elif field == "collabKinds":
                p["collabKinds"] = _swap(fix, COLLAB_KINDS, value)
            elif field == "audience.ageBands":
                _set(p, field, _ages(fix, value) if fix.random() < 0.7 else _swap(fix, AGE_BANDS, value))
            elif field == "audience.genders":
                _set(p, field, _swap(fix, GENDERS, value))
            elif field == "audience.countries":
                pool = country_pool if fix.random() < 0.8 else ALL_COUNTRIES
                _set(p, field, sorted(_swap(fix, ALL_COUNTRIES, value, pool)))
