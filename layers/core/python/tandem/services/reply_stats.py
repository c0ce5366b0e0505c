"""Reply-time figures per brand (tandem.domain.reply_time): counted inside each answer's or
expiry's transaction (transitions.py), read with the brand's other items by the screens that
show the labels."""

from __future__ import annotations

import time

from tandem.domain import reply_time
from tandem.domain import requests as rules
from tandem.domain.matching.reply import reply_tier
from tandem.store.base import Key
from tandem.store.connection import Transaction
from tandem.store.items import get_many
from tandem.store.reply_stats import BrandReplyStats

OUTCOMES = (rules.ACCEPTED, rules.DECLINED, rules.EXPIRED)  # a cancel says nothing of the recipient


def add_outcome(tx: Transaction, brand_id: int, received_at: int, status: str, at: int) -> None:
    """The recipient `brand_id` answered (accepted / declined) or let expire a request it
    received at `received_at`, at `at` (epoch s)."""
    after = None if status == rules.EXPIRED else max(0, int(at) - int(received_at))
    BrandReplyStats.add_in(tx, brand_id, received_at, after, int(at))


def stats_key(brand_id: int) -> tuple[type[BrandReplyStats], Key]:
    """The key to add to a screen's one BatchGetItem (then `labels_from`)."""
    return BrandReplyStats, BrandReplyStats.key(brand_id)


def labels_from(found: dict, brand_id: int, now: int | None = None) -> list[str]:
    item = found.get(BrandReplyStats.key(brand_id))
    if item is None:
        return []
    return item.figures(int(now if now is not None else time.time())).labels()


def figures_of(brand_id: int, now: int | None = None) -> reply_time.ReplyFigures:
    found = get_many([stats_key(brand_id)])
    item = found.get(BrandReplyStats.key(brand_id))
    weeks = item.weeks if item is not None else {}
    return reply_time.figures(weeks, int(now if now is not None else time.time()))


def labels_of(brand_ids: list[int], now: int | None = None) -> dict[int, list[str]]:
    """{brand id: labels} for many brands in one BatchGetItem (a list of cards)."""
    found = get_many([stats_key(b) for b in brand_ids])
    return {b: labels_from(found, b, now) for b in brand_ids}


def tiers_of(brand_ids: list[int], now: int | None = None) -> dict[int, int]:
    """{brand id: reply tier (tandem.domain.matching.reply.reply_tier)} of the brands that have
    reply figures (see `signals_of`)."""
    return {b: tier for b, (tier, _) in signals_of(brand_ids, now).items()}


def signals_of(brand_ids: list[int], now: int | None = None) -> dict[int, tuple[int, int]]:
    """{brand id: (reply tier (tandem.domain.matching.reply.reply_tier), label code
    (tandem.domain.reply_time.label_code))} of the brands that have reply figures, both from the
    same figures, read in BatchGetItem calls of 100 keys (the match index's shard rebuild)."""
    at = int(now if now is not None else time.time())
    found = get_many([stats_key(b) for b in brand_ids])
    signals = {}
    for brand_id in brand_ids:
        item = found.get(BrandReplyStats.key(brand_id))
        if item is not None:
            figures = item.figures(at)
            tier = reply_tier(figures.received, figures.answered)
            signals[brand_id] = (tier, reply_time.label_code(figures))
    return signals
