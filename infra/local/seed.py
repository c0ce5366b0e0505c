"""Demo data for a fresh local stack: the logins printed at start, and brands to match with.

Collab ideas and video guides are seeded by the features that add them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from tandem.domain import brand_profile
from tandem.services import accounts, brands, match_index
from tandem.services.viewer import of_brand

POPULATION = 300


@dataclass(frozen=True)
class DemoLogin:
    role: str
    email: str
    password: str


DEMO_LOGINS = (
    DemoLogin("member with two brands", "demo@tandem.local", "Oat-Honey-Bristol-26"),
    DemoLogin("admin", "admin@tandem.local", "Kestrel-Quay-Admin-4"),
    DemoLogin("feature-only", "feature@tandem.local", "Northwind-Trail-58"),
    DemoLogin("member, no subscription", "free@tandem.local", "Pebble-Paper-Leeds-9"),
    # Connected with each other (Kiln & Clay asked, Sea Salt accepted): the member-collabs journey.
    DemoLogin("member with a connection", "maker@tandem.local", "Kiln-Clay-Margate-31"),
    DemoLogin("its connected partner", "partner@tandem.local", "Sea-Salt-Whitby-72"),
)

CATEGORIES = ["food & drink", "beauty", "home", "fashion", "wellness", "kids", "pets", "outdoors"]
COLLAB_KINDS = list(brand_profile.COLLAB_KINDS)  # the six the brand form offers
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


GENDER_MIXES = [["women"], ["women", "men"], ["men"], ["women", "men", "non-binary"]]


def _details(rng: random.Random, name: str) -> dict:
    """Audience genders, social links, contact details and (for some) a hidden name.
    A separate random stream, so the matching profiles above stay as they were."""
    handle = "".join(ch for ch in name.lower() if ch.isalnum())
    social = {"instagram": f"https://instagram.com/{handle}"}
    if rng.random() < 0.5:
        social["tiktok"] = f"https://tiktok.com/@{handle}"
    if rng.random() < 0.3:
        social["linkedin"] = f"https://linkedin.com/company/{handle}"
    first = rng.choice(["Sam", "Alex", "Jo", "Priya", "Tom", "Maya", "Lee", "Nia"])
    return {
        "genders": rng.choice(GENDER_MIXES),
        "social": social,
        "contact": {
            "name": f"{first} at {name}",
            "email": f"partners@{handle}.example",
            "phone": f"+44 20 7946 {rng.randint(0, 9999):04d}",
        },
        "hide_name": rng.random() < 0.15,
    }


def _subscribe(account) -> None:
    """A plan Tandem granted itself, as an imported member has (tandem.domain.entitlements'
    Tandem part): no Stripe sync ever removes it. Their credits are seeded beside it."""
    from tandem.domain import entitlements
    from tandem.store.models import Account

    grant = entitlements.Grant(kind="plan", since=int(time.time()) - 3 * 86400, until=None, by="seed")
    account.update(actions=[Account.tandem_grants.set(entitlements.TandemPart(grant=grant).to_json())])


def _subscribe_through_stripe(account_id: str) -> bool:
    """demo@'s monthly plan bought in the local fake Stripe as a member buys it (hosted
    checkout, card 4242) and synced, so every billing button works for demo@ (the payment
    portal, add-ons, the yearly upgrade). False when no Stripe is configured (tests that seed
    without the local stack): the caller grants the plan instead."""
    import os

    from infra.local.fake_stripe.browser import pay_hosted_checkout

    if not os.environ.get("STRIPE_API_BASE"):
        return False
    from tandem.integrations import stripe_client
    from tandem.services import billing
    from tandem.store.models import Account

    account = Account.find(account_id, consistent=True)
    user = accounts.users_of_account(account_id)[0]
    oat = min(brands.brands_of_account(account_id), key=lambda b: int(b.brand_id))
    customer = billing.ensure_customer(account, user, oat)
    session = stripe_client.create_checkout_session(
        customer=customer,
        lookup_key="tandem_main_monthly",
        account_id=account_id,
        brand_id=str(int(oat.brand_id)),
        user_id=user.user_id,
    )
    paid = pay_hosted_checkout(session["url"], email=user.email, name=user.name)  # card 4242
    if paid.status_code != 303:
        raise RuntimeError(f"The demo plan's checkout was not paid ({paid.status_code})")
    state = billing.sync_account(account_id)
    if state is None or state.status != "active":
        raise RuntimeError("The demo plan did not sync as active")
    return True


def _onboarded(*users) -> None:
    """Demo users have been here before: no first-visit popups."""
    from tandem.store.models import User

    for user in users:
        user.update(
            actions=[
                User.welcome_done.set(True),
                User.brand_visibility_popup_done.set(True),
                User.instructions_done.set(True),
            ]
        )


def seed(population: int = POPULATION) -> None:
    rng = random.Random(2026)
    details = random.Random(4)
    member, admin, feature, free = DEMO_LOGINS[:4]
    account, dana = accounts.create_account_with_user(
        email=member.email, name="Dana Demo", password=member.password, confirmed=True
    )
    brands.create_brand(
        account_id=account.account_id,
        name="Oat & Honey",
        description="Small-batch oat snacks, baked in Bristol.",
        website="https://oatandhoney.example",
        category="food & drink",
        niche="snacks",
        price_tier="mid-range",
        company_size="11-50",
        collab_kinds=["giveaways", "bundles", "newsletter swaps"],
        values=["sustainable", "independent"],
        countries=["GB"],
        age_bands=["25-34", "35-44"],
        genders=["women", "men"],
        social={
            "instagram": "https://instagram.com/oatandhoney",
            "tiktok": "https://tiktok.com/@oatandhoney",
        },
        contact={"name": "Dana Demo", "email": "dana@oatandhoney.example", "phone": "+44 117 496 0000"},
    )
    brands.create_brand(
        account_id=account.account_id,
        name="Wild Fern Candles",
        description="Hand-poured soy candles with botanical scents.",
        website="https://wildfern.example",
        category="home",
        niche="candles & scents",
        price_tier="premium",
        company_size="1-10",
        collab_kinds=["co-branded products", "content swaps"],
        values=["vegan", "sustainable"],
        countries=["GB", "IE"],
        age_bands=["25-34"],
        genders=["women"],
        social={"instagram": "https://instagram.com/wildferncandles"},
        contact={"name": "Dana Demo", "email": "hello@wildfern.example"},
    )
    _, alex = accounts.create_account_with_user(
        email=admin.email, name="Alex Admin", password=admin.password, access="admin", confirmed=True
    )
    feature_account, fin = accounts.create_account_with_user(
        email=feature.email, name="Fin Feature", password=feature.password, access="feature", confirmed=True
    )
    free_account, fay = accounts.create_account_with_user(
        email=free.email, name="Fay Free", password=free.password, confirmed=True
    )  # no subscription: other brands' names are masked in Matches
    _onboarded(dana, alex, fin, fay)
    # An outdoors brand by its name (the random profile gave it "beauty"); the draw stays, so the
    # brands seeded after it are unchanged.
    # It shows its name (the draw hid it): issue 27's journey finds it by name, with a typo.
    northwind = {
        **_profile(rng),
        **_details(details, "Northwind Outdoor"),
        "category": "outdoors",
        "hide_name": False,
    }
    northwind_brand = brands.create_brand(
        account_id=feature_account.account_id, name="Northwind Outdoor", **northwind
    )
    brands.create_brand(
        account_id=free_account.account_id,
        name="Pebble Paper Co",
        description="Recycled-paper notebooks and planners, printed in Leeds.",
        website="https://pebblepaper.example",
        category="home",
        company_size="1-10",
        collab_kinds=["giveaways", "newsletter swaps", "content swaps"],
        values=["sustainable", "independent"],
        countries=["GB"],
        age_bands=["25-34", "35-44"],
        genders=["women"],
        social={"instagram": "https://instagram.com/pebblepaper"},
        contact={"name": "Fay Free", "email": "fay@pebblepaper.example"},
    )

    names: set[str] = set()
    while len(names) < population:
        names.add(f"{rng.choice(FIRST)} {rng.choice(SECOND)}")
    brands.create_brands(  # one id reservation and batch writes: the same brands, in id order
        {
            "account_id": f"demo-population-{index}",
            "name": name,
            "description": f"{name} is an independent brand looking for partners.",
            **_profile(rng),
            **_details(details, name),
        }
        for index, name in enumerate(sorted(names))
    )
    match_index.rebuild()  # the packed candidates every match run reads
    match_index.refresh(northwind_brand)  # as its save would: brand search learns it is feature-only
    _demo_credits_and_requests(account.account_id)
    _demo_connection()


def _demo_connection() -> None:
    """Two members connected with each other and nobody else (maker@ asked, partner@
    accepted), so a journey can share their collab without changing the other demo users."""
    from tandem.services import credits, requests

    maker, partner = DEMO_LOGINS[4:6]
    made = []
    for login, name, brand_fields in (
        (maker, "Mia Maker", KILN),
        (partner, "Sam Salt", SEA_SALT),
    ):
        account, user = accounts.create_account_with_user(
            email=login.email, name=name, password=login.password, confirmed=True
        )
        _subscribe(account)
        _onboarded(user)
        made.append((account, brands.create_brand(account_id=account.account_id, **brand_fields)))
    (maker_account, kiln), (_, sea_salt) = made
    for _, made_brand in made:  # made after the seed's rebuild: indexed as a sign-up's brand is
        brands.index_new(made_brand)
    credits.grant(
        maker_account.account_id,
        kind="main",
        amount=1,
        valid_from=int(time.time()) - 86400,
        valid_to=int(time.time()) + 29 * 86400,
        op_id=f"seed:main:{maker_account.account_id}",
        product_name="Tandem membership",
    )
    sent = requests.send(of_brand(kiln), {"toBrandId": int(sea_salt.brand_id), "message": KILN_MESSAGE})
    requests.act(of_brand(sea_salt), "accept", sent["request"]["id"])


KILN_MESSAGE = "Hello Sea Salt! Shall we put a handmade soap dish and your bars in one gift set?"
KILN = {
    "name": "Kiln & Clay Studio",
    "description": "Handmade stoneware for the kitchen and bathroom, thrown in Margate.",
    "website": "https://kilnandclay.example",
    "category": "home",
    "company_size": "1-10",
    "collab_kinds": ["co-branded products", "bundles"],
    "values": ["independent", "local"],
    "countries": ["GB"],
    "age_bands": ["25-34", "35-44"],
    "genders": ["women"],
    "contact": {"name": "Mia Maker", "email": "mia@kilnandclay.example"},
}
SEA_SALT = {
    "name": "Sea Salt Soap Co",
    "description": "Cold-process soaps made with Yorkshire sea salt.",
    "website": "https://seasaltsoap.example",
    "category": "beauty",
    "company_size": "1-10",
    "collab_kinds": ["bundles", "giveaways"],
    "values": ["sustainable", "vegan"],
    "countries": ["GB"],
    "age_bands": ["25-34", "35-44"],
    "genders": ["women"],
    "contact": {"name": "Sam Salt", "email": "sam@seasaltsoap.example"},
}


def start_demo_match_runs() -> list[str]:
    """Match runs for the demo members' brands, through the real match-run state machine, so
    Matches has suggestions on a fresh stack (called once the stack can execute workflows)."""
    from tandem.services import match_runs

    started = []
    for login in (DEMO_LOGINS[0], DEMO_LOGINS[3]):
        user = accounts.find_user_by_email(login.email)
        for brand in brands.brands_of_account(user.account_id):
            started.append(match_runs.start_run(int(brand.brand_id), trigger="seed").run_id)
    return started


DEMO_REQUESTS = (
    (12, "Hi Oat & Honey! We'd love to put your oat bites in our winter hamper. Fancy a bundle?"),
    (47, "Hello! Would you be up for a joint giveaway on Instagram next month?"),
)


def _demo_credits_and_requests(account_id: str) -> None:
    """The demo member's 6 credits for this subscription month, and two requests its first
    brand (Oat & Honey) has received from population brands, so the screens have content."""
    import time
    from datetime import UTC, datetime

    from tandem.services import credits, requests
    from tandem.store import keys
    from tandem.store.models import Account

    month_start = int(time.time()) - 3 * 86400
    if not _subscribe_through_stripe(account_id):  # sees brand names in Matches
        _subscribe(Account.find(account_id, consistent=True))
        credits.grant(
            account_id,
            kind="main",
            amount=6,
            valid_from=month_start,
            valid_to=month_start + 30 * 86400,
            op_id=f"seed:main:{account_id}",
            product_name="Tandem membership",
        )
    oat = min(brands.brands_of_account(account_id), key=lambda b: int(b.brand_id))
    for index, message in DEMO_REQUESTS:
        sender_account = f"demo-population-{index}"
        (sender,) = brands.brands_of_account(sender_account)
        sender_account_item = Account(
            keys.account_pk(sender_account),
            keys.META,
            account_id=sender_account,
            name=sender.name,
            created_at=datetime.now(UTC),
        )
        sender_account_item.save()
        _subscribe(sender_account_item)
        credits.grant(
            sender_account,
            kind="main",
            amount=6,
            valid_from=month_start,
            valid_to=month_start + 30 * 86400,
            op_id=f"seed:main:{sender_account}",
        )
        requests.send(of_brand(sender), {"toBrandId": int(oat.brand_id), "message": message})


def seed_members(count: int, seed: int = 1) -> dict:
    """`count` subscribed members for the day replay (tests/bench/day_replay.py), each an
    account with one user (no password: the replay signs in with the tokens answered here, two
    hours long), one brand with a random profile and this month's 6 credits, made through the
    services a sign-up uses (the brands in one batch, as the demo population), then the match
    index rebuilt so every brand is a candidate. Answers {members: [{brandId, accountId, token}],
    brands: how many brands there are now}."""
    from concurrent.futures import ThreadPoolExecutor

    from tandem.services import credits, tokens

    rng = random.Random(seed)
    details = random.Random(seed + 1)
    month_start = int(time.time()) - 3 * 86400

    def one(index: int):
        account, user = accounts.create_account_with_user(
            email=f"member{index}-{seed}@replay.example",
            name=f"Member {index}",
            password=None,
            confirmed=True,
        )
        _subscribe(account)
        credits.grant(
            account.account_id,
            kind="main",
            amount=6,
            valid_from=month_start,
            valid_to=month_start + 30 * 86400,
            op_id=f"seed:main:{account.account_id}",
            product_name="Tandem membership",
        )
        return account, user

    with ThreadPoolExecutor(4) as pool:  # the journal's fsync of each write is most of the wait
        made = list(pool.map(one, range(count)))
    names = [f"{rng.choice(FIRST)} {rng.choice(SECOND)} {index}" for index in range(count)]
    created = brands.create_brands(
        {
            "account_id": account.account_id,
            "name": name,
            "description": f"{name} is an independent brand looking for partners.",
            **_profile(rng),
            **_details(details, name),
        }
        for (account, _), name in zip(made, names, strict=True)
    )
    match_index.rebuild()
    return {
        "members": [
            {
                "brandId": int(brand.brand_id),
                "accountId": account.account_id,
                "token": tokens.issue_access_token(user.user_id, account.account_id, user.access, ttl=7200),
            }
            for (account, user), brand in zip(made, created, strict=True)
        ],
        "brands": match_index.highest_brand_id(),  # with the demo data's: what the nightly run scores
    }
