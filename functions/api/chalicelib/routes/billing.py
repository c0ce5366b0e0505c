"""Billing routes (issue 12; shapes in docs/api.md and BILLING_CONTRACT.md): products, the
payment-processing page's status, webhooks in progress, the portal, payment links and the
yearly upgrade. Each checks the member and their brand at the door (with the account: tandem.services.viewer
ACCOUNT), then asks tandem.services.billing."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.door import route
from chalicelib.http import json_body
from tandem.observability import count_event
from tandem.services import billing, stripe_events
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/products", methods=["GET"], reads=reads.ACCOUNT)
def get_products(viewer: Viewer) -> dict:
    return billing.products(viewer, create_customer=False)


@route(bp, "/products", methods=["POST"], reads=reads.ACCOUNT)
def post_products(viewer: Viewer) -> dict:
    body = json_body(bp.current_request)
    return billing.products(viewer, body.get("redirect"))


@route(bp, "/checkout", methods=["POST"], reads=reads.ACCOUNT)
def post_checkout(viewer: Viewer) -> dict:
    body = json_body(bp.current_request)
    session = billing.checkout(viewer, body.get("priceId"), body.get("redirect"))
    count_event("CheckoutSessionCreated")  # the member is sent to Stripe Checkout
    return session


@route(bp, "/stripe/payment-status/{checkoutSessionId}", methods=["GET"], reads=reads.ACCOUNT)
def payment_status(viewer: Viewer, checkoutSessionId: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    return billing.payment_status(viewer, checkoutSessionId)


@route(bp, "/users/webhooks-in-progress", methods=["GET"], reads=reads.ACCOUNT)
def webhooks_in_progress(viewer: Viewer) -> dict:
    return stripe_events.in_progress(billing.customers_of(viewer.account))


@route(bp, "/users/stripe-portal-url", methods=["GET"], reads=reads.ACCOUNT)
def portal_url(viewer: Viewer) -> dict:
    return billing.portal_url(viewer)


@route(bp, "/payment-link/{kind}", methods=["GET"], reads=reads.ACCOUNT)
def payment_link(viewer: Viewer, kind: str) -> dict:
    return billing.payment_link(viewer, kind)


@route(bp, "/users/yearly-upgrade", methods=["GET"], reads=reads.ACCOUNT)
def yearly_upgrade(viewer: Viewer) -> dict:
    return billing.yearly_upgrade(viewer)
