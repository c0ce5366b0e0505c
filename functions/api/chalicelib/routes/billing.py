"""Billing routes (issue 12; shapes in docs/api.md and BILLING_CONTRACT.md): products, the
payment-processing page's status, webhooks in progress, the portal, payment links and the
yearly upgrade. Each checks the member and their brand first (member_for_brand), then asks
tandem.services.billing."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import Member, member_for_brand
from chalicelib.http import json_body, route
from tandem.observability import count_event
from tandem.store.models import Account

bp = Blueprint(__name__)


def _member() -> Member:
    from tandem.services import entitlements

    return member_for_brand(bp.current_request, also=entitlements.with_account)


def _account(member: Member) -> Account | None:
    return member.item(Account, member.user.account_id)


@route(bp, "/products", methods=["GET"])
def get_products() -> dict:
    from tandem.services import billing

    member = _member()
    return billing.products(_account(member), member.user, member.brand, create_customer=False)


@route(bp, "/products", methods=["POST"])
def post_products() -> dict:
    from tandem.services import billing

    member = _member()
    body = json_body(bp.current_request)
    return billing.products(_account(member), member.user, member.brand, body.get("redirect"))


@route(bp, "/checkout", methods=["POST"])
def post_checkout() -> dict:
    from tandem.services import billing

    member = _member()
    body = json_body(bp.current_request)
    session = billing.checkout(
        _account(member), member.user, member.brand, body.get("priceId"), body.get("redirect")
    )
    count_event("CheckoutSessionCreated")  # the member is sent to Stripe Checkout
    return session


@route(bp, "/stripe/payment-status/{checkoutSessionId}", methods=["GET"])
def payment_status(checkoutSessionId: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    from tandem.services import billing

    member = _member()
    return billing.payment_status(_account(member), checkoutSessionId)


@route(bp, "/users/webhooks-in-progress", methods=["GET"])
def webhooks_in_progress() -> dict:
    from tandem.services import billing, stripe_events

    member = _member()
    return stripe_events.in_progress(billing.customers_of(_account(member)))


@route(bp, "/users/stripe-portal-url", methods=["GET"])
def portal_url() -> dict:
    from tandem.services import billing

    member = _member()
    return billing.portal_url(_account(member))


@route(bp, "/payment-link/{kind}", methods=["GET"])
def payment_link(kind: str) -> dict:
    from tandem.services import billing

    member = _member()
    return billing.payment_link(kind, member.user, member.brand)


@route(bp, "/users/yearly-upgrade", methods=["GET"])
def yearly_upgrade() -> dict:
    from tandem.services import billing

    member = _member()
    return billing.yearly_upgrade(_account(member), member.user)
