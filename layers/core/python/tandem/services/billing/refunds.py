"""The 30-day money-back guarantee (an admin action): which payment is refunded is decided
here, from the account's whole Stripe state; the Stripe calls are the integration's."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from tandem.domain import billing
from tandem.errors import Conflict, NotFound
from tandem.integrations import stripe_client

NOTHING_TO_REFUND = "There is no payment from the last 30 days to refund."


def refund_latest_payment(
    customer: str | Sequence[str],
    *,
    now: int | None = None,
    any_age: bool = False,
    record: dict[str, Any] | None = None,
    payment_id: str | None = None,
) -> dict[str, Any]:
    """Refund the account's latest payment (or the one named by `payment_id`, an invoice or
    checkout session id from the state's payments) in full and, when it paid for a
    subscription, end that subscription now. Returns {payment, amount, refund, cancelled}.
    Refused (409) when there is nothing refundable within 30 days, unless `any_age`."""
    now = int(now if now is not None else time.time())
    state = billing.compute(stripe_client.fetch_customer_snapshot(customer), record, now)
    if payment_id is None:
        payment = billing.refundable_payment(state, now, any_age=any_age)
    else:
        payment = next((p for p in state.payments if p.id == payment_id), None)
        if payment is None:
            raise NotFound("No such payment for this account.")
        if payment.refunded_amount or payment.amount <= 0:
            raise Conflict("This payment has already been refunded.")
        if not any_age and not billing.within_guarantee(payment, now):
            payment = None
    if payment is None:
        raise Conflict(NOTHING_TO_REFUND)
    if not payment.payment_intents:
        raise Conflict("This payment cannot be refunded here; refund it in the Stripe dashboard.")
    return stripe_client.refund_payment(payment.id, payment.payment_intents[0], payment.subscription)
