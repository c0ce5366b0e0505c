"""GET stripe/payment-status/{id}: where a member's checkout stands as the
payment-processing page asks, syncing a paid session the account does not show yet."""

from __future__ import annotations

import re
from typing import Any

from tandem.domain import catalogue
from tandem.errors import NotFound
from tandem.integrations import stripe_client
from tandem.services.billing.customers import attach_customer, customers_of
from tandem.services.billing.sync import sync_account
from tandem.services.viewer import Viewer
from tandem.store.models import Account

NOT_FOUND = "Payment not found"
PAYMENT_KINDS = {
    "main": "subscription",
    "extra": "extra_credits",
    "addon": "addon",
    "fixed_term": "access",
    "feature": "feature",
}


def payment_status(viewer: Viewer, session_id: str) -> dict[str, Any]:
    """GET stripe/payment-status/{id}: a session of another account (or none) is a 404 that
    says nothing more. A paid session the account's state does not show yet is synced now, so
    the browser coming back before the webhook neither waits forever nor grants twice."""
    account = viewer.account
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
