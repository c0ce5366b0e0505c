"""What a member may buy and the one checkout path: GET/POST products (the options
tandem.domain.entitlements lets the catalogue offer, each with a Checkout Session link),
POST checkout for one of them, and the Pitch Area feature's checkout; every Checkout Session
returns to the app page that asked."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from tandem.domain import catalogue
from tandem.domain import credits as credit_rules
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.integrations import stripe_client
from tandem.services import credits, entitlements
from tandem.services.billing.customers import customers_of, ensure_customer
from tandem.services.viewer import Viewer
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, Brand, User, update_only

CONTRACT_IDS, CONTRACT_NAMES, CONTRACT_ORDER = (
    catalogue.CONTRACT_IDS,
    catalogue.CONTRACT_NAMES,
    catalogue.CONTRACT_ORDER,
)
BAD_REDIRECT = "Choose where to come back to after paying"
UNKNOWN_PRICE = "Choose one of the plans on offer"
TRIAL_USED = "You've already used your free trial. Choose a plan to continue."
TRIAL_OPENING = "Your free trial's checkout is being opened in another window. Please try again in a moment."
TRIAL_CLAIM_STALE = 300  # a claim with no session after 5 minutes was abandoned (the opener failed)

# A member's checkout returns to the page that asked for it (SPEC section 2's
# payment-processing routes): page type -> parent path ({brand}, {item} filled in).
RETURN_PATHS = {
    "account": "/account/subscriptions",
    "request": "/requests/received/{brand}/{item}",
    "requests": "/requests/received/{brand}/{item}",
    "requests_list": "/requests",
    "pitch": "/pitch",
    "pitch_item": "/pitch/{item}",
    "matches": "/matches",
    "match": "/matches/brand/{item}",
}


def payment_return_path(page_type: str, *, brand_id: str | None = None, item_id: str | None = None) -> str:
    """The parent path a checkout returns to (its payment-processing page is below it)."""
    kind = "pitch_item" if page_type == "pitch" and item_id else page_type
    if kind == "requests" and not item_id:
        kind = "requests_list"  # the requests lists: /requests/payment-processing/{id}
    template = RETURN_PATHS.get(kind)
    if template is None:
        raise ValidationError(f"Unknown page type: {page_type}")
    values = {"brand": brand_id, "item": item_id}
    for name in ("brand", "item"):
        if "{" + name + "}" in template:
            value = values[name]
            if not isinstance(value, str) or not _SAFE_ID.match(value):
                raise ValidationError(f"A {name} id is required for {page_type}")
            template = template.replace("{" + name + "}", value)
    return template


_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

# redirect (an app path) -> (page type, item) for payment_return_path
_ID = r"[A-Za-z0-9_-]{1,64}"
_RETURNS = (
    (re.compile(r"^/account/subscriptions$"), "account"),
    (re.compile(rf"^/requests/received/(?P<brand>{_ID})/(?P<item>{_ID})$"), "request"),
    (re.compile(r"^/requests$"), "requests"),
    (re.compile(r"^/pitch$"), "pitch"),
    (re.compile(rf"^/pitch/(?P<item>{_ID})$"), "pitch"),
    (re.compile(r"^/matches$"), "matches"),
    (re.compile(rf"^/matches/brand/(?P<item>{_ID})$"), "match"),
)


def return_page(redirect: Any) -> tuple[str, str | None]:
    """(page type, item) of an app path to come back to; 400 for anything else."""
    if redirect is None:
        return "account", None
    if (
        not isinstance(redirect, str)
        or not redirect.startswith("/")
        or "//" in redirect
        or ":" in redirect
        or "\\" in redirect
    ):
        raise ValidationError(BAD_REDIRECT)
    path = redirect.split("?", 1)[0].rstrip("/") or "/"
    for pattern, page in _RETURNS:
        found = pattern.match(path)
        if found:
            return page, found.groupdict().get("item")
    raise ValidationError(BAD_REDIRECT)


def _offer(viewer: Viewer, held: list[credit_rules.Bucket], now: int) -> catalogue.Viewer:
    """What the catalogue offers this member: the rights entitlements gives them."""
    return viewer.rights(held, now).viewer()


def _checkout_page(viewer: Viewer, redirect: Any) -> tuple[Account, Brand, str, str | None]:
    """The member's account and brand, and the page (and item) the Checkout returns to."""
    page, item = return_page(redirect)
    account, brand = viewer.account, viewer.brand
    if account is None or brand is None:
        raise NotFound("Account not found")
    if page == "request" and not str(redirect).startswith(f"/requests/received/{int(brand.brand_id)}/"):
        raise ValidationError(BAD_REDIRECT)  # the request page of another brand
    return account, brand, page, item


