"""Billing with Stripe, by job (issue 21), as tandem.services.requests is:

- `customers`: the account's Stripe customers (made, linked, adopted, told of a new email);
- `sync`: Stripe's part of the account re-read and written, its credit grants made;
- `checkout`: what a member may buy (entitlements decides) and the one checkout path;
- `payments`: a checkout's status for the payment-processing page;
- `plans`: the payment portal, payment links, the yearly upgrade;
- `refunds`: the money-back guarantee's choice of payment.

Routes and other services import the names below from here.
"""

from tandem.services.billing.checkout import (
    checkout,
    credits_needed,
    feature_checkout,
    payment_return_path,
    products,
    return_page,
)
from tandem.services.billing.customers import (
    account_of_customer,
    adopt_checkout_customer,
    attach_customer,
    customers_of,
    ensure_customer,
    member_email_changed,
)
from tandem.services.billing.payments import payment_status
from tandem.services.billing.plans import payment_link, portal_url, yearly_upgrade
from tandem.services.billing.refunds import refund_latest_payment
from tandem.services.billing.sync import grant_due_months, record, sync_account, sync_customer

__all__ = [
    "account_of_customer",
    "adopt_checkout_customer",
    "attach_customer",
    "checkout",
    "credits_needed",
    "customers_of",
    "ensure_customer",
    "feature_checkout",
    "grant_due_months",
    "member_email_changed",
    "payment_link",
    "payment_return_path",
    "payment_status",
    "portal_url",
    "products",
    "refund_latest_payment",
    "record",
    "return_page",
    "sync_account",
    "sync_customer",
    "yearly_upgrade",
]
