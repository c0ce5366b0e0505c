"""The /v1 REST endpoints the app calls, as stripe-python 16 sends them (form-encoded bodies,
indexed arrays, `expand[n]`, an Idempotency-Key on every POST) and as Stripe answers them
(JSON objects, list objects, error objects with the right HTTP statuses).

One module a resource gives its own endpoints (ROUTES), the objects retrieved by id with no
more to it (RETRIEVE) and its lists (LISTINGS); `base` holds the plumbing and the shared
retrieve and list endpoints. Only what Tandem's code calls is routed (docs/decisions.md)."""

from __future__ import annotations

from typing import Any

from werkzeug.routing import Rule

from infra.local.fake_stripe.api import catalogue, checkout, customers, events, links, payments, subscriptions
from infra.local.fake_stripe.api.base import CLIENT_REFERENCE, EMAIL, ApiBase, RawParams

__all__ = ["CLIENT_REFERENCE", "EMAIL", "Api", "RawParams"]

RESOURCES = (catalogue, customers, checkout, subscriptions, payments, links, events)


def _rules() -> list[Rule]:
    rules = []
    for module in RESOURCES:
        rules += [Rule(path, methods=[method], endpoint=name) for path, method, name in module.ROUTES]
        rules += [
            Rule(path, methods=["GET"], endpoint="retrieve", defaults={"kind": kind})
            for path, kind in module.RETRIEVE.items()
        ]
        rules += [
            Rule(listing.url, methods=["GET"], endpoint="list_objects", defaults={"listing": name})
            for name, listing in module.LISTINGS.items()
        ]
    return rules


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
    retrievable = payments.RETRIEVE_PARAMS
    listings = {name: listing for module in RESOURCES for name, listing in module.LISTINGS.items()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs, rules=_rules())
