"""What an account's subscription lets it do. Billing (Stripe) writes the status on the
Account item; every feature asks here, so the rules live in one place."""

from __future__ import annotations

import time

from tandem.store.models import Account

STATUSES = ("none", "pending_approval", "active", "trialling", "cancelled", "gifted", "fixed_term")
NEEDS_SUBSCRIPTION = "You need to buy a subscription to continue."


def status(account: Account | None, now: int | None = None) -> str:
    """The effective status: a cancelled subscription counts until its paid period ends."""
    if account is None:
        return "none"
    current = account.subscription_status or "none"
    if current == "cancelled":
        now = int(now if now is not None else time.time())
        valid_to = account.subscription_valid_to
        return "cancelled" if valid_to is not None and now < int(valid_to) else "none"
    return current


def is_subscribed(account: Account | None, now: int | None = None) -> bool:
    """Paid-for access (see all brand names, send requests): not pending, not gifted-only."""
    return status(account, now) in ("active", "trialling", "cancelled", "fixed_term")


def sees_brand_names(account: Account | None) -> bool:
    """Dashboard `showingBrandNames`: this member sees other brands' names in Matches."""
    from tandem.domain.brand_profile import NAMES_SHOWN_GLOBALLY

    return NAMES_SHOWN_GLOBALLY and is_subscribed(account)


def awaits_approval(account: Account | None) -> bool:
    return status(account) == "pending_approval"
