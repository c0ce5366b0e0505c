"""Stripe: the one place that configures the stripe library, and every call the app makes.

The API key comes from the Stripe secret (`STRIPE_SECRET_NAME`, JSON `{"api_key", ...}`);
`STRIPE_API_KEY` overrides it for local tools and tests. `STRIPE_API_BASE` points the library
at the local fake (infra/local/fake_stripe); production leaves it unset. The API version is
pinned, requests time out and network failures are retried (Stripe's own retry rules, with
idempotency keys on every POST). `stripe` is imported lazily: the API's cold start must not
pay for it (tests/unit/test_template.py).

Calls return plain dicts (`to_dict()`), the shapes `tandem.domain.billing` reads.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from tandem.config import settings
from tandem.domain import billing, catalogue
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.integrations.aws import get_secret

API_VERSION = "2026-10-28.endive"  # what stripe==16.1.0 speaks; a library upgrade changes it on purpose
# Seconds to connect, to read. A member waits on checkout and the payment-status poll: a Stripe
# that cannot be reached is known after 1 s per attempt (three attempts of 3.05 s kept members
# 10 s on a 500 in issue 42's outage), and the API answers 503 "try again" (integrations/outages.py).
TIMEOUT = (1.0, 20.0)
MAX_NETWORK_RETRIES = 2
API_KEY_ENV = "STRIPE_API_KEY"
API_BASE_ENV = "STRIPE_API_BASE"
SECRET_NAME_ENV = "STRIPE_SECRET_NAME"  # noqa: S105 (a variable name, not a secret)
CATALOGUE_TTL = 300  # seconds the price ids and payment links found in Stripe are reused
CHECKOUT_WINDOW = 900  # two tabs asking for the same checkout within 15 minutes get one session
PAGE_SIZE = 100
PORTAL_METADATA = "tandem_portal"
LINK_METADATA = "tandem_link"

_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


# ---------------------------------------------------------------- configuration


def _api_key() -> str:
    key = os.environ.get(API_KEY_ENV, "").strip()
    if key:
        return key

    name = os.environ.get(SECRET_NAME_ENV) or f"tandem/{settings().stage}/stripe"
    key = json.loads(get_secret(name)).get("api_key", "")
    if not key or key == "set-me":
        raise RuntimeError(f"The Stripe secret {name} has no api_key yet (store the key there).")
    return key


def make_client(api_key: str, api_base: str | None = None) -> Any:
    """A configured StripeClient: pinned API version, timeouts, network retries, and the base
    URL of the local fake when `api_base` (or STRIPE_API_BASE) says so."""
    import stripe

    base = api_base or os.environ.get(API_BASE_ENV) or None
    return stripe.StripeClient(
        api_key,
        stripe_version=API_VERSION,
        base_addresses={"api": base.rstrip("/")} if base else None,
        max_network_retries=MAX_NETWORK_RETRIES,
        http_client=stripe.RequestsClient(timeout=TIMEOUT),
    )


@lru_cache(maxsize=1)
def client() -> Any:
    return make_client(_api_key())


PARALLEL_CALLS = 4  # Stripe calls a sync (its four lists) or a products page (its links) runs at once


@lru_cache(maxsize=1)
def _workers() -> ThreadPoolExecutor:
    """Threads kept for the container's life: the library's RequestsClient keeps a session (its
    connection pool) per thread, so threads that outlive a call reuse their connections to
    Stripe; a pool per call started new threads, and so a TLS handshake, for every list call of
    every sync."""
    return ThreadPoolExecutor(max_workers=PARALLEL_CALLS, thread_name_prefix="stripe")


def in_parallel(call: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """`call` on every item, up to PARALLEL_CALLS at once on the kept threads, in the items'
    order; the first failure is raised. `call` must not itself wait on `in_parallel`."""
    return list(_workers().map(call, items))


def reset_client() -> None:
    """Forget the client and what was read from Stripe (tests, key rotation)."""
    client.cache_clear()
    _retrieve_price.cache_clear()
    with _cache_lock:
        _cache.clear()


def _plain(obj: Any) -> dict[str, Any]:
    return obj.to_dict() if hasattr(obj, "to_dict") else dict(obj)


def _metadata(obj: Any) -> dict[str, Any]:
    return _plain(obj).get("metadata") or {}


def _listed(c: Any, path: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object of a list endpoint (`/v1/invoices`...), page after page, as the JSON
    Stripe sent. The billing sync reads four lists on every Stripe event: building each
    object as a StripeObject only to turn it back into a dict (`_all`) was a fifth of the
    1,000-event billing proof's CPU (docs/decisions.md, 2026-11-29). Errors and network
    retries are the library's, as for any call."""
    found: list[dict[str, Any]] = []
    query = {**params, "limit": PAGE_SIZE}
    while True:
        page = c.raw_request("get", path, **query).data
        found.extend(page["data"])
        if not page.get("has_more") or not page["data"]:
            return found
        query["starting_after"] = page["data"][-1]["id"]


