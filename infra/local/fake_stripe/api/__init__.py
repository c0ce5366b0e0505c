"""The /v1 REST endpoints the app calls, as stripe-python 16 sends them (form-encoded bodies,
indexed arrays, `expand[n]`, an Idempotency-Key on every POST) and as Stripe answers them
(JSON objects, list objects, error objects with the right HTTP statuses).

One module a resource gives its own endpoints (ROUTES), the objects retrieved by id with no
more to it (RETRIEVE) and its lists (LISTINGS); `base` holds the plumbing and the shared
retrieve and list endpoints. Only what Tandem's code calls is routed (docs/decisions.md)."""

from __future__ import annotations

from infra.local.fake_stripe.api import catalogue, checkout, customers, events, links, payments, subscriptions
from infra.local.fake_stripe.api.base import CLIENT_REFERENCE, EMAIL, ApiBase, RawParams

__all__ = ["CLIENT_REFERENCE", "EMAIL", "Api", "RawParams"]


class Api(
    catalogue.CatalogueApi,
    customers.CustomersApi,
    checkout.CheckoutApi,
    subscriptions.SubscriptionsApi,
    payments.PaymentsApi,
    links.LinksApi,
    events.EventsApi,
    ApiBase,
):
    resources = (catalogue, customers, checkout, subscriptions, payments, links, events)
    retrievable = payments.RETRIEVE_PARAMS
