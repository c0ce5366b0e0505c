"""Demo data for a fresh local stack: the logins printed at start, and brands to match with.

Collab ideas and video guides are seeded by the features that add them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tandem.services import accounts, brands, match_index

POPULATION = 300


@dataclass(frozen=True)
class DemoLogin:
    role: str
    email: str
    password: str


DEMO_LOGINS = (
    DemoLogin("member with two brands", "demo@tandem.local", "TandemDemo1"),
    DemoLogin("admin", "admin@tandem.local", "TandemAdmin1"),
    DemoLogin("feature-only", "feature@tandem.local", "TandemFeature1"),
)

CATEGORIES = ["food & drink", "beauty", "home", "fashion", "wellness", "kids", "pets", "outdoors"]
COLLAB_KINDS = [
    "giveaways",
    "co-branded products",
    "content swaps",
    "newsletter swaps",
    "events",
    "bundles",
]
VALUES = ["sustainable", "vegan", "independent", "family-run", "premium", "playful", "B Corp", "local"]
COUNTRIES = ["GB", "US", "IE", "FR", "DE", "NL", "AU", "CA"]
AGE_BANDS = ["18-24", "25-34", "35-44", "45-54", "55+"]
SIZES = ["1-10", "11-50", "51-200", "200+"]
FIRST = [
    "Wild",
    "Golden",
    "Little",
    "Urban",
    "Salt",
    "Honey",
    "Cedar",
    "Bright",
    "Moss",
    "Paper",
    "Velvet",
    "North",
    "Copper",
    "Sunday",
    "Maple",
    "Silver",
    "Coral",
    "Hazel",
    "Olive",
    "Amber",
]
SECOND = [
    "Fern",
    "Oak",
    "Harbour",
    "Meadow",
    "Pantry",
    "Studio",
    "Works",
    "Bloom",
    "Table",
    "Field",
    "Lane",
    "Nest",
    "Kitchen",
    "Supply",
    "Botanics",
    "Atelier",
    "Roast",
    "Loom",
    "Co",
    "Goods",
]


def _profile(rng: random.Random) -> dict:
    return {
        "category": rng.choice(CATEGORIES),
        "company_size": rng.choice(SIZES),
        "collab_kinds": rng.sample(COLLAB_KINDS, rng.randint(1, 3)),
        "values": rng.sample(VALUES, rng.randint(1, 3)),
        "countries": rng.sample(COUNTRIES, rng.randint(1, 2)),
        "age_bands": rng.sample(AGE_BANDS, rng.randint(1, 2)),
    }


def _onboarded(*users) -> None:  # noqa: ANN002
    """Demo users have been here before: no first-visit popups."""
    from tandem.store.models import User

    for user in users:
        user.update(actions=[User.welcome_done.set(True), User.brand_visibility_popup_done.set(True)])


def seed(population: int = POPULATION) -> None:
    rng = random.Random(2026)
    member, admin, feature = DEMO_LOGINS
    account, dana = accounts.create_account_with_user(
        email=member.email, name="Dana Demo", password=member.password, confirmed=True
    )
    brands.create_brand(
        account_id=account.account_id,
        name="Oat & Honey",
        description="Small-batch oat snacks, baked in Bristol.",
        website="https://oatandhoney.example",
        category="food & drink",
        company_size="11-50",
        collab_kinds=["giveaways", "bundles", "newsletter swaps"],
        values=["sustainable", "independent"],
        countries=["GB"],
        age_bands=["25-34", "35-44"],
    )
    brands.create_brand(
        account_id=account.account_id,
        name="Wild Fern Candles",
        description="Hand-poured soy candles with botanical scents.",
        website="https://wildfern.example",
        category="home",
        company_size="1-10",
        collab_kinds=["co-branded products", "content swaps"],
        values=["vegan", "sustainable"],
        countries=["GB", "IE"],
        age_bands=["25-34"],
    )
    _, alex = accounts.create_account_with_user(
        email=admin.email, name="Alex Admin", password=admin.password, access="admin", confirmed=True
    )
    feature_account, fin = accounts.create_account_with_user(
        email=feature.email, name="Fin Feature", password=feature.password, access="feature", confirmed=True
    )
    _onboarded(dana, alex, fin)
    brands.create_brand(account_id=feature_account.account_id, name="Northwind Outdoor", **_profile(rng))

    names: set[str] = set()
    while len(names) < population:
        names.add(f"{rng.choice(FIRST)} {rng.choice(SECOND)}")
    for index, name in enumerate(sorted(names)):
        brands.create_brand(
            account_id=f"demo-population-{index}",
            name=name,
            description=f"{name} is an independent brand looking for partners.",
            **_profile(rng),
        )
    match_index.rebuild()  # the packed candidates every match run reads