def _all(listing: Any) -> list[dict[str, Any]]:
    return [_plain(obj) for obj in listing.auto_paging_iter()]


# ---------------------------------------------------------------- what stripe_sync left in Stripe

_cache: dict[str, tuple[float, Any]] = {}
_cache_lock = threading.Lock()


def _cached(name: str, load: Callable[[], Any], ttl: float = CATALOGUE_TTL) -> Any:
    with _cache_lock:
        held = _cache.get(name)
        if held and time.monotonic() - held[0] < ttl:
            return held[1]
    value = load()
    with _cache_lock:
        _cache[name] = (time.monotonic(), value)
    return value


def _load_ids() -> catalogue.StripeIds:
    c = client()
    keys = [spec.lookup_key for spec in catalogue.PRICES]
    prices: dict[str, str] = {}
    for start in range(0, len(keys), 10):  # Stripe takes at most 10 lookup keys a call
        listed = c.v1.prices.list({"lookup_keys": keys[start : start + 10], "active": True, "limit": 100})
        for price in listed.auto_paging_iter():
            prices[price.lookup_key] = price.id
    links: dict[str, str] = {}
    for link in c.v1.payment_links.list({"active": True, "limit": PAGE_SIZE}).auto_paging_iter():
        kind = _metadata(link).get(LINK_METADATA)
        if kind in catalogue.LINK_KINDS and kind not in links:
            links[kind] = link.url
    return catalogue.StripeIds(prices=prices, links=links)


def catalogue_ids() -> catalogue.StripeIds:
    """Price ids by lookup key and payment-link URLs by kind (cached for 5 minutes)."""
    return _cached("ids", _load_ids)


def price_id(lookup_key: str) -> str:
    found = catalogue_ids().prices.get(lookup_key)
    if not found:
        raise NotFound(f"The price {lookup_key} is not set up in Stripe (run make stripe-sync).")
    return found


def _portal_configuration() -> str | None:
    def load() -> str | None:
        for config in client().v1.billing_portal.configurations.list({"active": True, "limit": PAGE_SIZE}):
            if _metadata(config).get(PORTAL_METADATA) == "main":
                return config.id
        return None  # the account's default configuration

    return _cached("portal", load)


# ---------------------------------------------------------------- the snapshot billing.compute reads


@lru_cache(maxsize=256)
def _retrieve_price(price: str) -> dict[str, Any]:
    return _plain(client().v1.prices.retrieve(price))


def _line_price_ids(invoice: dict[str, Any]) -> set[str]:
    found = set()
    for line in (invoice.get("lines") or {}).get("data") or []:
        ref = ((line.get("pricing") or {}).get("price_details") or {}).get("price")
        if isinstance(ref, str):
            found.add(ref)
    return found


