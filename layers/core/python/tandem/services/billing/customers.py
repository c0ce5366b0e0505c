"""The account's Stripe customers: made before the first checkout, linked both ways (a
customer names its account, the account lists its customers), adopted from a payment link's
checkout, and told when the member's email changes."""

from __future__ import annotations

import time
from typing import Any

from tandem.errors import ValidationError
from tandem.integrations import stripe_client
from tandem.observability import logger
from tandem.store.billing import StripeCustomer
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, Brand, User, update_only


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
        except Exception:  # Stripe down must not fail the profile change
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
    if not link.put_new() and account_of_customer(customer_id) != account_id:
        raise ValidationError("This payment belongs to another account")
    try:
        update_only(
            Account,
            Account.key(account_id),
            actions=[Account.stripe_customers.set(Account.stripe_customers.append([customer_id]))],
            condition=Account.stripe_customers.exists() & ~Account.stripe_customers.contains(customer_id),
        )
    except ConditionFailed:
        try:  # the first customer: the list does not exist yet
            update_only(
                Account,
                Account.key(account_id),
                actions=[Account.stripe_customers.set([customer_id])],
                condition=Account.stripe_customers.does_not_exist(),
            )
        except ConditionFailed:
            pass  # else: already listed


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
