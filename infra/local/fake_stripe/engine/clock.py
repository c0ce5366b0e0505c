"""The test clock: moving time forward runs what falls due in time order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from infra.local.fake_stripe.engine.base import LIVE_SUBSCRIPTION, TRIAL_WILL_END_NOTICE, EngineBase
from infra.local.fake_stripe.util import invalid, period_end


class ClockEngine(EngineBase):
    def advance(self, seconds: int) -> int:
        """Move the clock forward, running what falls due in time order: checkout expiries,
        trial-ending notices, period ends (renewal or the end of a cancelled plan), payment
        retries. Returns the new time."""
        if seconds < 0:
            raise invalid("The clock only moves forward.", "seconds")
        target = self.now() + seconds
        while True:
            due = self._next_due(target)
            if due is None:
                break
            when, action = due
            self._set_clock(when)
            action()
        self._set_clock(target)
        return self.now()

    def _next_due(self, target: int) -> tuple[int, Callable[[], None]] | None:
        candidates: list[tuple[int, int, Callable[[], None]]] = []
        for session in self.store.all("checkout.session"):
            if session["status"] == "open" and session["expires_at"] <= target:
                candidates.append(
                    (session["expires_at"], session["_seq"], lambda s=session: self.expire_session(s))
                )
        for sub in self.store.all("subscription"):
            if sub["status"] not in LIVE_SUBSCRIPTION:
                continue
            end = self.sub_period(sub)[1]
            if sub["cancel_at"] and sub["cancel_at"] < end and sub["cancel_at"] <= target:
                candidates.append(
                    (
                        sub["cancel_at"],
                        sub["_seq"],
                        lambda s=sub: self.cancel_subscription(
                            s, reason="cancellation_requested", at=s["cancel_at"]
                        ),
                    )
                )
            elif end <= target:
                candidates.append((end, sub["_seq"], lambda s=sub: self.end_period(s)))
            if (
                sub["status"] == "trialing"
                and sub["trial_end"]
                and not sub["_trial_will_end_sent"]
                and sub["trial_end"] - TRIAL_WILL_END_NOTICE <= target
            ):
                when = max(self.now(), sub["trial_end"] - TRIAL_WILL_END_NOTICE)
                candidates.append((when, sub["_seq"], lambda s=sub: self._trial_will_end(s)))
        for invoice in self.store.all("invoice"):
            retry_at = invoice["next_payment_attempt"]
            if invoice["status"] == "open" and retry_at and retry_at <= target:
                candidates.append((retry_at, invoice["_seq"], lambda i=invoice: self._retry(i)))
        if not candidates:
            return None
        when, _, action = min(candidates, key=lambda c: (c[0], c[1]))
        return when, action

    def _trial_will_end(self, sub: dict[str, Any]) -> None:
        sub["_trial_will_end_sent"] = True
        self.emit("customer.subscription.trial_will_end", "subscription", sub)

    def end_period(self, sub: dict[str, Any]) -> None:
        """The subscription's current period ends now: it renews (invoiced and collected off
        session) or, if cancelled at the period end, ends."""
        start, end = self.sub_period(sub)
        if sub["cancel_at_period_end"] or (sub["cancel_at"] and sub["cancel_at"] <= end):
            self.cancel_subscription(sub, reason="cancellation_requested", at=end)
            return
        before = self.snapshot("subscription", sub)
        interval, count = self._sub_interval(sub)
        new_period = (end, period_end(sub["billing_cycle_anchor"], end, interval, count))
        self._set_period(sub, new_period)
        if sub["status"] == "trialing":
            sub["status"] = "active"
        customer = self.get("customer", sub["customer"])
        invoice = self._new_invoice(customer, sub, "subscription_cycle", new_period, sub["currency"])
        self._add_period_lines(invoice, sub, new_period)
        self._add_pending_lines(invoice, sub)
        sub["latest_invoice"] = invoice["id"]
        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        self._finalize(invoice, customer)
        outcome = self.collect(invoice, self._default_pm(sub, sub["customer"]))
        if outcome != "succeeded" and sub["status"] != "past_due":
            before = self.snapshot("subscription", sub)
            sub["status"] = "past_due"
            self.emit_updated("customer.subscription.updated", "subscription", sub, before)

    def _retry(self, invoice: dict[str, Any]) -> None:
        sub = self._invoice_subscription(invoice)
        if sub is not None and sub["status"] == "canceled":
            invoice["next_payment_attempt"] = None
            return
        outcome = self._pay_open_invoice(invoice, self._default_pm(sub, invoice["customer"]), None)
        if outcome == "declined" and invoice["next_payment_attempt"] is None and sub is not None:
            # retries exhausted: the subscription ends (Stripe's default dunning setting)
            self.cancel_subscription(sub, reason="payment_failed")