def fetch_customer_snapshot(customer: str | Sequence[str]) -> dict[str, Any]:
    """Everything `billing.compute` needs about one account's Stripe customer(s), in four list
    calls per customer made side by side: subscriptions (status=all, items with their prices),
    invoices (with their payments), checkout sessions (with their line items) and charges
    (with their refunds); then any price an old invoice line names that no item or session
    carries (a price the plan moved off; cached per process, a price's terms never change)."""
    ids = [customer] if isinstance(customer, str) else list(dict.fromkeys(customer))
    if not ids or not all(isinstance(i, str) and i.startswith("cus_") for i in ids):
        raise ValueError("fetch_customer_snapshot needs Stripe customer ids (cus_...)")
    c = client()
    calls: list[tuple[str, Callable[[], list[dict[str, Any]]]]] = []
    for cid in ids:
        calls += [
            (
                "subscriptions",
                lambda cid=cid: _listed(c, "/v1/subscriptions", {"customer": cid, "status": "all"}),
            ),
            (
                "invoices",
                lambda cid=cid: _listed(c, "/v1/invoices", {"customer": cid, "expand": ["data.payments"]}),
            ),
            (
                "checkout_sessions",
                lambda cid=cid: _listed(
                    c, "/v1/checkout/sessions", {"customer": cid, "expand": ["data.line_items"]}
                ),
            ),
            (
                "charges",
                lambda cid=cid: _listed(c, "/v1/charges", {"customer": cid, "expand": ["data.refunds"]}),
            ),
        ]
    snapshot: dict[str, list[dict[str, Any]]] = {
        "subscriptions": [],
        "invoices": [],
        "checkout_sessions": [],
        "charges": [],
        "refunds": [],
        "prices": [],
    }
    for (name, _), listed in zip(calls, in_parallel(lambda named: named[1](), calls), strict=True):
        snapshot[name].extend(listed)
    known = {
        item["price"]["id"]
        for sub in snapshot["subscriptions"]
        for item in (sub.get("items") or {}).get("data") or []
        if isinstance(item.get("price"), dict)
    } | {
        line["price"]["id"]
        for session in snapshot["checkout_sessions"]
        for line in (session.get("line_items") or {}).get("data") or []
        if isinstance(line.get("price"), dict)
    }
    missing = set().union(*(_line_price_ids(i) for i in snapshot["invoices"])) - known
    snapshot["prices"] = [_retrieve_price(p) for p in sorted(missing)]
    return snapshot


def compute_for(
    customer: str | Sequence[str], record: dict[str, Any] | None, now: int | None = None
) -> billing.BillingState:
    """fetch_customer_snapshot + billing.compute: the heart of sync_customer."""
    return billing.compute(fetch_customer_snapshot(customer), record, int(now or time.time()))


# ---------------------------------------------------------------- customers and checkout


def create_customer(
    account_id: str, *, email: str, name: str | None = None, brand_id: str | None = None
) -> str:
    """The account's Stripe Customer, made before its first checkout. Idempotent per account
    for 24 hours (Stripe's idempotency window): store the id on the account at once."""
    if not _SAFE_ID.match(account_id or ""):
        raise ValidationError("Invalid account id")
    if not _EMAIL.match(email or ""):
        raise ValidationError("Invalid email")
    params: dict[str, Any] = {"email": email, "metadata": {"account": account_id}}
    if name:
        params["name"] = name[:256]
    if brand_id:
        params["metadata"]["brand"] = str(brand_id)
    customer = client().v1.customers.create(params, {"idempotency_key": f"tandem-customer-{account_id}"})
    return customer.id


def update_customer_email(customer: str, old: str, new: str) -> bool:
    """The member changed their address: the customer made with the old one gets the new one
    (receipts and the portal go there). A customer whose email is another address (another
    member of the account, or set by the customer in Stripe) is left alone. True if updated."""
    if not isinstance(customer, str) or not customer.startswith("cus_"):
        raise ValidationError("Invalid customer")
    if not _EMAIL.match(new or ""):
        raise ValidationError("Invalid email")
    c = client()
    current = _plain(c.v1.customers.retrieve(customer))
    if current.get("deleted") or str(current.get("email") or "").lower() != (old or "").lower():
        return False
    c.v1.customers.update(customer, {"email": new})
    return True


def _replayed(obj: Any) -> bool:
    response = getattr(obj, "last_response", None)
    headers = getattr(response, "headers", None) or {}
    return str(headers.get("idempotent-replayed", "")).lower() == "true"


