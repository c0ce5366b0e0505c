"""Interests world: partnerships driven by hidden tastes and shared customer personas.

Each brand belongs mostly to one of seven hidden taste clusters (quiet luxury, outdoor
adventure, eco slow living, bold Gen Z, young families, craft & heritage, self-care ritual: none
of them a field of ours) with a little of the others, and sells to a customer persona (age,
gender lean, spending, city or country life). Brand a wants brand b by how much their tastes
overlap (how much that matters differs per brand), how close their personas are, b's general
appeal and a's own pickiness (most brands are picky, about one in ten says yes to many); a brand
rarely wants a competitor (same niche, price tiers at most one apart). The public profile shows
the tastes and persona only weakly: a cluster makes some categories, values and collaboration
kinds more likely, the persona shifts age bands, genders and price tier, and a description
sometimes says it in words. Countries and sizes are filled but do not matter here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.bench.worlds import _common as c

# name, categories, values, collab kinds, persona mean (age, gender lean +men/-women, spend, urban), words
CLUSTERS = (
    ("quiet luxury", ("home", "fashion", "beauty", "travel"), ("premium", "independent", "handmade"),
     ("co-branded products", "events"), (0.6, -0.2, 1.2, 0.8), "understated things made to last"),
    ("outdoor adventure", ("outdoors", "fitness", "travel", "pets", "food & drink"),
     ("sustainable", "local", "independent"), ("giveaways", "content swaps"), (-0.2, 0.5, 0.0, -1.0),
     "weekends outside, whatever the weather"),
    ("eco slow living", ("home", "food & drink", "wellness", "kids"), ("sustainable", "vegan", "B Corp"),
     ("bundles", "newsletter swaps"), (0.2, -0.5, 0.3, -0.3), "slow mornings and fewer, better things"),
    ("bold Gen Z", ("fashion", "beauty", "tech", "stationery", "food & drink"),
     ("playful", "inclusive", "vegan"), ("giveaways", "content swaps"), (-1.3, -0.1, -0.6, 1.0),
     "loud colours and louder group chats"),
    ("young families", ("kids", "pets", "home", "food & drink"), ("family-run", "local", "inclusive"),
     ("bundles", "giveaways"), (0.3, -0.6, 0.0, -0.2), "busy parents and muddy wellies"),
    ("craft & heritage", ("stationery", "food & drink", "home", "fashion"),
     ("handmade", "family-run", "local"), ("events", "co-branded products"), (1.0, 0.0, 0.4, 0.0),
     "small batches, old recipes, real makers"),
    ("self-care ritual", ("wellness", "beauty", "fitness", "home"), ("vegan", "sustainable", "inclusive"),
     ("content swaps", "newsletter swaps"), (-0.1, -0.9, 0.2, 0.5), "a calmer evening routine"),
)  # fmt: skip
CLUSTER_WEIGHTS = np.array([0.12, 0.16, 0.16, 0.14, 0.15, 0.13, 0.14])

CATEGORY_LEAK = 0.7  # chance a brand's category comes from its cluster's (else any)
VALUE_LEAK = 0.6
KIND_LEAK = 0.5
WORDS_LEAK = 0.4  # chance the description says the cluster's words


class InterestsWorld(c.World):
    name = "interests"
    description = (
        "Partnerships follow hidden tastes: seven taste clusters not in our vocabulary (quiet luxury, "
        "outdoor adventure, eco slow living, bold Gen Z, young families, craft & heritage, self-care "
        "ritual) and a latent customer persona (age, gender lean, spend, urban). A brand wants "
        "another by taste overlap (weighted per brand), persona closeness, the other's appeal and "
        "its own pickiness (most picky, one in ten says yes to many); competitors (same niche, "
        "tiers at most one apart) rarely want each other. Profiles show this only weakly (cluster-"
        "leaning categories, values and kinds; persona-shifted ages, genders and tier); countries "
        "and sizes do not matter."
    )
    target_rate = 0.009

    def __init__(self, seed: int, n: int, noise: float) -> None:
        super().__init__(seed, n, noise)
        truth = np.random.default_rng([seed, 101])
        k = len(CLUSTERS)
        self.cluster = truth.choice(k, size=n, p=CLUSTER_WEIGHTS)
        mix = truth.dirichlet(np.full(k, 0.4), size=n)
        purity = truth.uniform(0.55, 0.9, size=n)[:, None]
        self.mix = purity * np.eye(k)[self.cluster] + (1 - purity) * mix
        means = np.array([cl[4] for cl in CLUSTERS])
        self.persona = means[self.cluster] + truth.normal(0, 0.7, size=(n, 4))
        yes_to_many = truth.random(n) < 0.1
        self.bias = truth.normal(-0.3, 1.0, n) - 0.3 * self.persona[:, 2] + np.where(yes_to_many, 2.0, 0.0)
        self.taste_weight = truth.uniform(2.5, 6.5, n)
        self.appeal = truth.normal(0, 0.4, n)
        # category and niche: partly from the cluster; the true niche decides competition
        categories = []
        for i in range(n):
            prefs = CLUSTERS[self.cluster[i]][1]
            pool = prefs if truth.random() < CATEGORY_LEAK else c.CATEGORIES
            categories.append(pool[truth.integers(len(pool))])
        self.category = categories
        self.niche = [c.NICHES[cat][truth.integers(len(c.NICHES[cat]))] for cat in categories]
        niche_ids = {name: i for i, name in enumerate(sorted(set(self.niche)))}
        self.niche_id = np.array([niche_ids[x] for x in self.niche])
        spend = self.persona[:, 2] + truth.normal(0, 0.9, n)
        self.tier = np.digitize(spend, [-0.4, 0.8])  # 0 affordable, 1 mid-range, 2 premium
        self.size = truth.normal(0, 1, n)  # filled in the profile, no part in the truth
        self._calibrate(np.random.default_rng([seed, 102]))
        self.profiles = self._profiles(np.random.default_rng([seed, 103]))
        c.add_noise(np.random.default_rng([seed, 104]), self.profiles, noise)
        picky = -self.bias  # picky brands answer less often
        self._set_habits(
            np.random.default_rng([seed, 105]), truth.normal(0, 1, n), -0.05 * np.clip(picky, -2, 2)
        )

    def _logits(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        taste = 0.0
        for k in range(self.mix.shape[1]):
            taste = taste + self.mix[a, k] * self.mix[b, k]
        distance = 0.0
        for d in range(self.persona.shape[1]):
            distance = distance + (self.persona[a, d] - self.persona[b, d]) ** 2
        rivals = (self.niche_id[a] == self.niche_id[b]) & (np.abs(self.tier[a] - self.tier[b]) <= 1)
        return self.bias[a] + self.taste_weight[a] * taste - 0.25 * distance + self.appeal[b] - 3.0 * rivals

    def _profiles(self, rng: np.random.Generator) -> list[dict[str, Any]]:
        out = []
        for i in range(self.n):
            name, _, values, kinds, _, words = CLUSTERS[self.cluster[i]]
            age, lean, _, urban = self.persona[i]
            centre = int(np.clip(np.round(1.4 + 0.9 * age + rng.normal(0, 0.8)), 0, 4))
            width = int(rng.integers(0, 3))
            lo, hi = max(0, centre - width // 2), min(4, centre + (width + 1) // 2)
            lean_seen = lean + rng.normal(0, 0.6)
            genders = ["women"] if lean_seen < -0.8 else ["men"] if lean_seen > 0.8 else ["men", "women"]
            if rng.random() < 0.15:
                genders = list(c.GENDERS)
            home = c.POOL[rng.choice(len(c.POOL), p=c.POOL_P)]
            extra = c.pick_subset(rng, c.POOL, int(rng.integers(0, 3)), c.POOL_P)
            size = int(np.clip(np.round(1.2 + 0.9 * self.size[i]), 0, 3))
            reach = int(np.clip(np.round(2 + 1.1 * self.size[i] + rng.normal(0, 0.6)), 0, 4))
            place = "in the city" if urban > 0.5 else "out of town" if urban < -0.5 else "all over"
            text = f"We make {self.niche[i]} for customers {place}."
            if rng.random() < WORDS_LEAK:
                text = f"{text} For {words}."
            out.append(
                c.profile(
                    rng,
                    category=self.category[i],
                    niche=self.niche[i],
                    tier=c.PRICE_TIERS[self.tier[i]],
                    company_size=c.COMPANY_SIZES[size],
                    audience_size=c.AUDIENCE_SIZES[reach],
                    values=c.leaky_subset(rng, c.VALUES, values, int(rng.integers(1, 4)), VALUE_LEAK),
                    kinds=c.leaky_subset(rng, c.COLLAB_KINDS, kinds, int(rng.integers(1, 5)), KIND_LEAK),
                    ages=list(c.AGE_BANDS[lo : hi + 1]),
                    genders=[g for g in c.GENDERS if g in genders],
                    countries=sorted({home, *extra}),
                    description=text,
                )
            )
        return out


def factory(seed: int, n: int, noise: float) -> InterestsWorld:
    return InterestsWorld(seed, n, noise)
