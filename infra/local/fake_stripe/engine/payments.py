"""PaymentIntents, charges and refunds: confirming a payment with a card (the outcome a test
card or a forced failure gives), and refunding a succeeded charge."""

from __future__ import annotations

import copy
import secrets
from typing import Any

from infra.local.fake_stripe.cards import FORCED_OUTCOMES, Card, parse_card
from infra.local.fake_stripe.engine.base import EngineBase
from infra.local.fake_stripe.store import public
from infra.local.fake_stripe.util import format_money, invalid, new_id


class PaymentsEngine(EngineBase):
    def _charge_session(
        self,
        session: dict[str, Any],
        customer: dict[str, Any] | None,
        pm: dict[str, Any],
        outcome: str,
        card: Card | None = None,
    ) -> dict[str, Any]:
        """Payment mode: confirm the session's PaymentIntent (the one a declined attempt left, if
        any, so a later good card pays that same intent), keep its id on the session, return it."""
        pi_data = session["_payment_intent_data"]
        current = session["payment_intent"]
        existing = self.store.get("payment_intent", current) if current else None
        intent, _charge = self._charge(
            amount=session["amount_total"],
            currency=session["currency"],
            customer=customer,
            pm=pm,
            metadata=dict(pi_data.get("metadata") or {}),
            description=pi_data.get("description"),
            outcome=outcome,
            card=card,
            intent=existing,
        )
        session["payment_intent"] = intent["id"]
        return intent

    def _charge(
        self,
        *,
        amount: int,
        currency: str,
        customer: dict[str, Any] | None,
        pm: dict[str, Any],
        metadata: dict[str, str],
        description: str | None,
        outcome: str,
        card: Card | None = None,
        intent: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Confirm a PaymentIntent (new or existing) with `pm`. outcome: succeeded | declined |
        authenticate. Returns (intent, charge or None)."""
        now = self.now()
        if intent is None:
            intent = {
                "id": new_id("pi_"),
                "object": "payment_intent",
                "amount": amount,
                "amount_capturable": 0,
                "amount_details": {"tip": {}},
                "amount_received": 0,
                "application": None,
                "application_fee_amount": None,
                "automatic_payment_methods": None,
                "canceled_at": None,
                "cancellation_reason": None,
                "capture_method": "automatic",
                "client_secret": None,
                "confirmation_method": "automatic",
                "created": now,
                "currency": currency,
                "customer": customer["id"] if customer else None,
                "description": description,
                "last_payment_error": None,
                "latest_charge": None,
                "livemode": False,
                "metadata": metadata,
                "next_action": None,
                "on_behalf_of": None,
                "payment_method": pm["id"],
                "payment_method_configuration_details": None,
                "payment_method_options": {"card": {"request_three_d_secure": "automatic"}},
                "payment_method_types": ["card"],
                "processing": None,
                "receipt_email": None,
                "setup_future_usage": None,
                "shipping": None,
                "source": None,
                "statement_descriptor": None,
                "statement_descriptor_suffix": None,
                "status": "requires_confirmation",
                "transfer_data": None,
                "transfer_group": None,
            }
            intent["client_secret"] = f"{intent['id']}_secret_{secrets.token_hex(12)}"
            self.store.put("payment_intent", intent)
            self.emit("payment_intent.created", "payment_intent", intent)
        intent["payment_method"] = pm["id"]
        if outcome == "authenticate":
            intent["status"] = "requires_action"
            intent["next_action"] = {
                "type": "use_stripe_sdk",
                "use_stripe_sdk": {"type": "three_d_secure_redirect"},
            }
            intent["last_payment_error"] = None
            self.emit("payment_intent.requires_action", "payment_intent", intent)
            return intent, None
        succeeded = outcome == "succeeded"
        charge = {
            "id": new_id("ch_"),
            "object": "charge",
            "amount": amount,
            "amount_captured": amount if succeeded else 0,
            "amount_refunded": 0,
            "application": None,
            "application_fee": None,
            "application_fee_amount": None,
            "balance_transaction": new_id("txn_") if succeeded else None,
            "billing_details": copy.deepcopy(pm["billing_details"]),
            "calculated_statement_descriptor": "TANDEM",
            "captured": succeeded,
            "created": now,
            "currency": currency,
            "customer": customer["id"] if customer else None,
            "description": description,
            "disputed": False,
            "failure_balance_transaction": None,
            "failure_code": None if succeeded else (card.code if card else "card_declined"),
            "failure_message": None if succeeded else (card.message if card else "Your card was declined."),
            "fraud_details": {},
            "livemode": False,
            "metadata": dict(metadata),
            "on_behalf_of": None,
            "outcome": {
                "network_status": "approved_by_network" if succeeded else "declined_by_network",
                "reason": None if succeeded else (card.decline_code if card else "generic_decline"),
                "risk_level": "normal",
                "seller_message": "Payment complete."
                if succeeded
                else "The bank did not return any further details.",
                "type": "authorized" if succeeded else "issuer_declined",
            },
            "paid": succeeded,
            "payment_intent": intent["id"],
            "payment_method": pm["id"],
            "payment_method_details": {
                "card": {
                    k: pm["card"][k]
                    for k in ("brand", "country", "exp_month", "exp_year", "funding", "last4")
                },
                "type": "card",
            },
            "receipt_email": None,
            "receipt_number": None,
            "receipt_url": None,
            "refunded": False,
            "review": None,
            "shipping": None,
            "source_transfer": None,
            "statement_descriptor": None,
            "statement_descriptor_suffix": None,
            "status": "succeeded" if succeeded else "failed",
            "transfer_data": None,
            "transfer_group": None,
        }
        self.store.put("charge", charge)
        intent["latest_charge"] = charge["id"]
        intent["next_action"] = None
        if succeeded:
            intent["status"] = "succeeded"
            intent["amount_received"] = amount
            intent["last_payment_error"] = None
            self.emit("charge.succeeded", "charge", charge)
            self.emit("payment_intent.succeeded", "payment_intent", intent)
        else:
            intent["status"] = "requires_payment_method"
            intent["last_payment_error"] = {
                "charge": charge["id"],
                "code": charge["failure_code"],
                "decline_code": charge["outcome"]["reason"],
                "message": charge["failure_message"],
                "payment_method": public(pm),
                "type": "card_error",
            }
            self.emit("charge.failed", "charge", charge)
            self.emit("payment_intent.payment_failed", "payment_intent", intent)
        return intent, charge

    def _off_session_outcome(self, pm: dict[str, Any] | None) -> tuple[str, Card | None]:
        """What the next off-session charge does: a forced outcome from fail_next_charge first,
        else the saved card's own behaviour."""
        if self.store.fail_next:
            forced = FORCED_OUTCOMES[self.store.fail_next.pop(0)]
            return forced.off_session, forced
        if pm is None:
            return "declined", FORCED_OUTCOMES["card_declined"]
        card = parse_card(pm["_number"])
        assert card is not None
        return card.off_session, card

    def fail_next_charge(self, code: str, count: int = 1) -> None:
        if code not in FORCED_OUTCOMES:
            raise invalid(f"Unknown failure code {code!r}; use one of {sorted(FORCED_OUTCOMES)}", "code")
        self.store.fail_next.extend([code] * count)

    def refundable_charge(self, charge: dict[str, Any]) -> int:
        """What is left to refund of `charge` (refused if it did not succeed or nothing is left)."""
        if charge["status"] != "succeeded":
            raise invalid(
                f"Charge {charge['id']} has not succeeded and cannot be refunded.",
                "charge",
                "charge_not_refundable",
            )
        remaining = charge["amount"] - charge["amount_refunded"]
        if remaining <= 0:
            raise invalid(
                f"Charge {charge['id']} has already been refunded.", "charge", "charge_already_refunded"
            )
        return remaining

    def intent_charge(self, intent: dict[str, Any]) -> dict[str, Any]:
        """The successful charge a refund of `intent` refunds."""
        if intent["status"] != "succeeded" or not intent["latest_charge"]:
            raise invalid(
                f"This PaymentIntent ({intent['id']}) does not have a successful charge to refund.",
                "payment_intent",
                "charge_not_refundable",
            )
        return self.get("charge", intent["latest_charge"])

    def create_refund(
        self,
        charge: dict[str, Any],
        amount: int | None = None,
        reason: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Refund `amount` (all that is left if None) of a succeeded charge: refund.created, then
        charge.refunded with the charge's new amount_refunded (and refunded once it is all)."""
        remaining = self.refundable_charge(charge)
        if amount is None:
            amount = remaining
        if amount > remaining:
            raise invalid(
                f"Refund amount ({format_money(amount, charge['currency'])}) is greater than unrefunded "
                f"amount on charge ({format_money(remaining, charge['currency'])})",
                "amount",
                "amount_too_large",
            )
        refund = {
            "id": new_id("re_"),
            "object": "refund",
            "amount": amount,
            "balance_transaction": new_id("txn_"),
            "charge": charge["id"],
            "created": self.now(),
            "currency": charge["currency"],
            "destination_details": {
                "card": {
                    "reference_status": "pending",
                    "reference_type": "acquirer_reference_number",
                    "type": "refund",
                },
                "type": "card",
            },
            "metadata": dict(metadata or {}),
            "payment_intent": charge["payment_intent"],
            "reason": reason,
            "receipt_number": None,
            "source_transfer_reversal": None,
            "status": "succeeded",
            "transfer_reversal": None,
        }
        self.store.put("refund", refund)
        self.emit("refund.created", "refund", refund)
        before = self.snapshot("charge", charge)
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] == charge["amount"]
        self.emit_updated("charge.refunded", "charge", charge, before)
        return refund
