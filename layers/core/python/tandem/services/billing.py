"""Billing with Stripe (issue 12; the routes' shapes are BILLING_CONTRACT.md's).

One `sync_account` re-reads the account's Stripe customer(s) (subscriptions, invoices,
checkout sessions, charges), computes the billing state with `tandem.domain.billing.compute`,
makes the credit grants it earns (each keyed by its grant key, the ledger's op id, so a
redelivered event, or checkout.session.completed and invoice.paid for one invoice, never grant
twice), takes back the credits of refunded payments, and writes the billing record on the
account. Every Stripe event and the payment-processing page call it; nothing trusts an event's
payload or order. A sync whose snapshot was read before the one already written leaves the
account alone (`billing_synced_at`), so two syncs at once cannot put an older state back.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.exceptions import PutError, UpdateError

from tandem.config import settings
from tandem.domain import billing, catalogue
from tandem.domain import credits as credit_rules
from tandem.errors import NotFound, PaymentRequired, ValidationError
from tandem.integrations import stripe_client
from tandem.observability import logger
from tandem.services import billing_notices, credits, entitlements
from tandem.store.admin import approval_queue_actions
from tandem.store.models import Account, Brand, StripeCustomer, User, update_only

CONTRACT_IDS, CONTRACT_NAMES, CONTRACT_ORDER = (
    catalogue.CONTRACT_IDS,
    catalogue.CONTRACT_NAMES,
    catalogue.CONTRACT_ORDER,
)
PAYMENT_KINDS = {
    "main": "subscription",
    "extra": "extra_credits",
    "addon": "addon",
    "fixed_term": "access",
    "feature": "feature",
}
SESSIONS_KEPT = 50  # paid checkout sessions remembered on the record (payment-status `processed`)
BAD_REDIRECT = "Choose where to come back to after paying"
NOT_FOUND = "Payment not found"
NO_CUSTOMER = "You don't have a subscription to manage yet"
UNKNOWN_LINK = "Unknown payment link"
UNKNOWN_PRICE = "Choose one of the plans on offer"
NOT_MONTHLY = "Only a monthly subscription can be upgraded to yearly"
UPGRADED = "Thanks, your yearly upgrade has been processed successfully..."
UPGRADE_FAILED = (
    "Sorry, there was an error processing the payment for your yearly upgrade. Click the "
    '"Access ..." button below to view the failed invoice and try the payment again.'
)
DEFAULT_RETURN = "/account/subscriptions"

# redirect (an app path) -> (page type, item) for stripe_client.payment_return_path
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


# ---------------------------------------------------------------- customers


def customers_of(account: Account | None) -> list[str]:
    return list(account.stripe_customers or []) if account is not None else []


def account_of_customer(customer_id: str) -> str | None:
    found = StripeCustomer.find(customer_id, consistent=True)
    return found.account_id if found else None


def member_email_changed(account_id: str, old: str, new: str) -> None:
    """A member's new address goes to the account's Stripe customers that had the old one.
    The address is already changed here: Stripe failing is logged (with the ids only) and does
    not undo it."""
    account = Account.find(account_id)
    for customer in customers_of(account):
        try:
            stripe_client.update_customer_email(customer, old, new)
        except Exception:  # noqa: BLE001 (Stripe down must not fail the profile change)
            logger.warning(
                "Stripe customer email not updated", extra={"account": account_id, "customer": customer}
            )


def attach_customer(account_id: str, customer_id: str) -> None:
    """Link a Stripe customer to the account (both ways); repeating it changes nothing."""
    link = StripeCustomer(
        *StripeCustomer.key(customer_id),
        customer_id=customer_id,
        account_id=account_id,
        created_at=int(time.time()),
    )
    try:
        link.save(condition=StripeCustomer.pk.does_not_exist())
    except PutError as exc:
        if exc.cause_response_code != "ConditionalCheckFailedException":
            raise
        if account_of_customer(customer_id) != account_id:
            raise ValidationError("This payment belongs to another account") from None
    try:
        update_only(
            Account,
            Account.key(account_id),
            actions=[Account.stripe_customers.set(Account.stripe_customers.append([customer_id]))],
            condition=Account.stripe_customers.exists() & ~Account.stripe_customers.contains(customer_id),
        )
    except UpdateError as exc:
        if exc.cause_response_code != "ConditionalCheckFailedException":
            raise
        try:  # the first customer: the list does not exist yet
            update_only(
                Account,
                Account.key(account_id),
                actions=[Account.stripe_customers.set([customer_id])],
                condition=Account.stripe_customers.does_not_exist(),
            )
        except UpdateError as again:
            if again.cause_response_code != "ConditionalCheckFailedException":
                raise  # else: already listed


def record(account_id: str) -> dict[str, Any]:
    """The billing record on the account ({} before its first sync)."""
    account = Account.find(account_id, consistent=True)
    return dict((account.billing if account else None) or {})


def ensure_customer(account: Account, user: User, brand: Brand) -> str:
    """The account's Stripe customer, created (and stored) before its first checkout."""
    existing = customers_of(account)
    if existing:
        return existing[0]
    customer = stripe_client.create_customer(
        account.account_id, email=user.email, name=brand.name, brand_id=str(int(brand.brand_id))
    )
    attach_customer(account.account_id, customer)
    account.stripe_customers = [customer]
    return customer


