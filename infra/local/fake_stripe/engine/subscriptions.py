"""Subscriptions: the first period from a checkout, updates (items, prorations, cancellation
at period end), settling past_due, cancelling."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.cards import Card
from infra.local.fake_stripe.engine.base import DAY, EngineBase
from infra.local.fake_stripe.util import (
    StripeError,
    add_interval,
    format_date,
    invalid,
    missing,
    new_id,
    period_end,
)


class SubscriptionsEngine(EngineBase):
    def _item(
        self, sub_id: str, price: dict[str, Any], quantity: int, period: tuple[int, int]
    ) -> dict[str, Any]:
        return {
            "id": new_id("si_", 14),
            "object": "subscription_item",
            "billing_thresholds": None,
            "created": self.now(),
            "current_period_end": period[1],
            "current_period_start": period[0],
            "discounts": [],
            "metadata": {},
            "plan": None,
            "price": None,
            "quantity": quantity,
            "subscription": sub_id,
            "tax_rates": [],
            "_price": price["id"],
        }

    @staticmethod
    def _interval(price: dict[str, Any]) -> tuple[str, int]:
        recurring = price["recurring"]
        return recurring["interval"], recurring["interval_count"]

    def sub_period(self, sub: dict[str, Any]) -> tuple[int, int]:
        first = sub["items"]["data"][0]
        return first["current_period_start"], first["current_period_end"]

    def _set_period(self, sub: dict[str, Any], period: tuple[int, int]) -> None:
        for item in sub["items"]["data"]:
            item["current_period_start"], item["current_period_end"] = period

    def _sub_interval(self, sub: dict[str, Any]) -> tuple[str, int]:
        return self._interval(self.price(sub["items"]["data"][0]["_price"]))

    def _start_subscription(
        self,
        customer: dict[str, Any],
        recurring: list[dict[str, Any]],
        one_time: list[dict[str, Any]],
        *,
        metadata: dict[str, str],
        description: str | None,
        trial_days: int | None,
        trial_end: int | None,
        pm: dict[str, Any],
        billing_mode: str = "flexible",
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        now = self.now()
        interval, count = self._interval(recurring[0]["price"])
        if trial_days:
            trial_end = now + trial_days * DAY
        anchor = trial_end or now
        period = (now, trial_end) if trial_end else (now, period_end(anchor, now, interval, count))
        sub_id = new_id("sub_", 14)
        currency = recurring[0]["price"]["currency"]
        sub = {
            "id": sub_id,
            "object": "subscription",
            "application": None,
            "application_fee_percent": None,
            "automatic_tax": {"disabled_reason": None, "enabled": False, "liability": None},
            "billing_cycle_anchor": anchor,
            "billing_cycle_anchor_config": None,
            # Recorded as asked (Stripe's default since 2025-09-30 is flexible); the fake prorates
            # every subscription the classic way (docs/decisions.md, 2026-11-26).
            "billing_mode": {"flexible": None, "type": billing_mode},
            "billing_schedules": [],
            "billing_thresholds": None,
            "cancel_at": None,
            "cancel_at_period_end": False,
            "canceled_at": None,
            "cancellation_details": {"comment": None, "feedback": None, "reason": None},
            "collection_method": "charge_automatically",
            "created": now,
            "currency": currency,
            "customer": customer["id"],
            "days_until_due": None,
            "default_payment_method": pm["id"],
            "default_source": None,
            "default_tax_rates": [],
            "description": description,
            "discounts": [],
            "ended_at": None,
            "invoice_settings": {"account_tax_ids": None, "issuer": {"type": "self"}},
            "items": self.list_object(
                [self._item(sub_id, line["price"], line["quantity"], period) for line in recurring],
                f"/v1/subscription_items?subscription={sub_id}",
            ),
            "latest_invoice": None,
            "livemode": False,
            "metadata": metadata,
            "next_pending_invoice_item_invoice": None,
            "on_behalf_of": None,
            "pause_collection": None,
            "payment_settings": {
                "payment_method_options": None,
                "payment_method_types": None,
                "save_default_payment_method": "off",
            },
            "pending_invoice_item_interval": None,
            "pending_setup_intent": None,
            "pending_update": None,
            "schedule": None,
            "start_date": now,
            "status": "trialing" if trial_end else "incomplete",
            "test_clock": None,
            "transfer_data": None,
            "trial_end": trial_end,
            "trial_settings": {"end_behavior": {"missing_payment_method": "create_invoice"}},
            "trial_start": now if trial_end else None,
            "_trial_will_end_sent": False,
            "_pending_items": [],
        }
        sub["items"]["total_count"] = len(recurring)
        self.store.put("subscription", sub)
        self.emit("customer.subscription.created", "subscription", sub)
        invoice = self._new_invoice(customer, sub, "subscription_create", period, currency)
        for item, line in zip(sub["items"]["data"], recurring, strict=True):
            price, quantity = line["price"], line["quantity"]
            amount = 0 if trial_end else price["unit_amount"] * quantity
            text = f"Trial period for {self.product_name(price['product'])}" if trial_end else None
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=quantity,
                    amount=amount,
                    period=period,
                    description=text or self._describe(price, quantity),
                    sub=sub,
                    sub_item=item["id"],
                )
            )
        self._add_one_time_lines(invoice, one_time, now, sub)
        self._finalize(invoice, customer)
        sub["latest_invoice"] = invoice["id"]
        # The card was verified on the checkout page: this first payment goes through.
        card_outcome = "succeeded"
        if invoice["amount_due"] > 0:
            intent, _ = self._charge(
                amount=invoice["amount_due"],
                currency=currency,
                customer=customer,
                pm=pm,
                metadata={},
                description="Subscription creation",
                outcome=card_outcome,
            )
            self._paid_at_checkout(invoice, intent)
        self._mark_paid(invoice)
        before = self.snapshot("subscription", sub)
        if sub["status"] == "incomplete":
            sub["status"] = "active"
        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        return sub, invoice

    def _settle_status(self, sub: dict[str, Any]) -> None:
        """past_due/incomplete -> active once no invoice of the subscription is left open."""
        if sub["status"] not in ("past_due", "incomplete", "unpaid"):
            return
        open_invoices = [
            inv
            for inv in self.store.all("invoice")
            if inv["status"] == "open" and (self._invoice_subscription(inv) or {}).get("id") == sub["id"]
        ]
        if not open_invoices:
            before = self.snapshot("subscription", sub)
            sub["status"] = "active"
            self.emit_updated("customer.subscription.updated", "subscription", sub, before)

    def update_subscription(self, sub: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        """params already validated by api.py: cancel_at_period_end (bool), cancel_at (int|None),
        items ([{id?, price?, quantity?, deleted?}]), proration_behavior, proration_date,
        payment_behavior, billing_cycle_anchor, metadata (merged dict), cancellation_details,
        default_payment_method, description."""
        if sub["status"] in ("canceled", "incomplete_expired"):
            allowed = {"metadata", "cancellation_details"}
            if set(params) - allowed:
                raise invalid(
                    "A canceled subscription can only update its cancellation_details and metadata.",
                    None,
                    "resource_missing",
                )
        before = self.snapshot("subscription", sub)
        now = self.now()
        proration_behavior = params.get("proration_behavior", "create_prorations")
        payment_behavior = params.get("payment_behavior", "allow_incomplete")
        proration_date = params.get("proration_date") or now
        start, end = self.sub_period(sub)

        plan = None
        decided: tuple[str, Card | None] | None = None
        if "items" in params:
            plan = self._plan_items(sub, params["items"])
        invoice_now = False
        prorations: list[dict[str, Any]] = []
        new_period = (start, end)
        if plan is not None:
            old_interval = self._sub_interval(sub)
            new_interval = self._interval(plan[0]["price"]) if plan else old_interval
            reset = new_interval != old_interval or params.get("billing_cycle_anchor") == "now"
            if reset:
                new_period = (now, add_interval(now, *new_interval))
            prorations = self._prorations(sub, plan, proration_date, (start, end), reset, proration_behavior)
            invoice_now = reset or (proration_behavior == "always_invoice" and bool(prorations))
            if invoice_now and payment_behavior == "error_if_incomplete":
                amount = sum(p["amount"] for p in prorations) + (
                    sum(p["price"]["unit_amount"] * p["quantity"] for p in plan) if reset else 0
                )
                if amount + self.get("customer", sub["customer"])["balance"] > 0:
                    decided = self._off_session_outcome(self._default_pm(sub, sub["customer"]))
                    outcome, card = decided
                    if outcome == "authenticate":
                        raise StripeError(
                            402,
                            "Payment for this subscription requires additional user action before it "
                            "can be completed successfully.",
                            type_="card_error",
                            code="subscription_payment_intent_requires_action",
                        )
                    if outcome != "succeeded":
                        assert card is not None
                        raise StripeError(
                            402,
                            card.message,
                            type_="card_error",
                            code=card.code,
                            decline_code=card.decline_code,
                        )
            self._apply_items(sub, plan, new_period)
            if reset:
                sub["billing_cycle_anchor"] = now

        if "cancel_at_period_end" in params:
            if params["cancel_at_period_end"]:
                sub["cancel_at_period_end"] = True
                sub["cancel_at"] = self.sub_period(sub)[1]
                sub["canceled_at"] = now
                sub["cancellation_details"]["reason"] = "cancellation_requested"
            else:
                sub["cancel_at_period_end"] = False
                sub["cancel_at"] = None
                sub["canceled_at"] = None
                sub["cancellation_details"]["reason"] = None
        if "cancel_at" in params:
            cancel_at = params["cancel_at"]
            sub["cancel_at"] = cancel_at
            sub["cancel_at_period_end"] = cancel_at is not None and cancel_at == self.sub_period(sub)[1]
            sub["canceled_at"] = now if cancel_at else None
            sub["cancellation_details"]["reason"] = "cancellation_requested" if cancel_at else None
        if "cancellation_details" in params:
            sub["cancellation_details"].update(params["cancellation_details"])
        if "metadata" in params:
            sub["metadata"] = params["metadata"]
        if "description" in params:
            sub["description"] = params["description"]
        if "default_payment_method" in params:
            sub["default_payment_method"] = params["default_payment_method"]

        invoice = None
        if plan is not None and invoice_now:
            invoice = self._new_invoice(
                self.get("customer", sub["customer"]), sub, "subscription_update", new_period, sub["currency"]
            )
            self._add_proration_lines(invoice, sub, prorations)
            if new_period[0] == now and new_period != (start, end):
                self._add_period_lines(invoice, sub, new_period)
            self._add_pending_lines(invoice, sub)
            sub["latest_invoice"] = invoice["id"]
        elif prorations and proration_behavior == "create_prorations":
            sub["_pending_items"].extend(prorations)

        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        if invoice is not None:
            customer = self.get("customer", sub["customer"])
            self._finalize(invoice, customer)
            outcome = self.collect(invoice, self._default_pm(sub, sub["customer"]), decided=decided)
            if outcome != "succeeded":
                before = self.snapshot("subscription", sub)
                sub["status"] = "past_due"
                self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        return sub

    def _plan_items(self, sub: dict[str, Any], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The subscription's items after the update: [{id or None, price, quantity}]."""
        current = {item["id"]: item for item in sub["items"]["data"]}
        result = {
            item["id"]: {"id": item["id"], "price": self.price(item["_price"]), "quantity": item["quantity"]}
            for item in sub["items"]["data"]
        }
        added: list[dict[str, Any]] = []
        for index, change in enumerate(items):
            param = f"items[{index}]"
            if change.get("id"):
                if change["id"] not in current:
                    raise missing("subscription_item", change["id"], f"{param}[id]")
                if change.get("deleted"):
                    result.pop(change["id"], None)
                    continue
                entry = result[change["id"]]
                if change.get("price"):
                    entry["price"] = self._recurring_price(change["price"], sub, f"{param}[price]")
                if change.get("quantity") is not None:
                    entry["quantity"] = change["quantity"]
            else:
                if not change.get("price"):
                    raise invalid("You must provide a price for a new subscription item.", f"{param}[price]")
                added.append(
                    {
                        "id": None,
                        "price": self._recurring_price(change["price"], sub, f"{param}[price]"),
                        "quantity": change.get("quantity") or 1,
                    }
                )
        plan = list(result.values()) + added
        if not plan:
            raise invalid("A subscription must have at least one item.", "items")
        prices = [entry["price"]["id"] for entry in plan]
        if len(set(prices)) != len(prices):
            raise invalid("Cannot add multiple subscription items with the same price.", "items")
        intervals = {self._interval(entry["price"]) for entry in plan}
        if len(intervals) > 1:
            raise invalid("All prices on a subscription must have the same `recurring.interval`.", "items")
        return plan

    def _recurring_price(self, price_id: str, sub: dict[str, Any], param: str) -> dict[str, Any]:
        price = self.price(price_id, param)
        if not price["recurring"]:
            raise invalid(
                "The price specified is set to `type=one_time` but this field only accepts prices with "
                "`type=recurring`.",
                param,
            )
        if not price["active"]:
            raise invalid("The price specified is inactive. This field only accepts active prices.", param)
        if price["currency"] != sub["currency"]:
            raise invalid(
                f"The price currency must match the subscription currency ({sub['currency']}).", param
            )
        return price

    def _prorations(
        self,
        sub: dict[str, Any],
        plan: list[dict[str, Any]],
        at: int,
        period: tuple[int, int],
        reset: bool,
        behavior: str,
    ) -> list[dict[str, Any]]:
        """Proration items: credit for unused time of what is removed or changed; charge for the
        remaining time of what is added or changed (not when the period resets: the new period
        is billed in full)."""
        if behavior == "none" or sub["status"] == "trialing":
            return []
        start, end = period
        if end <= start or at >= end:
            return []
        fraction = (end - at) / (end - start)
        old = {item["id"]: item for item in sub["items"]["data"]}
        planned = {entry["id"]: entry for entry in plan if entry["id"]}
        result: list[dict[str, Any]] = []
        for item_id, item in old.items():
            price = self.price(item["_price"])
            entry = planned.get(item_id)
            unchanged = (
                entry and entry["price"]["id"] == price["id"] and entry["quantity"] == item["quantity"]
            )
            if unchanged and not reset:
                continue
            quantity = item["quantity"]
            result.append(
                {
                    "price": price,
                    "quantity": quantity,
                    "amount": -round(price["unit_amount"] * quantity * fraction),
                    "period": (at, end),
                    "description": f"Unused time on {self._describe_short(price, quantity)} after "
                    f"{format_date(at)}",
                    "item": item_id,
                }
            )
        if not reset:
            for entry in plan:
                prior = old.get(entry["id"]) if entry["id"] else None
                if (
                    prior
                    and prior["_price"] == entry["price"]["id"]
                    and prior["quantity"] == entry["quantity"]
                ):
                    continue
                price, quantity = entry["price"], entry["quantity"]
                result.append(
                    {
                        "price": price,
                        "quantity": quantity,
                        "amount": round(price["unit_amount"] * quantity * fraction),
                        "period": (at, end),
                        "description": f"Remaining time on {self._describe_short(price, quantity)} after "
                        f"{format_date(at)}",
                        "item": entry["id"],
                    }
                )
        for proration in result:
            proration["price"] = proration["price"]["id"]
            proration["invoice_item"] = new_id("ii_")
        return result

    def _describe_short(self, price: dict[str, Any], quantity: int) -> str:
        name = self.product_name(price["product"])
        return f"{quantity} × {name}" if quantity != 1 else name

    def _apply_items(self, sub: dict[str, Any], plan: list[dict[str, Any]], period: tuple[int, int]) -> None:
        current = {item["id"]: item for item in sub["items"]["data"]}
        items = []
        for entry in plan:
            if entry["id"]:
                item = current[entry["id"]]
                item["_price"] = entry["price"]["id"]
                item["quantity"] = entry["quantity"]
            else:
                item = self._item(sub["id"], entry["price"], entry["quantity"], period)
                entry["id"] = item["id"]
            item["current_period_start"], item["current_period_end"] = period
            items.append(item)
        sub["items"]["data"] = items
        sub["items"]["total_count"] = len(items)

    def _add_proration_lines(
        self, invoice: dict[str, Any], sub: dict[str, Any], prorations: list[dict[str, Any]]
    ) -> None:
        for proration in prorations:
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=self.price(proration["price"]),
                    quantity=proration["quantity"],
                    amount=proration["amount"],
                    period=tuple(proration["period"]),  # type: ignore[arg-type]
                    description=proration["description"],
                    sub=sub,
                    sub_item=proration["item"],
                    proration=True,
                    invoice_item=proration["invoice_item"],
                )
            )

    def _add_period_lines(
        self, invoice: dict[str, Any], sub: dict[str, Any], period: tuple[int, int]
    ) -> None:
        for item in sub["items"]["data"]:
            price = self.price(item["_price"])
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=item["quantity"],
                    amount=price["unit_amount"] * item["quantity"],
                    period=period,
                    description=self._describe(price, item["quantity"]),
                    sub=sub,
                    sub_item=item["id"],
                )
            )

    def _add_pending_lines(self, invoice: dict[str, Any], sub: dict[str, Any]) -> None:
        self._add_proration_lines(invoice, sub, sub["_pending_items"])
        sub["_pending_items"] = []

    def cancel_subscription(
        self,
        sub: dict[str, Any],
        *,
        reason: str,
        comment: str | None = None,
        feedback: str | None = None,
        at: int | None = None,
    ) -> dict[str, Any]:
        if sub["status"] in ("canceled", "incomplete_expired"):
            raise invalid(f"No such subscription: '{sub['id']}'", "id", "resource_missing")
        now = at or self.now()
        sub["status"] = "canceled"
        sub["ended_at"] = now
        sub["canceled_at"] = sub["canceled_at"] or now
        sub["cancellation_details"]["reason"] = reason
        if comment is not None:
            sub["cancellation_details"]["comment"] = comment
        if feedback is not None:
            sub["cancellation_details"]["feedback"] = feedback
        sub["_pending_items"] = []
        self.emit("customer.subscription.deleted", "subscription", sub)
        return sub
