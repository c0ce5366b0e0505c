"""What Tandem sells, in one place, and who is shown what (no I/O).

The catalogue is code: `infra/stripe_sync.py` makes Stripe match it (products with these ids,
prices with these lookup keys and metadata, payment links), the billing rules read a price's
metadata to know what a payment bought (`classify`), and `products_response` builds the answer
of `GET products` / `POST products {redirect}` (SPEC section 3: Product price option, Products
response) from it plus the Stripe price ids and payment-link URLs found by sync.

Amounts are in minor units (pence). Prices are immutable in Stripe: a changed amount here is a
new Stripe price that takes over the lookup key (stripe_sync), so a lookup key always names
the current price, while a member's old subscription keeps the price it was sold at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tandem.domain import credits as credit_rules
from tandem.domain.formats import format_money
from tandem.domain.trial import TRIAL_CREDITS, TRIAL_DAYS

CURRENCY = "gbp"
MAIN_CREDITS = credit_rules.MAIN_CREDITS_PER_MONTH  # 6 a month, no rollover
EXTRA_VALID_DAYS = credit_rules.ONE_TIME_ADDON_DAYS  # 30
FIXED_TERM_DAYS = 90
FIXED_TERM_MONTH_DAYS = 30  # a fixed term's credits come in three 30-day months

KINDS = ("main", "extra", "addon", "fixed_term", "feature")
# SPEC section 3's Product price option `type` for each kind.
SPEC_TYPE = {"main": "main", "fixed_term": "main", "extra": "extra", "addon": "extra", "feature": "feature"}
PRICE_SETS = ("monthly", "yearly", "one_time")
LINK_KINDS = ("monthly", "yearly", "one_off", "3month", "6month")  # GET payment-link/{kind}


@dataclass(frozen=True)
class PriceSpec:
    lookup_key: str
    product: str  # the ProductSpec id
    kind: str  # main | extra | addon | fixed_term | feature
    price_set: str  # monthly | yearly | one_time (SPEC's price set key)
    unit_amount: int  # minor units
    interval: str | None  # 'month' | 'year' for recurring prices, None for one-off
    credits: int  # credits per grant (a month of the plan, a pack, a period of the add-on)
    label: str
    months: int | None = None  # plan months a payment covers (1, 12, 3; features 3 or 6)
    days: int | None = None  # validity in days where a payment is not a billing period
    link_kind: str | None = None  # the payment link that sells this price
    compare_to: tuple[str, int] | None = None  # (lookup key, times): the saving is measured against it
    currency: str = CURRENCY

    @property
    def spec_type(self) -> str:
        return SPEC_TYPE[self.kind]

    @property
    def count(self) -> int:
        """The credits an option shows (a month's worth for plans)."""
        return self.credits


@dataclass(frozen=True)
class ProductSpec:
    id: str  # the Stripe product id (set at creation, stable across environments)
    name: str
    kind: str
    description: str

    @property
    def spec_type(self) -> str:
        return SPEC_TYPE[self.kind]


PRODUCTS: tuple[ProductSpec, ...] = (
    ProductSpec(
        "tandem_main",
        "Tandem membership",
        "main",
        "6 credits a month, every brand name in Matches, unlimited incoming requests, the Pitch "
        "Area and Collab Ideas. 30-day money-back guarantee.",
    ),
    ProductSpec(
        "tandem_access_3_months",
        "3-month access",
        "fixed_term",
        "Everything in the membership for 90 days, paid once: 6 credits every 30 days. Does not renew.",
    ),
    ProductSpec(
        "tandem_extra_credits",
        "Extra credits",
        "extra",
        "A pack of credits on top of your plan, valid for 30 days.",
    ),
    ProductSpec(
        "tandem_addon_credits",
        "Monthly add-on credits",
        "addon",
        "Extra credits every month on top of your plan. Cancel any time in the payment portal.",
    ),
    ProductSpec(
        "tandem_feature",
        "Pitch Area feature",
        "feature",
        "Your brand featured in the Pitch Area for 3 or 6 months.",
    ),
)

PRICES: tuple[PriceSpec, ...] = (
    PriceSpec(
        "tandem_main_monthly",
        "tandem_main",
        "main",
        "monthly",
        4900,
        "month",
        MAIN_CREDITS,
        "Monthly",
        months=1,
        link_kind="monthly",
    ),
    PriceSpec(
        "tandem_main_yearly",
        "tandem_main",
        "main",
        "yearly",
        47000,
        "year",
        MAIN_CREDITS,
        "Yearly",
        months=12,
        link_kind="yearly",
        compare_to=("tandem_main_monthly", 12),
    ),
    PriceSpec(
        "tandem_access_3_months",
        "tandem_access_3_months",
        "fixed_term",
        "one_time",
        13900,
        None,
        MAIN_CREDITS,
        "3 months",
        months=3,
        days=FIXED_TERM_DAYS,
        link_kind="one_off",
        compare_to=("tandem_main_monthly", 3),
    ),
    PriceSpec(
        "tandem_extra_3",
        "tandem_extra_credits",
        "extra",
        "one_time",
        2900,
        None,
        3,
        "3 credits",
        days=EXTRA_VALID_DAYS,
    ),
    PriceSpec(
        "tandem_extra_6",
        "tandem_extra_credits",
        "extra",
        "one_time",
        5400,
        None,
        6,
        "6 credits",
        days=EXTRA_VALID_DAYS,
        compare_to=("tandem_extra_3", 2),
    ),
    PriceSpec(
        "tandem_addon_monthly_3",
        "tandem_addon_credits",
        "addon",
        "monthly",
        2400,
        "month",
        3,
        "3 credits every month",
        months=1,
    ),
    PriceSpec(
        "tandem_feature_3_months",
        "tandem_feature",
        "feature",
        "one_time",
        14900,
        None,
        0,
        "3 months",
        months=3,
        link_kind="3month",
    ),
    PriceSpec(
        "tandem_feature_6_months",
        "tandem_feature",
        "feature",
        "one_time",
        24900,
        None,
        0,
        "6 months",
        months=6,
        link_kind="6month",
        compare_to=("tandem_feature_3_months", 2),
    ),
)

BY_LOOKUP: dict[str, PriceSpec] = {p.lookup_key: p for p in PRICES}
BY_PRODUCT: dict[str, ProductSpec] = {p.id: p for p in PRODUCTS}
BY_LINK: dict[str, PriceSpec] = {p.link_kind: p for p in PRICES if p.link_kind}


def price(lookup_key: str) -> PriceSpec:
    return BY_LOOKUP[lookup_key]


def product(product_id: str) -> ProductSpec:
    return BY_PRODUCT[product_id]


def prices_of(product_id: str) -> list[PriceSpec]:
    return [p for p in PRICES if p.product == product_id]


def saving(spec: PriceSpec) -> int:
    """What the price saves against its reference (minor units, 0 when none). The yearly
    saving is twelve times the monthly price minus the yearly price (SPEC section 9)."""
    if spec.compare_to is None:
        return 0
    reference, times = spec.compare_to
    return max(0, BY_LOOKUP[reference].unit_amount * times - spec.unit_amount)


def yearly_saving() -> int:
    return saving(BY_LOOKUP["tandem_main_yearly"])


def discount_message(spec: PriceSpec) -> str | None:
    amount = saving(spec)
    return f"Save {format_money(amount, spec.currency)}" if amount > 0 else None


# ---------------------------------------------------------------- Stripe metadata


def product_metadata(spec: ProductSpec) -> dict[str, str]:
    return {"tandem_kind": spec.kind, "tandem_product": spec.id}


def price_metadata(spec: PriceSpec) -> dict[str, str]:
    """What a Stripe price carries so a payment can be read without this module's version:
    a price keeps its metadata after its lookup key moved to a newer price."""
    data = {
        "tandem_kind": spec.kind,
        "tandem_lookup_key": spec.lookup_key,
        "credits": str(spec.credits),
    }
    if spec.months is not None:
        data["months"] = str(spec.months)
    if spec.days is not None:
        data["days"] = str(spec.days)
    return data


@dataclass(frozen=True)
class PriceInfo:
    """What a Stripe price sells, read from its metadata (or, failing that, its lookup key)."""

    price_id: str
    product_id: str | None
    kind: str
    credits: int
    months: int | None
    days: int | None
    interval: str | None
    unit_amount: int
    name: str


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def classify(stripe_price: Mapping[str, Any] | None) -> PriceInfo | None:
    """A Stripe price (a plain dict as the API returns it) as a catalogue item; None when it is
    not one of ours. Reads `tandem_kind` from the price's metadata, then from its product's
    (when expanded), then the lookup key."""
    if not stripe_price or not isinstance(stripe_price, Mapping):
        return None
    metadata = stripe_price.get("metadata") or {}
    product_ref = stripe_price.get("product")
    product_obj = product_ref if isinstance(product_ref, Mapping) else None
    product_id = product_obj.get("id") if product_obj else product_ref
    kind = metadata.get("tandem_kind") or ((product_obj or {}).get("metadata") or {}).get("tandem_kind")
    spec = BY_LOOKUP.get(metadata.get("tandem_lookup_key") or stripe_price.get("lookup_key") or "")
    if kind not in KINDS:
        if spec is None:
            return None
        kind = spec.kind
    recurring = stripe_price.get("recurring") or {}
    credits = _int_or_none(metadata.get("credits"))
    if credits is None:
        credits = spec.credits if spec else (MAIN_CREDITS if kind in ("main", "fixed_term") else 0)
    months = _int_or_none(metadata.get("months"))
    if months is None and spec is not None:
        months = spec.months
    days = _int_or_none(metadata.get("days"))
    if days is None and spec is not None:
        days = spec.days
    if kind == "fixed_term" and days is None:
        days = FIXED_TERM_DAYS
    if kind == "extra" and days is None:
        days = EXTRA_VALID_DAYS
    name = (product_obj or {}).get("name") or (
        BY_PRODUCT[spec.product].name if spec else (BY_PRODUCT.get(str(product_id)) or PRODUCTS[0]).name
    )
    return PriceInfo(
        price_id=str(stripe_price.get("id") or ""),
        product_id=str(product_id) if product_id else None,
        kind=kind,
        credits=credits,
        months=months,
        days=days,
        interval=recurring.get("interval"),
        unit_amount=int(stripe_price.get("unit_amount") or 0),
        name=name,
    )


# ---------------------------------------------------------------- who is shown what (SPEC section 6)


def option_visible(spec: PriceSpec, needed_credits: int) -> bool:
    """SPEC section 5: product options are hidden when their count is below the credits the
    pop-up payment needs. Feature options sell a feature, not credits: never hidden by this."""
    if spec.kind == "feature" or needed_credits <= 0:
        return True
    return spec.count >= needed_credits


_ID = r"[A-Za-z0-9_-]{1,64}"
_NEEDS = (
    (re.compile(r"^/pitch/new/?$"), credit_rules.FEATURE_COST),
    (re.compile(rf"^/pitch/(?!new/?$){_ID}/?$"), credit_rules.PITCH_COST),
    (re.compile(rf"^/requests/received/{_ID}/{_ID}/?$"), credit_rules.ACCEPT_COST),
    (re.compile(rf"^/matches(/brand/{_ID})?/?$"), credit_rules.REQUEST_HOLD),
    (re.compile(rf"^/matches/{_ID}/brand/{_ID}/?$"), credit_rules.REQUEST_HOLD),
)


def credits_needed_for(redirect: str | None) -> int:
    """The credits the action behind a payment redirect costs (its pop-up payment): featuring
    in the Pitch Area 3, pitching 1, sending a request from Matches 1, else 0."""
    path = (redirect or "").split("?", 1)[0]
    for pattern, needed in _NEEDS:
        if pattern.match(path):
            return needed
    return 0


@dataclass(frozen=True)
class Viewer:
    """Which products a member is offered: the rights tandem.domain.entitlements gives them
    (this module decides none of them). `plans`: the main plan and 3-month access; `extras`:
    one-time extra credits; `recurring`: monthly add-on credits; `features`: the feature
    product's terms (a feature-only account with an unpaid feature); `trial`: the main plan's
    free trial."""

    plans: bool = False
    extras: bool = False
    recurring: bool = False
    features: bool = False
    trial: bool = False


@dataclass(frozen=True)
class StripeIds:
    """What stripe_sync left in Stripe: price ids by lookup key and payment-link URLs by kind."""

    prices: Mapping[str, str]
    links: Mapping[str, str]


def price_option(spec: PriceSpec, price_id: str, link: str | None) -> dict[str, Any]:
    """SPEC section 3's Product price option."""
    return {
        "id": price_id,
        "link": link,
        "unit_amount": spec.unit_amount,
        "currency": spec.currency,
        "count": spec.count,
        "months": spec.months,
        "type": spec.spec_type,
        "discountMessage": discount_message(spec),
        "label": spec.label,
    }


def _visible_kinds(viewer: Viewer) -> set[str]:
    if viewer.features:
        return {"feature"}  # a feature-only account with a feature to pay for
    kinds: set[str] = set()
    if viewer.plans:
        kinds |= {"main", "fixed_term"}
    if viewer.extras:
        kinds.add("extra")
    if viewer.recurring:
        kinds.add("addon")
    return kinds


TRIAL_SUFFIX = ":trial"  # an option id: the price's lookup key + this starts it as a free trial


def trial_option(spec: PriceSpec, price_id: str, link: str | None, days: int, credits: int) -> dict[str, Any]:
    """The main monthly price started as a free trial (Checkout with a trial period)."""
    option = price_option(spec, price_id + TRIAL_SUFFIX, link)
    option.update(
        {
            "label": f"{days}-day free trial",
            "trialDays": days,
            "trialCredits": credits,
            "discountMessage": (
                f"Free for {days} days, then {format_money(spec.unit_amount, spec.currency)} a month"
            ),
        }
    )
    return option


def products_response(
    ids: StripeIds,
    viewer: Viewer,
    now: int,
    *,
    needed_credits: int = 0,
    link_for: Callable[[PriceSpec, str], str | None] | None = None,
) -> dict[str, Any]:
    """The answer of `GET products` / `POST products {redirect}`: {currency, products,
    hasDiscount}. A price Stripe does not have yet (sync not run) is left out rather than
    offered with no id. `link_for(spec, price_id)` gives an option's `link` (by default the
    payment link that sells the price, if any)."""
    kinds = _visible_kinds(viewer)
    products: list[dict[str, Any]] = []
    discounts: list[str] = []
    for product_spec in PRODUCTS:
        if product_spec.kind not in kinds:
            continue
        sets: dict[str, list[dict[str, Any]]] = {key: [] for key in PRICE_SETS}
        for spec in prices_of(product_spec.id):
            price_id = ids.prices.get(spec.lookup_key)
            if not price_id or not option_visible(spec, needed_credits):
                continue
            link = (
                link_for(spec, price_id)
                if link_for
                else (ids.links.get(spec.link_kind) if spec.link_kind else None)
            )
            if viewer.trial and spec.lookup_key == TRIAL_PRICE:
                trial_key = spec.lookup_key + TRIAL_SUFFIX
                sets[spec.price_set].append(
                    trial_option(
                        spec,
                        price_id,
                        link_for(spec, trial_key) if link_for else None,
                        TRIAL_DAYS,
                        TRIAL_CREDITS,
                    )
                )
            sets[spec.price_set].append(price_option(spec, price_id, link))
            if spec.lookup_key == "tandem_main_yearly" and yearly_saving() > 0:
                discounts.append(
                    f"Save {format_money(yearly_saving(), spec.currency)} a year with the yearly plan"
                )
        if any(sets.values()):
            products.append(
                {
                    "id": product_spec.id,
                    "name": product_spec.name,
                    "type": product_spec.spec_type,
                    "description": product_spec.description,
                    "prices": sets,
                }
            )
    return {
        "currency": CURRENCY,
        "products": products,
        "hasDiscount": {"message": discounts[0]} if discounts else None,
    }


TRIAL_PRICE = "tandem_main_monthly"  # the price a free trial starts


def credits_products(ids: StripeIds) -> dict[str, Any]:
    """Credits info's `products` (keyed by id; name, type main/feature, prices): every product
    a member may hold, whatever is on sale to them now."""
    result: dict[str, Any] = {}
    for product_spec in PRODUCTS:
        sets: dict[str, list[dict[str, Any]]] = {key: [] for key in PRICE_SETS}
        for spec in prices_of(product_spec.id):
            price_id = ids.prices.get(spec.lookup_key)
            if price_id:
                sets[spec.price_set].append(
                    price_option(spec, price_id, ids.links.get(spec.link_kind) if spec.link_kind else None)
                )
        result[product_spec.id] = {
            "name": product_spec.name,
            "type": "feature" if product_spec.kind == "feature" else "main",
            "prices": sets,
        }
    return result


# BILLING_CONTRACT.md names the products by these ids and names (the catalogue's ids are the
# Stripe product ids; the contract's are what the screens use).
CONTRACT_IDS = {
    "tandem_main": "main",
    "tandem_extra_credits": "extra_credits",
    "tandem_addon_credits": "addon",
    "tandem_access_3_months": "access_3month",
    "tandem_feature": "feature",
}
CONTRACT_NAMES = {
    "main": "Tandem membership",
    "extra_credits": "Extra credits",
    "addon": "Add-on credits",
    "access_3month": "3-month access",
    "feature": "Pitch feature",
}
CONTRACT_ORDER = ("main", "extra_credits", "addon", "access_3month", "feature")


def contract_credits_products() -> dict[str, Any]:
    """Credits info's `products` keyed by the contract's ids (every product a member may hold)."""
    lookup = StripeIds(prices={p.lookup_key: p.lookup_key for p in PRICES}, links={})
    return {CONTRACT_IDS.get(k, k): v for k, v in credits_products(lookup).items()}


def check(prices: Iterable[PriceSpec] = PRICES, products: Iterable[ProductSpec] = PRODUCTS) -> None:
    """The catalogue's own consistency (run by the tests and by stripe_sync before it writes)."""
    product_ids = {p.id for p in products}
    seen: set[str] = set()
    links: set[str] = set()
    for spec in prices:
        if spec.lookup_key in seen:
            raise ValueError(f"lookup key {spec.lookup_key} twice")
        seen.add(spec.lookup_key)
        if spec.product not in product_ids:
            raise ValueError(f"{spec.lookup_key}: unknown product {spec.product}")
        if spec.kind not in KINDS or spec.price_set not in PRICE_SETS:
            raise ValueError(f"{spec.lookup_key}: bad kind or price set")
        if (spec.interval is None) != (spec.price_set == "one_time"):
            raise ValueError(f"{spec.lookup_key}: one_time prices have no interval, others do")
        if spec.interval not in (None, "month", "year"):
            raise ValueError(f"{spec.lookup_key}: interval must be month or year")
        if spec.unit_amount <= 0 or spec.currency != CURRENCY:
            raise ValueError(f"{spec.lookup_key}: amount must be positive, in {CURRENCY}")
        if spec.link_kind:
            if spec.link_kind not in LINK_KINDS or spec.link_kind in links:
                raise ValueError(f"{spec.lookup_key}: bad or repeated link kind")
            links.add(spec.link_kind)
        if spec.compare_to and spec.compare_to[0] not in seen | {p.lookup_key for p in PRICES}:
            raise ValueError(f"{spec.lookup_key}: compares to an unknown price")
    if links != set(LINK_KINDS):
        raise ValueError(f"payment links missing: {sorted(set(LINK_KINDS) - links)}")