def create_checkout_session(
    *,
    customer: str,
    lookup_key: str,
    account_id: str,
    brand_id: str,
    user_id: str,
    return_path: str = "/account/subscriptions",
    page_type: str = "account",
    feature_id: str | None = None,
    quantity: int = 1,
    site_url: str | None = None,
    now: int | None = None,
    trial_days: int | None = None,
) -> dict[str, Any]:
    """A Checkout Session for one catalogue price, returning to the page that asked. With
    `trial_days`, the main monthly plan starts as a free trial: the card is collected now and
    nothing is charged until the trial ends.

    `client_reference_id` is the brand; metadata carries account, brand, kind, user (and the
    lookup key, the page, and the feature for a Pitch Area feature). Two tabs asking for the
    same thing within 15 minutes get the same session (an idempotency key over the request);
    a session already paid or expired is never handed out again. Returns {id, url, status}."""
    spec = catalogue.BY_LOOKUP.get(lookup_key)
    if spec is None:
        raise ValidationError(f"Unknown product price: {lookup_key}")
    if not isinstance(quantity, int) or isinstance(quantity, bool) or not 1 <= quantity <= 10:
        raise ValidationError("Quantity must be a whole number from 1 to 10")
    if spec.kind in ("main", "addon", "fixed_term") and quantity != 1:
        raise ValidationError("A plan is bought one at a time")
    for label, value in (("brand", brand_id), ("account", account_id), ("user", user_id)):
        if not isinstance(value, str) or not _SAFE_ID.match(value):
            raise ValidationError(f"Invalid {label} id")
    if feature_id is not None and not _SAFE_ID.match(feature_id):
        raise ValidationError("Invalid feature id")
    if trial_days is not None and (
        spec.kind != "main" or spec.interval != "month" or not 1 <= trial_days <= 30
    ):
        raise ValidationError("Only the monthly plan starts with a free trial")
    if spec.kind == "feature" and feature_id is None:
        raise ValidationError("A feature purchase names its feature")
    if not isinstance(customer, str) or not customer.startswith("cus_"):
        raise ValidationError("Invalid customer")
    if not isinstance(return_path, str) or not return_path.startswith("/") or "//" in return_path:
        raise ValidationError("Invalid return path")
    path = return_path.rstrip("/")
    site = (site_url or settings().site_url).rstrip("/")
    metadata = {
        "account": account_id,
        "brand": brand_id,
        "kind": spec.kind,
        "user": user_id,
        "lookup_key": lookup_key,
        "page": page_type,
    }
    if feature_id:
        metadata["feature"] = feature_id
    if trial_days is not None:
        metadata["trial"] = str(trial_days)
    params: dict[str, Any] = {
        "mode": "subscription" if spec.interval else "payment",
        "customer": customer,
        "client_reference_id": brand_id,
        "metadata": metadata,
        "line_items": [{"price": price_id(lookup_key), "quantity": quantity}],
        "success_url": f"{site}{path}/payment-processing/{{CHECKOUT_SESSION_ID}}",
        "cancel_url": f"{site}{path}",
    }
    if spec.interval:
        # Said on every subscription we create: since API 2025-09-30 Stripe defaults to
        # `flexible`, which prorates differently from what our tests' fake bills (classic).
        params["subscription_data"] = {"metadata": metadata, "billing_mode": {"type": "classic"}}
        if trial_days is not None:
            params["subscription_data"]["trial_period_days"] = trial_days
            params["payment_method_collection"] = "always"
    else:
        params["payment_intent_data"] = {"metadata": metadata}
        params["invoice_creation"] = {"enabled": True, "invoice_data": {"metadata": metadata}}
    window = int(now if now is not None else time.time()) // CHECKOUT_WINDOW
    digest = hashlib.sha256(json.dumps([params, window], sort_keys=True).encode()).hexdigest()[:40]
    c = client()
    for attempt in range(3):
        session = c.v1.checkout.sessions.create(
            params, {"idempotency_key": f"tandem-checkout-{digest}-{attempt}"}
        )
        if not _replayed(session):
            return {"id": session.id, "url": session.url, "status": session.status}
        current = c.v1.checkout.sessions.retrieve(session.id)
        if current.status == "open":
            return {"id": current.id, "url": current.url, "status": current.status}
    raise Conflict("This checkout was just completed. Reload the page to see your plan.")


