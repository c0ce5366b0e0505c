"""What the fake Stripe does: the objects, their life cycles and the events they emit.

The HTTP layers (api/ for /v1, pages.py for the hosted pages, controls.py for /_test) parse
and validate input, then call an Engine method while holding the store's lock. Every state
change emits an Event whose `data.object` is a snapshot of the object at that moment; the
webhook dispatcher delivers events after the change is complete.

`Engine` is composed of one part a resource (the modules beside this one); `base.EngineBase`
holds what they share: lookups, rendering and expansion, events. A part calls another's
methods through the composed Engine.
"""

from __future__ import annotations

from infra.local.fake_stripe.engine.base import API_VERSION, DEFAULT_BILLING_MODE, EngineBase, url_token
from infra.local.fake_stripe.engine.catalogue import CatalogueEngine
from infra.local.fake_stripe.engine.checkout import CheckoutEngine
from infra.local.fake_stripe.engine.clock import ClockEngine
from infra.local.fake_stripe.engine.customers import CustomersEngine
from infra.local.fake_stripe.engine.invoices import InvoicesEngine
from infra.local.fake_stripe.engine.links import LinksEngine
from infra.local.fake_stripe.engine.payments import PaymentsEngine
from infra.local.fake_stripe.engine.subscriptions import SubscriptionsEngine

__all__ = ["API_VERSION", "DEFAULT_BILLING_MODE", "Engine", "url_token"]


class Engine(
    CatalogueEngine,
    CustomersEngine,
    CheckoutEngine,
    PaymentsEngine,
    InvoicesEngine,
    SubscriptionsEngine,
    LinksEngine,
    ClockEngine,
    EngineBase,
):
    """The whole fake: every resource's part over one store."""
