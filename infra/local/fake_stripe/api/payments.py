"""/v1/invoices, /v1/payment_intents, /v1/charges and /v1/refunds."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.api.base import ApiBase, Listing, Params, RawParams, created, equals
from infra.local.fake_stripe.util import invalid


def _subscription(params: Params, name: str) -> Any:
    wanted = params.str(name)
    if wanted is None:
        return None
    return lambda i: ((i["parent"] or {}).get("subscription_details") or {}).get("subscription") == wanted


ROUTES = [
    ("/v1/invoices/<id>/pay", "POST", "pay_invoice"),
    ("/v1/refunds", "POST", "create_refund"),
]
RETRIEVE = {
    "/v1/invoices/<id>": "invoice",
    "/v1/payment_intents/<id>": "payment_intent",
    "/v1/charges/<id>": "charge",
    "/v1/refunds/<id>": "refund",
}
RETRIEVE_PARAMS = {"payment_intent": ("client_secret",)}
LISTINGS = {
    "invoices": Listing(
        "invoice",
        "/v1/invoices",
        {
            "customer": equals(),
            "subscription": _subscription,
            "status": equals(choices=("draft", "open", "paid", "uncollectible", "void")),
            "created": created,
        },
        accepted=("collection_method",),
    ),
    "payment_intents": Listing(
        "payment_intent", "/v1/payment_intents", {"customer": equals(), "created": created}
    ),
    "charges": Listing(
        "charge",
        "/v1/charges",
        {"customer": equals(), "payment_intent": equals(), "created": created},
    ),
    "refunds": Listing(
        "refund",
        "/v1/refunds",
        {"charge": equals(), "payment_intent": equals(), "created": created},
    ),
}


class PaymentsApi(ApiBase):
    def pay_invoice(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(("off_session", "payment_method"))
        if params.has("payment_method"):
            raise invalid(
                "Paying with another payment_method is not supported by the local fake.", "payment_method"
            )
        invoice = self.engine.pay_invoice(self.engine.get("invoice", id))
        return self._render("invoice", invoice, params)

    def create_refund(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("charge", "payment_intent", "amount", "reason", "metadata"))
        if params.has("charge") == params.has("payment_intent"):
            raise invalid(
                "One of the following params should be provided for this request: payment_intent or charge.",
                "charge",
            )
        if params.has("payment_intent"):
            intent = self.engine.get("payment_intent", params.str("payment_intent"), "payment_intent")
            charge = self.engine.intent_charge(intent)
        else:
            charge = self.engine.get("charge", params.str("charge"), "charge")
        amount = params.int("amount", self.engine.refundable_charge(charge), minimum=1)
        refund = self.engine.create_refund(
            charge,
            amount,
            reason=params.str("reason", choices=("duplicate", "fraudulent", "requested_by_customer")),
            metadata=self._metadata(params) if params.has("metadata") else {},
        )
        return self._render("refund", refund, params)