def expire_checkout_session(session_id: str) -> str:
    """Close an open Checkout Session so it can no longer be paid; returns its status after
    ('expired', or 'complete' when it was paid first)."""
    import stripe

    c = client()
    try:
        return c.v1.checkout.sessions.expire(session_id).status
    except stripe.InvalidRequestError:
        return c.v1.checkout.sessions.retrieve(session_id).status  # not open any more


def get_event(event_id: str) -> dict[str, Any]:
    """One event as Stripe holds it (30 days): replaying an event the webhook never recorded."""
    if not isinstance(event_id, str) or not re.match(r"^evt_[A-Za-z0-9_]{1,200}$", event_id):
        raise NotFound("Not found")
    return _plain(client().v1.events.retrieve(event_id))


def get_checkout_session(session_id: str) -> dict[str, Any]:
    """A checkout session (for the payment-processing page: the route checks that its
    metadata names the member's account before saying anything about it)."""
    if not isinstance(session_id, str) or not re.match(r"^cs_[A-Za-z0-9_]{1,200}$", session_id):
        raise NotFound("Not found")
    import stripe

    try:
        # The payment intent says whether an attempt was declined or an async payment failed.
        session = _plain(client().v1.checkout.sessions.retrieve(session_id, {"expand": ["payment_intent"]}))
    except stripe.InvalidRequestError as error:
        if error.http_status == 404:
            raise NotFound("Not found") from None
        raise
    if session.get("mode") == "subscription" and session.get("status") == "open":
        session["declined_attempt"] = _declined_first_payment(session)
    return session


def _declined_first_payment(session: dict[str, Any]) -> dict[str, Any] | None:
    """A subscription-mode session has no payment_intent (Stripe sets it in payment mode
    only) and no subscription until it is paid: a declined card leaves the session open and
    its attempt at the first payment as a PaymentIntent of the session's customer, in
    requires_payment_method with the decline in last_payment_error. The newest such intent
    made since the session, for the session's amount and currency, is that attempt (None when
    there is none, or when a later attempt has not failed)."""
    customer = session.get("customer")
    if isinstance(customer, dict):
        customer = customer.get("id")
    if not isinstance(customer, str) or not customer.startswith("cus_"):
        return None
    since = int(session.get("created") or 0)
    listing = client().v1.payment_intents.list({"customer": customer, "created": {"gte": since}, "limit": 10})
    for intent in (_plain(i) for i in listing.data):  # newest first
        if int(intent.get("created") or 0) < since:
            continue
        if intent.get("amount") != session.get("amount_total") or intent.get("currency") != session.get(
            "currency"
        ):
            continue
        if intent.get("status") == "requires_payment_method" and intent.get("last_payment_error"):
            return intent
        return None  # the newest attempt for this amount did not fail (paying or paid)
    return None


def create_portal_session(customer: str, return_url: str) -> str:
    """The customer portal's URL (cancel, renew, switch to yearly, invoices)."""
    if not isinstance(customer, str) or not customer.startswith("cus_"):
        raise ValidationError("Invalid customer")
    if not re.match(r"^https?://[^\s]+$", return_url or ""):
        raise ValidationError("Invalid URL")
    params: dict[str, Any] = {"customer": customer, "return_url": return_url}
    configuration = _portal_configuration()
    if configuration:
        params["configuration"] = configuration
    return client().v1.billing_portal.sessions.create(params).url


def payment_link_url(kind: str, brand_id: str, email: str) -> str:
    """`GET payment-link/{kind}`: the payment link for `kind` carrying the brand
    (client_reference_id) and the member's email (prefilled_email)."""
    if kind not in catalogue.LINK_KINDS:
        raise ValidationError(f"Kind must be one of: {', '.join(catalogue.LINK_KINDS)}")
    if not isinstance(brand_id, str) or not _SAFE_ID.match(brand_id):
        raise ValidationError("Invalid brand id")
    if not _EMAIL.match(email or ""):
        raise ValidationError("Invalid email")
    url = catalogue_ids().links.get(kind)
    if not url:
        raise NotFound(f"The {kind} payment link is not set up in Stripe (run make stripe-sync).")
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}{urlencode({'client_reference_id': brand_id, 'prefilled_email': email})}"