# ---------------------------------------------------------------- sync_customer


def _record_input(account: Account) -> dict[str, Any]:
    """What the Stripe computation needs of the account beyond Stripe: the admin's approval and
    the last payment already noticed. Nothing Tandem grants goes in, nothing of it comes out."""
    stored = account.billing or {}
    return {
        "approval": account.billing_approval,
        "feature_only": False,
        "last_payment_id": stored.get("latest_payment_id"),
    }


def _paid_sessions(snapshot: dict[str, Any]) -> list[str]:
    paid = [
        s
        for s in snapshot.get("checkout_sessions") or []
        if s.get("status") == "complete" and s.get("payment_status") in ("paid", "no_payment_required")
    ]
    paid.sort(key=lambda s: (int(s.get("created") or 0), s.get("id") or ""), reverse=True)
    return [s["id"] for s in paid[:SESSIONS_KEPT]]


def _bucket_id(key: str) -> str:
    import hashlib

    return hashlib.sha256(key.encode()).hexdigest()[:20]  # as credits.grant names a grant's bucket


def sync_account(account_id: str, now: int | None = None) -> billing.BillingState | None:
    """Re-read the account's Stripe customers and write what they add up to. None when the
    account has no Stripe customer (nothing to read)."""
    now = int(now if now is not None else time.time())
    account = Account.find(account_id, consistent=True)
    customers = customers_of(account)
    if account is None or not customers:
        return None
    read_at = int(time.time() * 1000)
    snapshot = stripe_client.fetch_customer_snapshot(customers)
    held = credits.buckets(account_id)
    state = billing.compute(snapshot, _record_input(account), now)
    have = {b.bucket_id for b in held}
    known = {g.key for g in state.grants} | set(state.revoked)
    existing = {key for key in known if _bucket_id(key) in have}
    # The plan first, then its credits: a member who sees the new credits can spend them
    # (granting first left a moment with 6 credits and no plan, and a send was refused).
    record = {**state.to_record(), "paid_sessions": _paid_sessions(snapshot)}
    try:
        update_only(
            Account,
            Account.key(account_id),
            actions=[
                Account.billing.set(record),
                Account.billing_synced_at.set(read_at),
                Account.subscription_status.set(_stored_status(state.status)),
                Account.subscription_valid_to.set(state.valid_to)
                if state.valid_to is not None
                else Account.subscription_valid_to.remove(),
                *Account.due_actions(billing.next_grant_at(state, now), account_id),
                *approval_queue_actions(_pending_since(state, now), account_id),
            ],
            condition=Account.billing_synced_at.does_not_exist() | (Account.billing_synced_at < read_at),
        )
    except UpdateError as exc:
        if exc.cause_response_code != "ConditionalCheckFailedException":
            raise
        logger.info("A later billing sync was written first", extra={"account": account_id})
    made = billing.grants_to_make(state, existing, now)
    for grant in made:
        credits.grant(
            account_id,
            kind=grant.kind,
            amount=grant.amount,
            valid_from=grant.valid_from,
            valid_to=grant.valid_to,
            op_id=grant.key,
            product_name=grant.product_name,
        )
    for key in billing.revocations(state, existing):
        credits.revoke(account_id, key, "payment refunded")
    billing_notices.payments_landed(account_id, state.payments, now)  # receipts, once per payment
    logger.info(
        "Billing synced",
        extra={"account": account_id, "status": state.status, "granted": [g.key for g in made]},
    )
    return state