def products(viewer: Viewer, redirect: Any = None, *, create_customer: bool = True) -> dict[str, Any]:
    """GET products / POST products {redirect}: each option's `link` is a Checkout Session for
    this member and brand that comes back to `redirect` (created at once, side by side; two
    calls within 15 minutes get the same sessions).

    GET products passes `create_customer=False`: a GET writes nothing, so an account without a
    Stripe customer yet gets `link: null` and its Buy now asks `checkout` (a POST), which
    creates the customer before the first checkout; nor does it open the free trial's session
    (the account claims its one trial by a write: trial_session)."""
    account, brand, page, item = _checkout_page(viewer, redirect)
    user = viewer.user
    now = int(time.time())
    held = credits.buckets(account.account_id)
    ids = stripe_client.catalogue_ids()
    offer = _offer(viewer, held, now)
    lookup_ids = catalogue.StripeIds(prices={k: k for k in ids.prices}, links=ids.links)
    needed = credits_needed(redirect)
    wanted = catalogue.products_response(
        lookup_ids, offer, now, needed_credits=needed, link_for=lambda s, k: None
    )
    keys = [
        o["id"]
        for p in wanted["products"]
        for opts in p["prices"].values()
        for o in opts
        if o["type"] != "feature"
    ]
    links: dict[str, str] = {}
    if keys and not create_customer and not customers_of(account):
        keys = []  # lazy links: POST checkout creates the customer
    if not create_customer:  # a GET writes nothing: the trial's link is claimed by POST checkout
        keys = [k for k in keys if not k.endswith(catalogue.TRIAL_SUFFIX)]
    if keys:
        customer = ensure_customer(account, user, brand)
        brand_id = str(int(brand.brand_id))

        def session(key: str) -> str | None:
            try:
                return _create_session(key, customer, account, brand_id, user, page, item, now)["url"]
            except Conflict:
                return None  # the trial: opening elsewhere this moment, or just paid (no link)

        made = dict(zip(keys, stripe_client.in_parallel(session, keys), strict=True))
        links = {key: url for key, url in made.items() if url}
    answer = catalogue.products_response(
        lookup_ids, offer, now, needed_credits=needed, link_for=lambda spec, key: links.get(key)
    )
    for product in answer["products"]:
        contract_id = CONTRACT_IDS.get(product["id"], product["id"])
        product["id"] = contract_id
        product["name"] = CONTRACT_NAMES.get(contract_id, product["name"])
    answer["products"].sort(key=lambda p: CONTRACT_ORDER.index(p["id"]) if p["id"] in CONTRACT_ORDER else 99)
    return answer


def checkout(viewer: Viewer, price_id: Any, redirect: Any = None) -> dict[str, str]:
    """POST checkout {priceId, redirect}: one Checkout Session for one of the options the
    products answer offers this member (the lazy form of BILLING_CONTRACT.md), creating the
    account's Stripe customer first if it has none. An option not offered is a 400."""
    account, brand, page, item = _checkout_page(viewer, redirect)
    user = viewer.user
    if not isinstance(price_id, str) or not price_id:
        raise ValidationError(UNKNOWN_PRICE)
    now = int(time.time())
    held = credits.buckets(account.account_id)
    ids = stripe_client.catalogue_ids()
    lookup_ids = catalogue.StripeIds(prices={k: k for k in ids.prices}, links=ids.links)
    offered = catalogue.products_response(
        lookup_ids,
        _offer(viewer, held, now),
        now,
        needed_credits=credits_needed(redirect),
        link_for=lambda s, k: None,
    )
    allowed = {
        o["id"]
        for p in offered["products"]
        for opts in p["prices"].values()
        for o in opts
        if o["type"] != "feature"
    }
    if price_id not in allowed:
        raise ValidationError(UNKNOWN_PRICE)
    customer = ensure_customer(account, user, brand)
    session = _create_session(price_id, customer, account, str(int(brand.brand_id)), user, page, item, now)
    return {"url": session["url"]}


