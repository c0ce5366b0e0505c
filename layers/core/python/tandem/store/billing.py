"""Stripe on our side: which account a customer is, and each webhook event as received."""

from __future__ import annotations

from datetime import datetime

from pynamodb.attributes import (
    NumberAttribute,
    UnicodeAttribute,
    UTCDateTimeAttribute,
)

from tandem.store import keys
from tandem.store.base import Key, TandemModel, _Gsi1, _Gsi2, _register


@_register
class StripeCustomer(TandemModel):
    """Which account a Stripe customer belongs to (written with the customer's creation, or
    when a payment link's checkout names a brand of the account)."""

    customer_id = UnicodeAttribute()
    account_id = UnicodeAttribute()
    created_at = NumberAttribute()

    @classmethod
    def key(cls, customer_id: str) -> Key:
        return keys.stripe_customer_pk(customer_id), keys.META


@_register
class StripeEvent(TandemModel):
    """One Stripe event: received (recorded) -> started (its execution began) -> done, or
    failed. A redelivery is ignored only while started or once done; received or failed is
    started again (tandem.services.stripe_events)."""

    event_id = UnicodeAttribute()
    event_type = UnicodeAttribute()
    object_id = UnicodeAttribute(default="")
    customer_id = UnicodeAttribute(null=True)
    status = UnicodeAttribute(default="received")  # received | started | done | failed | unusable
    message = UnicodeAttribute(default="")
    attempts = NumberAttribute(default=0)  # executions started for it (names <event>-<n>)
    failed_attempt = NumberAttribute(null=True)  # the attempt whose processing failed last
    received_at = UTCDateTimeAttribute()
    done_at = UTCDateTimeAttribute(null=True)
    gsi1pk = UnicodeAttribute(null=True)  # STRIPE_DONE#<customer> once done; STRIPE_RETRY while failed
    gsi1sk = UnicodeAttribute(null=True)
    done_of_customer = _Gsi1()
    gsi2pk = UnicodeAttribute(null=True)  # STRIPE_PENDING#<customer> until done
    gsi2sk = UnicodeAttribute(null=True)
    pending_of_customer = _Gsi2()

    @classmethod
    def key(cls, event_id: str) -> Key:
        return keys.stripe_event_pk(event_id), keys.META

    @classmethod
    def new(
        cls, event_id: str, event_type: str, object_id: str, customer_id: str | None, at: datetime
    ) -> StripeEvent:
        item = cls(
            *cls.key(event_id),
            event_id=event_id,
            event_type=event_type,
            object_id=object_id,
            customer_id=customer_id,
            received_at=at,
        )
        if customer_id:
            item.gsi2pk = keys.stripe_pending_gsi(customer_id)
            item.gsi2sk = at.isoformat()
        return item

    @classmethod
    def done_actions(cls, customer_id: str | None, at: datetime) -> list:
        """Mark done: out of the customer's in-progress list, into its processed list."""
        actions = [cls.status.set("done"), cls.done_at.set(at), cls.gsi2pk.remove(), cls.gsi2sk.remove()]
        if customer_id:
            actions += [cls.gsi1pk.set(keys.stripe_done_gsi(customer_id)), cls.gsi1sk.set(at.isoformat())]
        else:
            actions += [cls.gsi1pk.remove(), cls.gsi1sk.remove()]  # out of the retry list
        return actions

    @classmethod
    def failed_actions(cls, reason: str, attempt: int, retry_at: datetime | None) -> list:
        """Mark failed; with `retry_at`, into the list the scheduled retry reads (gsi1)."""
        actions = [
            cls.status.set("failed"),
            cls.message.set(reason[:500]),
            cls.failed_attempt.set(int(attempt)),
        ]
        if retry_at is not None:
            actions += [cls.gsi1pk.set(keys.STRIPE_RETRY_GSI), cls.gsi1sk.set(retry_at.isoformat())]
        else:
            actions += [cls.gsi1pk.remove(), cls.gsi1sk.remove()]
        return actions

    @classmethod
    def leave_retry_list(cls) -> list:
        return [cls.gsi1pk.remove(), cls.gsi1sk.remove()]

    @classmethod
    def due_for_retry(cls, at: datetime, limit: int = 100) -> list[StripeEvent]:
        """Failed events whose automatic retry is due at `at` (oldest first): one Query."""
        return list(
            cls.done_of_customer.query(
                keys.STRIPE_RETRY_GSI, cls.gsi1sk <= at.isoformat(), limit=limit, consistent_read=False
            )
        )

    @classmethod
    def pending_count(cls, customer_id: str) -> int:
        return cls.pending_of_customer.count(keys.stripe_pending_gsi(customer_id))

    @classmethod
    def recent_done(cls, customer_id: str, limit: int = 5) -> list[StripeEvent]:
        return list(
            cls.done_of_customer.query(
                keys.stripe_done_gsi(customer_id), scan_index_forward=False, limit=limit
            )
        )