def _pending_since(state: billing.BillingState, now: int) -> str | None:
    """When the plan awaiting approval began (the admin console's queue), else None."""
    if state.status != "pending_approval":
        return None
    from datetime import UTC, datetime

    return datetime.fromtimestamp(int(state.period_start or now), UTC).isoformat()


def _stored_status(status: str) -> str:
    """subscription_status keeps the Stripe plan statuses (tandem.domain.entitlements reads them)."""
    return status if status in entitlements.rules.STRIPE_PLANS else "none"


def grant_due_months(now: int | None = None) -> dict[str, Any]:
    """Scheduler job: a yearly plan is invoiced once a year but earns 6 credits each month (and
    a fixed term every 30 days): sync every account whose next credit month has begun."""
    now = int(now if now is not None else time.time())
    synced, failed = 0, []
    for account in list(Account.due_by(now)):
        try:
            sync_account(account.account_id, now)
            synced += 1
        except Exception:  # one account's Stripe trouble does not stop the others
            logger.exception("Monthly grant failed", extra={"account": account.account_id})
            failed.append(account.account_id)
    return {"synced": synced, "failed": failed}


def sync_customer(customer_id: str, now: int | None = None) -> billing.BillingState | None:
    """sync_account for the account the customer belongs to (None: not one of ours)."""
    account_id = account_of_customer(customer_id)
    return sync_account(account_id, now) if account_id else None


def adopt_checkout_customer(session: dict[str, Any]) -> str | None:
    """A payment link's checkout makes its own customer: the brand it carries
    (client_reference_id) says whose it is. Returns the account it was linked to."""
    customer = session.get("customer")
    if isinstance(customer, dict):
        customer = customer.get("id")
    if not isinstance(customer, str) or not customer.startswith("cus_"):
        return None
    owner = account_of_customer(customer)
    if owner:
        return owner
    metadata = session.get("metadata") or {}
    account_id = metadata.get("account")
    brand_ref = session.get("client_reference_id") or metadata.get("brand")
    if not account_id and isinstance(brand_ref, str) and brand_ref.isdigit():
        brand = Brand.find(int(brand_ref))
        account_id = brand.account_id if brand else None
    if not account_id or Account.find(account_id) is None:
        return None
    attach_customer(account_id, customer)
    return account_id


# ---------------------------------------------------------------- products


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


def _viewer(
    account: Account | None, user: User, held: list[credit_rules.Bucket], now: int
) -> catalogue.Viewer:
    """What the catalogue offers this member: the rights entitlements gives them."""
    return entitlements.rights(account, held, now, feature_only=user.access == "feature").viewer()


def _checkout_page(account: Account | None, brand: Brand, redirect: Any) -> tuple[str, str | None]:
    page, item = return_page(redirect)
    if account is None:
        raise NotFound("Account not found")
    if page == "request" and not str(redirect).startswith(f"/requests/received/{int(brand.brand_id)}/"):
        raise ValidationError(BAD_REDIRECT)  # the request page of another brand
    return page, item