def _create_session(
    option_id: str,
    customer: str,
    account: Account,
    brand_id: str,
    user: User,
    page: str,
    item: str | None,
    now: int,
    feature_id: str | None = None,
) -> dict[str, Any]:
    """The Checkout Session for one option of the products answer: a price's lookup key, or
    the monthly plan's lookup key + catalogue.TRIAL_SUFFIX for its free trial."""
    trial = option_id.endswith(catalogue.TRIAL_SUFFIX)

    def create() -> dict[str, Any]:
        return stripe_client.create_checkout_session(
            customer=customer,
            lookup_key=option_id.removesuffix(catalogue.TRIAL_SUFFIX),
            account_id=account.account_id,
            brand_id=brand_id,
            user_id=user.user_id,
            return_path=payment_return_path(page, brand_id=brand_id, item_id=item),
            page_type=page,
            now=now,
            trial_days=entitlements.rules.TRIAL_DAYS if trial else None,
            feature_id=feature_id,
        )

    if not trial:
        return create()
    back = payment_return_path(page, brand_id=brand_id, item_id=item).rstrip("/")
    return trial_session(account.account_id, create, now, f"{back}|{brand_id}")


def trial_session(
    account_id: str, create: Callable[[], dict[str, Any]], now: int, where: str
) -> dict[str, Any]:
    """The account's one free-trial Checkout Session: the account claims it by a conditional
    write BEFORE Stripe opens it, so however many tabs, pages or brands ask at once, one
    session is open at a time. An ask from the same page and brand (`where`) gets the open
    one; from another, the open one is closed at Stripe first (it can no longer be paid) and
    a new one made. Once one is paid the trial is used (409)."""
    key = Account.key(account_id)
    for _ in range(4):
        fresh = Account.find(account_id, consistent=True)
        if fresh is None:
            raise NotFound("Not found")
        if fresh.trial_session_id:
            current = stripe_client.get_checkout_session(fresh.trial_session_id)
            status = current.get("status")
            asked_from = (
                f"{urlsplit(current.get('cancel_url') or '').path}|{current.get('client_reference_id')}"
            )
            if status == "open" and asked_from == where:
                return {"id": current["id"], "url": current["url"], "status": "open"}
            if status == "open":  # asked from another page or brand: that one closes first
                status = stripe_client.expire_checkout_session(fresh.trial_session_id)
            if status == "complete":
                raise Conflict(TRIAL_USED)
            condition = Account.trial_claim == fresh.trial_claim  # expired unpaid: claim it again
        elif fresh.trial_claim and now - int(fresh.trial_claimed_at or 0) < TRIAL_CLAIM_STALE:
            raise Conflict(TRIAL_OPENING)
        elif fresh.trial_claim:
            condition = Account.trial_claim == fresh.trial_claim
        else:
            condition = Account.trial_claim.does_not_exist()
        mine = uuid.uuid4().hex
        try:
            update_only(
                Account,
                key,
                actions=[
                    Account.trial_claim.set(mine),
                    Account.trial_claimed_at.set(now),
                    Account.trial_session_id.remove(),
                ],
                condition=condition,
            )
        except ConditionFailed:
            continue  # another ask claimed it first: look again
        try:
            session = create()
        except Exception:
            update_only(
                Account,
                key,
                actions=[Account.trial_claim.remove(), Account.trial_claimed_at.remove()],
                condition=Account.trial_claim == mine,
            )
            raise
        update_only(
            Account,
            key,
            actions=[Account.trial_session_id.set(session["id"])],
            condition=Account.trial_claim == mine,
        )
        return session
    raise Conflict(TRIAL_OPENING)


def feature_checkout(viewer: Viewer, feature_id: str, months: int) -> dict[str, str]:
    """The Pitch Area feature's Checkout Session: billing's feature product for the feature's
    term (3 or 6 months), carrying the feature's id, back to the feature's page."""
    key = next((p.lookup_key for p in catalogue.PRICES if p.kind == "feature" and p.months == months), None)
    if key is None:
        raise ValidationError("No feature product for this term")
    account, brand, user = viewer.account, viewer.brand, viewer.user
    if account is None or brand is None:
        raise NotFound("Account not found")
    customer = ensure_customer(account, user, brand)
    brand_id = str(int(brand.brand_id))
    now = int(time.time())
    return {
        "url": _create_session(key, customer, account, brand_id, user, "pitch", feature_id, now, feature_id)[
            "url"
        ]
    }


def credits_needed(redirect: Any) -> int:
    return catalogue.credits_needed_for(redirect if isinstance(redirect, str) else None)