# ---------------------------------------------------------------- plan changes and refunds


def upgrade_to_yearly(subscription_id: str) -> dict[str, Any]:
    """Move a monthly plan to yearly now: the unused month is credited and the year invoiced
    at once (proration `always_invoice`). Returns {ok, invoice, invoice_status,
    hosted_invoice_url}; ok is False when the payment failed (the invoice stays open for the
    member to pay from the portal, as the SPEC's failure text says)."""
    if not isinstance(subscription_id, str) or not subscription_id.startswith("sub_"):
        raise ValidationError("Invalid subscription")
    c = client()
    sub = _plain(c.v1.subscriptions.retrieve(subscription_id))
    if sub.get("status") not in billing.LIVE_SUB_STATUSES:
        raise Conflict("This plan has ended.")
    item = next(
        (
            i
            for i in sub["items"]["data"]
            if (info := catalogue.classify(i.get("price"))) is not None and info.kind == "main"
        ),
        None,
    )
    if item is None:
        raise Conflict("This subscription is not a membership plan.")
    if (item["price"].get("recurring") or {}).get("interval") == "year":
        raise Conflict("Your plan is already yearly.")
    yearly = price_id("tandem_main_yearly")
    updated = c.v1.subscriptions.update(
        subscription_id,
        {
            "items": [{"id": item["id"], "price": yearly}],
            "proration_behavior": "always_invoice",
            "cancel_at_period_end": False,
            "expand": ["latest_invoice"],
        },
        {"idempotency_key": f"tandem-upgrade-{subscription_id}-{item['price']['id']}"},
    )
    invoice = _plain(updated.latest_invoice) if updated.latest_invoice else {}
    return {
        "ok": invoice.get("status") == "paid",
        "invoice": invoice.get("id"),
        "invoice_status": invoice.get("status"),
        "hosted_invoice_url": invoice.get("hosted_invoice_url"),
    }


def refund_payment(
    payment_id: str, payment_intent: str, subscription: str | None, why: str = "money_back_guarantee"
) -> dict[str, Any]:
    """Refund one payment in full (its payment intent) and, when it paid for a subscription, end
    that subscription now. Repeating it refunds nothing twice (idempotency keys). Which payment
    may be refunded is billing's decision (tandem.services.billing.refunds)."""
    c = client()
    refund = c.v1.refunds.create(
        {
            "payment_intent": payment_intent,
            "reason": "requested_by_customer",
            "metadata": {"tandem": why, "payment": payment_id},
        },
        {"idempotency_key": f"tandem-refund-{payment_id}"},
    )
    cancelled = None
    if subscription:
        sub = c.v1.subscriptions.retrieve(subscription)
        if sub.status not in ("canceled", "incomplete_expired"):
            c.v1.subscriptions.cancel(
                subscription,
                {"cancellation_details": {"comment": f"Refunded ({why.replace('_', ' ')})"}},
                {"idempotency_key": f"tandem-refund-cancel-{subscription}"},
            )
        cancelled = subscription
    return {"payment": payment_id, "amount": refund.amount, "refund": refund.id, "cancelled": cancelled}


def cancel_subscription_now(subscription_id: str, comment: str) -> None:
    """End a subscription at once without a refund (an admin refused it and nothing was paid,
    e.g. a free trial). Repeating it changes nothing."""
    if not isinstance(subscription_id, str) or not subscription_id.startswith("sub_"):
        raise ValidationError("Invalid subscription")
    c = client()
    sub = c.v1.subscriptions.retrieve(subscription_id)
    if sub.status in ("canceled", "incomplete_expired"):
        return
    c.v1.subscriptions.cancel(
        subscription_id,
        {"cancellation_details": {"comment": comment}},
        {"idempotency_key": f"tandem-cancel-{subscription_id}"},
    )