def products(
    account: Account | None, user: User, brand: Brand, redirect: Any = None, *, create_customer: bool = True
) -> dict[str, Any]:
    """GET products / POST products {redirect}: each option's `link` is a Checkout Session for
    this member and brand that comes back to `redirect` (created at once, side by side; two
    calls within 15 minutes get the same sessions).

    GET products passes `create_customer=False`: a GET writes nothing, so an account without a
    Stripe customer yet gets `link: null` and its Buy now asks `checkout` (a POST), which
    creates the customer before the first checkout."""
    page, item = _checkout_page(account, brand, redirect)
    assert account is not None
    now = int(time.time())
    held = credits.buckets(account.account_id)
    ids = stripe_client.catalogue_ids()
    viewer = _viewer(account, user, held, now)
    lookup_ids = catalogue.StripeIds(prices={k: k for k in ids.prices}, links=ids.links)
    needed = credits_needed(redirect)
    wanted = catalogue.products_response(
        lookup_ids, viewer, now, needed_credits=needed, link_for=lambda s, k: None
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
    if keys:
        customer = ensure_customer(account, user, brand)
        brand_id = str(int(brand.brand_id))

        def session(key: str) -> str:
            return _create_session(key, customer, account, brand_id, user, page, item, now)["url"]

        with ThreadPoolExecutor(max_workers=min(4, len(keys))) as pool:
            links = dict(zip(keys, pool.map(session, keys), strict=True))
    answer = catalogue.products_response(
        lookup_ids, viewer, now, needed_credits=needed, link_for=lambda spec, key: links.get(key)
    )
    for product in answer["products"]:
        contract_id = CONTRACT_IDS.get(product["id"], product["id"])
        product["id"] = contract_id
        product["name"] = CONTRACT_NAMES.get(contract_id, product["name"])
    answer["products"].sort(key=lambda p: CONTRACT_ORDER.index(p["id"]) if p["id"] in CONTRACT_ORDER else 99)
    return answer


def checkout(
    account: Account | None, user: User, brand: Brand, price_id: Any, redirect: Any = None
) -> dict[str, str]:
    """POST checkout {priceId, redirect}: one Checkout Session for one of the options the
    products answer offers this member (the lazy form of BILLING_CONTRACT.md), creating the
    account's Stripe customer first if it has none. An option not offered is a 400."""
    page, item = _checkout_page(account, brand, redirect)
    assert account is not None
    if not isinstance(price_id, str) or not price_id:
        raise ValidationError(UNKNOWN_PRICE)
    now = int(time.time())
    held = credits.buckets(account.account_id)
    ids = stripe_client.catalogue_ids()
    lookup_ids = catalogue.StripeIds(prices={k: k for k in ids.prices}, links=ids.links)
    offered = catalogue.products_response(
        lookup_ids,
        _viewer(account, user, held, now),
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
) -> dict[str, Any]:
    """The Checkout Session for one option of the products answer: a price's lookup key, or
    the monthly plan's lookup key + catalogue.TRIAL_SUFFIX for its free trial."""
    trial = option_id.endswith(catalogue.TRIAL_SUFFIX)
    return stripe_client.create_checkout_session(
        customer=customer,
        lookup_key=option_id.removesuffix(catalogue.TRIAL_SUFFIX),
        account_id=account.account_id,
        brand_id=brand_id,
        user_id=user.user_id,
        page_type=page,
        item_id=item,
        now=now,
        trial_days=entitlements.rules.TRIAL_DAYS if trial else None,
    )


def credits_needed(redirect: Any) -> int:
    return catalogue.credits_needed_for(redirect if isinstance(redirect, str) else None)


# ---------------------------------------------------------------- payment status


def payment_status(account: Account | None, session_id: str) -> dict[str, Any]:
    """GET stripe/payment-status/{id}: a session of another account (or none) is a 404 that
    says nothing more. A paid session the account's state does not show yet is synced now, so
    the browser coming back before the webhook neither waits forever nor grants twice."""
    if (
        account is None
        or not isinstance(session_id, str)
        or not re.match(r"^cs_[A-Za-z0-9_]{1,200}$", session_id)
    ):
        raise NotFound(NOT_FOUND)
    try:
        session = stripe_client.get_checkout_session(session_id)
    except NotFound:
        raise NotFound(NOT_FOUND) from None
    customer = session.get("customer")
    if isinstance(customer, dict):
        customer = customer.get("id")
    metadata = session.get("metadata") or {}
    mine = customer in customers_of(account) or (
        metadata.get("account") == account.account_id and customer is not None
    )
    if not mine:
        raise NotFound(NOT_FOUND)
    status = _session_status(session)
    processed = session_id in ((account.billing or {}).get("paid_sessions") or [])
    if status == "paid" and not processed:
        if customer not in customers_of(account):
            attach_customer(account.account_id, customer)
        sync_account(account.account_id)
        fresh = Account.find(account.account_id, consistent=True)
        processed = session_id in (((fresh.billing if fresh else None) or {}).get("paid_sessions") or [])
    kind = (
        metadata.get("kind")
        or (catalogue.BY_LOOKUP.get(metadata.get("lookup_key") or "") or catalogue.PRICES[0]).kind
    )
    answer: dict[str, Any] = {
        "status": status,
        "kind": PAYMENT_KINDS.get(kind, "subscription"),
        "processed": processed,
    }
    if status == "failed":
        answer["message"] = _failure_message(session)
    return answer


_FAILED_INTENT = ("requires_payment_method", "canceled")


def _intent(session: dict[str, Any]) -> dict[str, Any]:
    """The session's payment intent (payment mode), or, for an open subscription-mode session,
    its declined attempt at the first payment (stripe_client.get_checkout_session)."""
    intent = session.get("payment_intent")
    if not isinstance(intent, dict):
        intent = session.get("declined_attempt")
    return intent if isinstance(intent, dict) else {}


def _session_status(session: dict[str, Any]) -> str:
    """paid | pending | failed | expired | open. failed: the last attempt was declined (the
    session is still open, its payment intent, or in subscription mode its declined attempt at
    the first payment, holds the decline) or an asynchronous payment
    failed (complete, unpaid, the intent back to requires_payment_method or cancelled)."""
    intent = _intent(session)
    if session.get("status") == "expired":
        return "expired"
    if session.get("status") == "open":
        return "failed" if intent.get("last_payment_error") else "open"
    payment = session.get("payment_status")
    if payment in ("paid", "no_payment_required"):
        return "paid"
    if intent.get("status") in _FAILED_INTENT:
        return "failed"
    return "pending"  # complete but unpaid: an asynchronous payment still on its way


FAILED_DEFAULT = "Your payment didn't go through."


def _failure_message(session: dict[str, Any]) -> str:
    """The bank's reason as Stripe words it for the customer ('Your card was declined.')."""
    error = _intent(session).get("last_payment_error") or {}
    message = error.get("message") if isinstance(error, dict) else None
    if isinstance(message, str) and 0 < len(message) <= 300:
        return message
    return FAILED_DEFAULT


# ---------------------------------------------------------------- portal, links, upgrade


def portal_url(account: Account | None) -> dict[str, str]:
    customers = customers_of(account)
    if not customers:
        raise ValidationError(NO_CUSTOMER)
    site = settings().site_url.rstrip("/")
    return {"url": stripe_client.create_portal_session(customers[0], f"{site}/account/subscriptions/")}


def payment_link(kind: str, user: User, brand: Brand) -> dict[str, str]:
    if kind not in catalogue.LINK_KINDS:
        raise ValidationError(UNKNOWN_LINK)
    return {"link": stripe_client.payment_link_url(kind, str(int(brand.brand_id)), user.email)}


def yearly_upgrade(account: Account | None) -> dict[str, Any]:
    record = (account.billing if account else None) or {}
    r = entitlements.rights(account, [], int(time.time()))
    if account is None or not r.upgrade_to_yearly or not record.get("subscription_id"):
        raise ValidationError(NOT_MONTHLY)
    from tandem.errors import Conflict

    try:
        result = stripe_client.upgrade_to_yearly(record["subscription_id"])
    except Conflict:
        sync_account(account.account_id)
        raise ValidationError(NOT_MONTHLY) from None
    sync_account(account.account_id)
    if not result["ok"]:
        raise PaymentRequired(UPGRADE_FAILED)
    return {"upgraded": True, "message": UPGRADED}
