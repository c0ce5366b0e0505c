"""The member's plan in Stripe's hands: the payment portal, payment links, the yearly upgrade."""

from __future__ import annotations

import time
from typing import Any

from tandem.config import settings
from tandem.domain import catalogue
from tandem.errors import Conflict, PaymentRequired, ValidationError
from tandem.integrations import stripe_client
from tandem.services.billing.customers import customers_of
from tandem.services.billing.sync import sync_account
from tandem.services.viewer import Viewer

NO_CUSTOMER = "You don't have a subscription to manage yet"
UNKNOWN_LINK = "Unknown payment link"
NOT_MONTHLY = "Only a monthly subscription can be upgraded to yearly"
UPGRADED = "Thanks, your yearly upgrade has been processed successfully..."
UPGRADE_FAILED = (
    "Sorry, there was an error processing the payment for your yearly upgrade. Click the "
    '"Access ..." button below to view the failed invoice and try the payment again.'
)


def portal_url(viewer: Viewer) -> dict[str, str]:
    customers = customers_of(viewer.account)
    if not customers:
        raise ValidationError(NO_CUSTOMER)
    site = settings().site_url.rstrip("/")
    return {"url": stripe_client.create_portal_session(customers[0], f"{site}/account/subscriptions/")}


def payment_link(viewer: Viewer, kind: str) -> dict[str, str]:
    if kind not in catalogue.LINK_KINDS:
        raise ValidationError(UNKNOWN_LINK)
    return {"link": stripe_client.payment_link_url(kind, str(viewer.brand_id), viewer.user.email)}


def yearly_upgrade(viewer: Viewer) -> dict[str, Any]:
    account = viewer.account
    record = (account.billing if account else None) or {}
    r = viewer.rights([], int(time.time()))
    if account is None or not r.upgrade_to_yearly or not record.get("subscription_id"):
        raise ValidationError(NOT_MONTHLY)

    try:
        result = stripe_client.upgrade_to_yearly(record["subscription_id"])
    except Conflict:
        sync_account(account.account_id)
        raise ValidationError(NOT_MONTHLY) from None
    sync_account(account.account_id)
    if not result["ok"]:
        raise PaymentRequired(UPGRADE_FAILED)
    return {"upgraded": True, "message": UPGRADED}
