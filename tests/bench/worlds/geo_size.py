"""Geography-and-size world: partnerships driven by shared markets and cities, partner size
against each brand's own goal, and collaboration formats both can do.

Each brand has a home city and country and sells into a set of markets (its home, often its
neighbours, more countries the bigger it is). Brand a wants brand b by the share of a's markets
b also reaches (more for the same home country, and for small, local brands much more for the
same city), by b's size against a's goal (each brand wants partners near its own size or a bit
above, a log-normal window of its own width around its own target), and by format: a pair with
no collaboration kind both can do is nearly hopeless, each further shared kind helps a little.
Bigger brands are pickier; about one in twelve says yes to many. The profile shows the markets
as audience countries (some list only their home, a few one country too many), the city only in
some descriptions, size as audience size and company size bands, and the kinds a brand can do
(some tick one it cannot, or miss one). Category, niche, tier, values, ages and genders are
filled but do not matter here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.bench.worlds import _common as c

CITIES = {
    "GB": ("London", "Manchester", "Bristol", "Edinburgh", "Leeds", "Brighton"),
    "US": ("New York", "Los Angeles", "Austin", "Chicago", "Portland", "Miami"),
    "DE": ("Berlin", "Munich", "Hamburg", "Cologne"),
    "FR": ("Paris", "Lyon", "Marseille", "Bordeaux"),
    "NL": ("Amsterdam", "Rotterdam", "Utrecht"),
    "IE": ("Dublin", "Cork", "Galway"),
    "ES": ("Madrid", "Barcelona", "Valencia"),
    "IT": ("Milan", "Rome", "Turin"),
    "SE": ("Stockholm", "Gothenburg", "Malmö"),
    "DK": ("Copenhagen", "Aarhus"),
    "AU": ("Sydney", "Melbourne", "Brisbane"),
    "CA": ("Toronto", "Vancouver", "Montreal"),
    "NZ": ("Auckland", "Wellington"),
    "NO": ("Oslo",), "FI": ("Helsinki",), "BE": ("Brussels",), "CH": ("Zurich",), "AT": ("Vienna",),
    "PT": ("Lisbon",), "PL": ("Warsaw",), "JP": ("Tokyo",), "SG": ("Singapore",), "AE": ("Dubai",),
    "ZA": ("Cape Town",),
}  # fmt: skip
REGIONS = (("GB", "IE"), ("US", "CA"), ("DE", "AT", "CH"), ("NL", "BE"), ("SE", "DK", "NO", "FI"),
           ("FR", "ES", "IT", "PT"), ("AU", "NZ"), ("PL",), ("JP",), ("SG",), ("AE",), ("ZA",))  # fmt: skip
KIND_WEIGHTS = np.array([0.30, 0.12, 0.25, 0.13, 0.10, 0.10])  # giveaways .. bundles, as the form lists them
AUDIENCE_CUTS = (3.0, 4.0, 5.0, 6.0)  # log10 followers: under 1K, 1K-10K, 10K-100K, 100K-1M, 1M+
COMPANY_CUTS = (3.4, 4.4, 5.4)  # 1-10, 11-50, 51-200, 200+

_NAMES = dict(c.bp.COUNTRIES)


class GeoSizeWorld(c.World):
    name = "geo_size"
    description = (
        "Partnerships follow geography, size and format: brand a wants b by the share of a's "
        "markets b also sells into (plus the same home country, and for small local brands the same "
        "city, which only some descriptions name), by b's size against a's own goal (near its own "
        "size or a bit above, a window of its own width), and by collaboration kinds both can do "
        "(none in common is nearly hopeless). Bigger brands are pickier, one in twelve says yes to "
        "many. Profiles show markets as audience countries, size as audience and company size bands, "
        "and the kinds, with member mistakes; category, niche, tier, values, ages and genders do not matter."
    )
    target_rate = 0.012

    def __init__(self, seed: int, n: int, noise: float) -> None:
        super().__init__(seed, n, noise)
        truth = np.random.default_rng([seed, 201])
        pool = c.POOL
        index = {code: i for i, code in enumerate(pool)}
        self.home = truth.choice(len(pool), size=n, p=c.POOL_P)
        self.size = np.clip(truth.normal(3.7, 0.9, n), 2.0, 6.8)  # log10 of the biggest channel's audience
        city_names = [f"{city}|{code}" for code in pool for city in CITIES[code]]
        city_index = {name: i for i, name in enumerate(city_names)}
        self.city = np.empty(n, dtype=np.int64)
        markets = np.zeros(n, dtype=np.uint64)
        region_of = {code: region for region in REGIONS for code in region}
        for i in range(n):
            code = pool[self.home[i]]
            cities = CITIES[code]
            weights = np.array([2.5] + [1.0] * (len(cities) - 1))
            city = cities[truth.choice(len(cities), p=weights / weights.sum())]
            self.city[i] = city_index[f"{city}|{code}"]
            chosen = {code} | {m for m in region_of[code] if m != code and truth.random() < 0.45}
            abroad = truth.poisson(max(0.0, 0.9 * (self.size[i] - 3.4)))
            chosen |= set(c.pick_subset(truth, pool, int(min(abroad, 8)), c.POOL_P))
            for m in chosen:
                markets[i] |= np.uint64(1 << index[m])
        self.markets = markets
        self.market_count = np.bitwise_count(markets).astype(np.float64)
        self.kinds = np.zeros(n, dtype=np.uint8)
        for i in range(n):
            for k in truth.choice(
                len(c.COLLAB_KINDS), size=int(truth.integers(1, 5)), replace=False, p=KIND_WEIGHTS
            ):
                self.kinds[i] |= np.uint8(1 << int(k))
        self.goal = truth.normal(0.3, 0.35, n)  # the partner size a brand hopes for, above its own
        self.width = truth.uniform(0.35, 0.9, n)
        self.local = 1.8 * c.sigmoid(-1.5 * (self.size - 3.5))  # what a shared city is worth
        yes_to_many = truth.random(n) < 0.08
        self.bias = truth.normal(-0.2, 0.8, n) - 0.35 * (self.size - 3.7) + np.where(yes_to_many, 1.8, 0.0)
        self._calibrate(np.random.default_rng([seed, 202]))
        self.profiles = self._profiles(np.random.default_rng([seed, 203]), city_names)
        c.add_noise(np.random.default_rng([seed, 204]), self.profiles, noise)
        engagement = -0.4 * (self.size - 3.7) + truth.normal(0, 1, n)
        self._set_habits(np.random.default_rng([seed, 205]), engagement, -0.06 * (self.size - 3.7))

    def _logits(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        shared = np.bitwise_count(self.markets[a] & self.markets[b]).astype(np.float64)
        market = 3.0 * shared / self.market_count[a] - 1.5 * (shared == 0)
        market = (
            market + 0.6 * (self.home[a] == self.home[b]) + self.local[a] * (self.city[a] == self.city[b])
        )
        gap = (self.size[b] - self.size[a] - self.goal[a]) / self.width[a]
        size = np.maximum(-0.5 * gap**2, -4.5)
        kinds = np.bitwise_count(self.kinds[a] & self.kinds[b]).astype(np.float64)
        fmt = np.where(kinds == 0, -3.0, 0.3 * np.minimum(kinds, 3.0))
        return self.bias[a] + market + size + fmt

    def _profiles(self, rng: np.random.Generator, city_names: list[str]) -> list[dict[str, Any]]:
        out = []
        for i in range(self.n):
            markets = [code for j, code in enumerate(c.POOL) if int(self.markets[i]) >> j & 1]
            home = c.POOL[self.home[i]]
            roll = rng.random()
            if roll < 0.25:
                markets = [home]
            elif roll < 0.35:
                markets = sorted({*markets, c.POOL[rng.choice(len(c.POOL), p=c.POOL_P)]})
            kinds = [kind for k, kind in enumerate(c.COLLAB_KINDS) if int(self.kinds[i]) >> k & 1]
            roll = rng.random()
            others = [kind for kind in c.COLLAB_KINDS if kind not in kinds]
            if roll < 0.25 and others:  # ticks a kind it cannot really do
                extra = others[rng.integers(len(others))]
                kinds = [kind for kind in c.COLLAB_KINDS if kind in kinds or kind == extra]
            elif roll < 0.4 and len(kinds) > 1:
                kinds.pop(int(rng.integers(len(kinds))))
            reach = int(np.digitize(self.size[i] + rng.normal(0, 0.15), AUDIENCE_CUTS))
            company = int(np.digitize(self.size[i] + rng.normal(0, 0.5), COMPANY_CUTS))
            category = c.CATEGORIES[rng.integers(len(c.CATEGORIES))]
            niche = c.NICHES[category][rng.integers(len(c.NICHES[category]))]
            city = city_names[self.city[i]].split("|")[0]
            text = f"Independent {niche} brand."
            if rng.random() < 0.6:
                text = f"{niche.capitalize()} from {city}, {_NAMES[home]}."
            centre = int(rng.integers(0, 5))
            out.append(
                c.profile(
                    rng,
                    category=category,
                    niche=niche,
                    tier=c.PRICE_TIERS[rng.integers(3)],
                    company_size=c.COMPANY_SIZES[company],
                    audience_size=c.AUDIENCE_SIZES[reach],
                    values=c.pick_subset(rng, c.VALUES, int(rng.integers(1, 4))),
                    kinds=kinds,
                    ages=list(c.AGE_BANDS[max(0, centre - 1) : centre + 1]),
                    genders=c.pick_subset(rng, c.GENDERS, int(rng.integers(1, 3))),
                    countries=sorted(markets),
                    description=text,
                )
            )
        return out


def factory(seed: int, n: int, noise: float) -> GeoSizeWorld:
    return GeoSizeWorld(seed, n, noise)
