"""An evaluation world for matching, written from a model of how brand partnerships are decided,
not from the engine's scoring rules (see docs/decisions.md, "Held-out matching evaluation").

Every brand has a hidden truth: the markets it sells to (a home market weighs most), an audience
(age centre and spread, share of women, interests over a few topics), an audience size
(followers) and a headcount that tracks it only loosely, a goal that decides how it judges a
partner's size (grow: wants bigger partners; peer: wants its own size; open: anything but
tiny), a category with a niche and a price tier (a competitor is the same category, niche and
tier), the formats it can run, a few values, and how choosy it is (some rarely say yes).

Brand A says yes to B when A's utility of B clears A's own threshold:
    utility = coverage of A's markets by B ^ 0.7
            x audience likeness (age 0.35, gender 0.2, interests 0.45)
            x size as A's goal judges it
            x (0 without a format both can run; a little more for each extra shared one)
            x competition (same category, niche and tier: none; same niche, next tier: 0.5)
            x (0.85 + 0.15 x shared values)
            + a pair's own noise.
A true fit is mutual: both say yes.

Tandem sees only public profiles made from that truth (category, niche, price tier, company size
from headcount, audience size band from followers, countries, age bands, genders, kinds, values), where a
share of brands tick every kind and most values, and a `noise` share of fields is left empty or
filled with something else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tandem.domain import matching
from tandem.domain.matching import Profile

MARKETS = ("GB", "US", "IE", "FR", "DE", "NL", "AU", "CA", "ES", "IT")
MARKET_POPULARITY = np.array([0.26, 0.24, 0.05, 0.08, 0.09, 0.05, 0.07, 0.07, 0.05, 0.04])
CATEGORIES = matching.CATEGORIES
CATEGORY_SHARE = np.array([0.16, 0.12, 0.12, 0.14, 0.1, 0.06, 0.05, 0.06, 0.05, 0.05, 0.05, 0.04])
AGE_BANDS = ("18-24", "25-34", "35-44", "45-54", "55+")
AGE_EDGES = ((18, 24), (25, 34), (35, 44), (45, 54), (55, 90))
KINDS = matching.COLLAB_KINDS
VALUES = matching.VALUES
TOPICS = 6
GROW, PEER, OPEN = 0, 1, 2

# Each category leans to a few interest topics (its customers' interests); structural, the same
# in every world. Women's share leans by category too.
_CATEGORY_TOPICS = np.random.default_rng(12345).dirichlet(np.full(TOPICS, 0.5), size=len(CATEGORIES))
_CATEGORY_WOMEN = np.array([0.55, 0.85, 0.6, 0.7, 0.7, 0.7, 0.55, 0.4, 0.3, 0.55, 0.45, 0.65])
# Bigger brands can run the heavier formats (events, pop-ups, co-branded products, sampling).
_HEAVY = np.array([k in ("events", "pop-ups", "co-branded products", "sampling") for k in KINDS])


@dataclass
class World:
    n: int
    cat: np.ndarray
    niche: np.ndarray
    tier: np.ndarray
    market_w: np.ndarray  # n x markets, rows sum to 1
    age_mu: np.ndarray
    age_sd: np.ndarray
    women: np.ndarray
    topics: np.ndarray  # n x TOPICS, unit rows
    followers: np.ndarray  # log10
    headcount: np.ndarray  # log10
    goal: np.ndarray
    formats: np.ndarray  # n x kinds (bool)
    values: np.ndarray  # n x values (bool)
    threshold: np.ndarray
    pair_noise_seed: int
    observed: list[Profile]

    def utility(self, judges: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """How much each judge wants its target (element by element)."""
        j, t = judges, targets
        coverage = ((self.market_w[t] > 0) * self.market_w[j]).sum(axis=1)
        var = self.age_sd[j] ** 2 + self.age_sd[t] ** 2
        age = np.sqrt(2 * self.age_sd[j] * self.age_sd[t] / var) * np.exp(
            -((self.age_mu[j] - self.age_mu[t]) ** 2) / (4 * var)
        )
        gender = 1 - np.abs(self.women[j] - self.women[t])
        interest = (self.topics[t] * self.topics[j]).sum(axis=1)
        audience = 0.35 * age + 0.2 * gender + 0.45 * interest
        d = self.followers[t] - self.followers[j]
        goal = self.goal[j]
        size = np.where(
            goal == GROW,
            1 / (1 + np.exp(-3 * (d + 0.3))),
            np.where(goal == PEER, np.exp(-(d**2) / 0.6), 1 / (1 + np.exp(-3 * (d + 1.2)))),
        )
        shared_formats = (self.formats[t] & self.formats[j]).sum(axis=1)
        formats = np.where(shared_formats > 0, 0.9 + 0.05 * np.minimum(shared_formats, 3), 0.0)
        same_niche = (self.cat[t] == self.cat[j]) & (self.niche[t] == self.niche[j])
        tier_gap = np.abs(self.tier[t] - self.tier[j])
        compete = np.where(
            same_niche & (tier_gap == 0), 0.0, np.where(same_niche & (tier_gap == 1), 0.5, 1.0)
        )
        n_values = np.maximum(self.values[j].sum(axis=1), 1)
        values = 0.85 + 0.15 * (self.values[t] & self.values[j]).sum(axis=1) / n_values
        u = coverage**0.7 * audience * size * formats * compete * values
        return u + 0.04 * _pair_normal(self.pair_noise_seed, j, t)

    def accepts(self, a: int) -> np.ndarray:
        """Whether `a` says yes to each brand."""
        everyone = np.arange(self.n)
        return self.utility(np.full(self.n, a), everyone) > self.threshold[a]

    def wanted_by(self, a: int) -> np.ndarray:
        """Whether each brand says yes to `a`."""
        everyone = np.arange(self.n)
        return self.utility(everyone, np.full(self.n, a)) > self.threshold

    def mutual(self, a: int) -> np.ndarray:
        """True mutual fits of brand `a` (itself excluded)."""
        out = self.accepts(a) & self.wanted_by(a)
        out[a] = False
        return out


def _pair_normal(seed: int, judges: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """A standard normal for each ordered pair, the same every time it is asked (splitmix64)."""
    with np.errstate(over="ignore"):
        z = judges.astype(np.uint64) * np.uint64(1_000_003) + targets.astype(np.uint64)
        z = z + np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)
        z ^= z >> np.uint64(30)
        z *= np.uint64(0xBF58476D1CE4E5B9)
        z ^= z >> np.uint64(27)
        z *= np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    u1 = ((z >> np.uint64(32)).astype(np.float64) + 0.5) / 2**32
    u2 = ((z & np.uint64(0xFFFFFFFF)).astype(np.float64) + 0.5) / 2**32
    return np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)


def build(seed: int, n: int, noise: float) -> World:
    rng = np.random.default_rng(seed)
    cat = rng.choice(len(CATEGORIES), size=n, p=CATEGORY_SHARE / CATEGORY_SHARE.sum())
    niche = rng.integers(0, 4, n)
    tier = rng.choice(3, size=n, p=[0.35, 0.45, 0.2])
    followers = rng.normal(3.9, 0.8, n)  # log10 followers: 8K median
    headcount = 0.66 * (followers - 3.9) / 0.8 + np.sqrt(1 - 0.66**2) * rng.normal(0, 1, n)
    headcount = 1.2 + 0.55 * headcount  # log10 people: 16 median
    market_w = np.zeros((n, len(MARKETS)))
    home = rng.choice(len(MARKETS), size=n, p=MARKET_POPULARITY)
    extra = np.minimum(rng.geometric(0.45, n) - 1 + (followers > 4.6), len(MARKETS) - 1)
    for i in range(n):
        market_w[i, home[i]] = 1.0
        others = [m for m in rng.choice(len(MARKETS), size=len(MARKETS), replace=False, p=MARKET_POPULARITY)]
        others = [m for m in others if m != home[i]][: extra[i]]
        if others:
            market_w[i, others] = 0.5 / len(others)
            market_w[i, home[i]] = 0.5 + (0.0 if len(others) > 1 else 0.0)
    market_w /= market_w.sum(axis=1, keepdims=True)
    age_mu = np.clip(rng.normal(36, 10, n), 19, 68)
    age_sd = rng.uniform(4, 11, n)
    women = np.clip(rng.beta(4, 4, n) + _CATEGORY_WOMEN[cat] - 0.5, 0.02, 0.98)
    topics = np.array([rng.dirichlet(1 + 8 * _CATEGORY_TOPICS[c]) for c in cat])
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    goal = rng.choice(3, size=n, p=[0.45, 0.35, 0.2])
    formats = np.zeros((n, len(KINDS)), dtype=bool)
    for i in range(n):
        weights = np.where(_HEAVY, np.exp(followers[i] - 4.5), 1.0)
        k = rng.integers(1, 5)
        formats[i, rng.choice(len(KINDS), size=k, replace=False, p=weights / weights.sum())] = True
    values = np.zeros((n, len(VALUES)), dtype=bool)
    for i in range(n):
        values[i, rng.choice(len(VALUES), size=rng.integers(1, 4), replace=False)] = True
    choosy = rng.random(n) < 0.15  # brands that rarely say yes
    threshold = np.where(choosy, 0.5, 0.33) + rng.normal(0, 0.03, n)
    world = World(
        n, cat, niche, tier, market_w, age_mu, age_sd, women, topics, followers, headcount, goal, formats,
        values, threshold, seed * 7919 + 1, [],
    )  # fmt: skip
    world.observed = [_public(world, i, rng, noise) for i in range(n)]
    # Niche and price tier from their own stream, so every other field is what it was before
    # they were shown (the figures of docs/decisions.md stay comparable).
    extra = np.random.default_rng(seed + 5_000_003)
    world.observed = [_niche_and_tier(world, i, p, extra, noise) for i, p in enumerate(world.observed)]
    return world


def _niche_and_tier(w: World, i: int, shown: Profile, rng: np.random.Generator, noise: float) -> Profile:
    """The profile's niche (its hidden niche's name in the category it shows) and price tier,
    each left empty (noise / 2) or another value (noise / 2), as the other fields."""
    niches = matching.NICHES.get(shown.category, ())
    niche = niches[w.niche[i]] if w.niche[i] < len(niches) else ""
    tier = matching.PRICE_TIERS[w.tier[i]]
    roll = rng.random()
    if roll < noise / 2:
        niche = ""
    elif roll < noise and niches:
        niche = str(rng.choice(niches))
    roll = rng.random()
    if roll < noise / 2:
        tier = ""
    elif roll < noise:
        tier = str(rng.choice(matching.PRICE_TIERS))
    return replace(shown, niche=niche, price_tier=tier)


def _size_band(log_people: float) -> str:
    people = 10**log_people
    return "1-10" if people <= 10 else "11-50" if people <= 50 else "51-200" if people <= 200 else "200+"


def _audience_band(log_followers: float) -> str:
    bands = matching.AUDIENCE_SIZES
    return bands[int(np.clip(np.floor(log_followers) - 2, 0, len(bands) - 1))]


def _public(w: World, i: int, rng: np.random.Generator, noise: float) -> Profile:
    """What brand i fills in: its truth, rounded to the profile's fields, with noise."""
    countries = {MARKETS[m] for m in np.flatnonzero(w.market_w[i] > 0)}
    low, high = w.age_mu[i] - w.age_sd[i], w.age_mu[i] + w.age_sd[i]
    ages = {band for band, (a, b) in zip(AGE_BANDS, AGE_EDGES, strict=True) if a <= high and b >= low}
    genders = set()
    if w.women[i] > 0.3:
        genders.add("women")
    if w.women[i] < 0.7:
        genders.add("men")
    kinds = {KINDS[k] for k in np.flatnonzero(w.formats[i])}
    values = {VALUES[v] for v in np.flatnonzero(w.values[i])}
    if rng.random() < 0.3:  # ticks every option it is offered
        kinds = set(KINDS)
        values |= set(rng.choice(VALUES, size=8, replace=False))
    fields = {
        "countries": (countries, MARKETS),
        "age_bands": (ages, AGE_BANDS),
        "genders": (genders, ("women", "men")),
        "collab_kinds": (kinds, KINDS),
        "values": (values, VALUES),
    }
    out: dict = {}
    for name, (truth, vocab) in fields.items():
        roll = rng.random()
        if roll < noise / 2:
            out[name] = frozenset()  # left empty
        elif roll < noise:
            out[name] = frozenset(
                rng.choice(vocab, size=min(len(vocab), int(rng.integers(1, 4))), replace=False)
            )
        else:
            out[name] = frozenset(truth)
    size, audience = _size_band(w.headcount[i]), _audience_band(w.followers[i])
    if rng.random() < noise:
        size = "" if rng.random() < 0.5 else str(rng.choice(matching.COMPANY_SIZES))
    if rng.random() < noise:
        audience = "" if rng.random() < 0.5 else str(rng.choice(matching.AUDIENCE_SIZES))
    category = CATEGORIES[w.cat[i]]
    if rng.random() < noise / 4:
        category = str(rng.choice(CATEGORIES))
    return Profile(
        brand_id=i + 1,
        account_id=f"acct-{i + 1}",
        category=category,
        company_size=size,
        audience_size=audience,
        **out,
    )
