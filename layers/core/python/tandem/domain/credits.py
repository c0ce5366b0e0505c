"""Credit rules with no I/O: which bucket pays, and what the member is shown.

Credits belong to the account and sit in buckets: the main subscription's month (6, no
rollover), one-time add-ons (30 days), recurring add-ons and gifts. Spending takes the bucket
that expires first. A request holds 1 credit; the hold is returned on decline or cancel before
its bucket's month ends, and is spent otherwise. Pitching costs 1, featuring 3, accepting 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAIN_CREDITS_PER_MONTH = 6
REQUEST_HOLD = 1
PITCH_COST = 1
FEATURE_COST = 3
ACCEPT_COST = 0
ONE_TIME_ADDON_DAYS = 30
KINDS = ("main", "add-on-one-time", "recurring", "gifted")
OUT_OF_CREDITS = "You're out of credits. Buy more to continue."


@dataclass(frozen=True)
class Bucket:
    bucket_id: str
    kind: str
    total: int
    available: int
    valid_from: int
    valid_to: int
    product_name: str = ""

    def usable(self, now: int) -> bool:
        return self.valid_from <= now < self.valid_to and self.available > 0


def pick(buckets: Iterable[Bucket], amount: int, now: int) -> list[tuple[Bucket, int]] | None:
    """Which buckets pay `amount`, soonest-expiring first; None when there is not enough."""
    plan: list[tuple[Bucket, int]] = []
    left = amount
    for bucket in sorted((b for b in buckets if b.usable(now)), key=lambda b: (b.valid_to, b.bucket_id)):
        take = min(left, bucket.available)
        plan.append((bucket, take))
        left -= take
        if left == 0:
            return plan
    return None if amount > 0 else []


def summary(buckets: Sequence[Bucket], now: int) -> dict:
    """The credits part of SPEC section 3 that the ledger knows (billing adds the rest)."""
    live = [b for b in buckets if b.valid_from <= now < b.valid_to]
    main = [b for b in live if b.kind == "main"]
    add_ons = [b for b in live if b.kind != "main"]
    upcoming = sorted((b for b in live if b.available > 0), key=lambda b: b.valid_to)
    return {
        "available": sum(b.available for b in live),
        "total": sum(b.total for b in live),
        "totalMain": sum(b.total for b in main),
        "totalAddOns": sum(b.total for b in add_ons),
        "giftedOnly": bool(live) and all(b.kind == "gifted" for b in live),
        "expires": {"period": min((b.valid_to for b in main), default=None)},
        "next": ({"to": upcoming[0].valid_to, "credits": upcoming[0].available} if upcoming else None),
        "addOns": [
            {
                "productName": b.product_name,
                "type": b.kind,
                "total": b.total,
                "available": b.available,
                "valid": {"to": b.valid_to},
                "cancelled": None,
            }
            for b in sorted(add_ons, key=lambda b: b.valid_to)
        ],
    }
