"""Learning from outcomes (issue 30): a request's outcome kept with the pair's packed match
records as they were when it was sent (MatchOutcome, one partition per month so the training
job reads the months it wants without scanning), and the model trained from them (MatchModel,
one small item the match run reads with the brand it runs for)."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from pynamodb.attributes import (
    BinaryAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)

from tandem.store import keys
from tandem.store.base import Key, TandemModel, _register


def month_of(at_ms: int) -> str:
    return datetime.fromtimestamp(int(at_ms) / 1000, UTC).strftime("%Y%m")


@_register
class MatchOutcome(TandemModel):
    """One request's outcome (pk=OUTCOMES#<YYYYMM>, sk=<ms>#<request id>): accepted, declined,
    cancelled or expired, and both brands' packed records at send (sender, recipient)."""

    request_id = UnicodeAttribute()
    outcome = UnicodeAttribute()
    sender = BinaryAttribute(legacy_encoding=False)
    recipient = BinaryAttribute(legacy_encoding=False)
    at = NumberAttribute()  # epoch ms of the outcome
    percent = NumberAttribute(null=True)  # the fit percent shown at send (None: sent before it was kept)
    fit = UnicodeAttribute(null=True)  # the chance-based fit label shown at send (None: none was)
    ttl = NumberAttribute(null=True)  # epoch s: DynamoDB deletes it once training no longer reads it

    @classmethod
    def key(cls, at_ms: int, request_id: str) -> Key:
        return keys.match_outcomes_pk(month_of(at_ms)), keys.match_outcome_sk(at_ms, request_id)

    @classmethod
    def of_month(cls, month: str) -> Iterator[MatchOutcome]:
        """Every outcome recorded in `month` (YYYYMM), oldest first (one paged Query)."""
        return cls.query(keys.match_outcomes_pk(month))


@_register
class MatchModel(TandemModel):
    """The learned "will this pair accept" model (pk=MATCHMODEL, sk=META): logistic weights over
    tandem.domain.matching.learned.FEATURES (bias last), how many outcomes it learned from, when
    it was trained (epoch s), and the fit labels' thresholds from the same outcomes."""

    weights = ListAttribute(of=NumberAttribute)
    outcomes = NumberAttribute()
    accepted = NumberAttribute(default=0)
    trained_at = NumberAttribute()
    features = NumberAttribute(default=0)  # len(FEATURES) when trained (a model of other features is unused)
    # Percent thresholds a model of before 2026-12-08 recalibrated ({label: lowest percent});
    # written None since: a model's labels go by each card's chance (`learned`'s `chances`).
    thresholds = MapAttribute(null=True)
    # The two learned directions (tandem.domain.matching.training.train's dict, as JSON; issue 37).
    learned = UnicodeAttribute(null=True)

    @classmethod
    def key(cls) -> Key:
        return keys.MATCH_MODEL, keys.META

    def fit_thresholds(self) -> dict[str, int] | None:
        stored = self.thresholds
        if isinstance(stored, MapAttribute):
            stored = stored.as_dict()
        return {str(k): int(v) for k, v in stored.items()} if stored else None


def day_of(at_ms: int) -> str:
    return datetime.fromtimestamp(int(at_ms) / 1000, UTC).strftime("%Y%m%d")


@_register
class ShownCards(TandemModel):
    """One view's cards (pk=SHOWN#<YYYYMMDD>, sk=<ms>#<viewer brand id>): the viewer, its account,
    the surface (matches, search, brand), the ranking's version, and the cards in the order shown
    (position = place in `ids`) with their fit percent and the probability each had of being shown
    there (1 for a ranked card); `offset`, the place of its first card (a search's later pages).
    One item per view. A search page's is written by POST brands/search/views, once the screen
    shows it (the search itself already makes a screen's three calls)."""

    viewer = NumberAttribute()
    account = UnicodeAttribute()
    surface = UnicodeAttribute()
    version = NumberAttribute(default=0)
    offset = NumberAttribute(default=0)
    ids = ListAttribute(of=NumberAttribute)
    percents = ListAttribute(of=NumberAttribute, null=True)
    propensities = ListAttribute(of=NumberAttribute, null=True)
    at = NumberAttribute()  # epoch ms
    ttl = NumberAttribute(null=True)

    @classmethod
    def key(cls, at_ms: int, viewer: int) -> Key:
        return keys.shown_pk(day_of(at_ms)), f"{str(int(at_ms)).zfill(keys.TIME_WIDTH)}#{int(viewer)}"

    @classmethod
    def of_day(cls, day: str) -> Iterator[ShownCards]:
        return cls.query(keys.shown_pk(day))


@_register
class CardAction(TandemModel):
    """One member's action on another brand (pk=ACTS#<YYYYMMDD>, sk=<ms>#<actor>#<target>#<kind>):
    open, save, dismiss, send or block by the actor (accept, decline and expiry are kept as
    MatchOutcome rows, written with the request's change)."""

    actor = NumberAttribute()
    account = UnicodeAttribute()
    target = NumberAttribute()
    target_account = UnicodeAttribute(default="")
    kind = UnicodeAttribute()
    at = NumberAttribute()  # epoch ms
    ttl = NumberAttribute(null=True)

    @classmethod
    def key(cls, at_ms: int, actor: int, target: int, kind: str) -> Key:
        sk = f"{str(int(at_ms)).zfill(keys.TIME_WIDTH)}#{int(actor)}#{int(target)}#{kind}"
        return keys.acts_pk(day_of(at_ms)), sk

    @classmethod
    def of_day(cls, day: str) -> Iterator[CardAction]:
        return cls.query(keys.acts_pk(day))


# ------------------------------------------------------------ a brand's recent Matches views

_VIEW_HEAD = struct.Struct("<IHH")  # at (epoch s), ranking version, card count
_VIEW_CARD = struct.Struct("<IBB")  # brand id, fit percent, propensity x 255


@dataclass(frozen=True)
class View:
    """One Matches view kept on the brand's BrandSeen item (`views`): when, by which ranking
    version, and its cards in the order shown as (brand id, fit percent, propensity)."""

    at: int
    version: int
    cards: tuple[tuple[int, int, float], ...]


def pack_views(views: list[View]) -> bytes:
    """The views as BrandSeen.views keeps them: 8 bytes a view and 6 a card (50 cards: 308)."""
    out = bytearray()
    for view in views:
        out += _VIEW_HEAD.pack(int(view.at), int(view.version) & 0xFFFF, len(view.cards))
        for brand_id, percent, propensity in view.cards:
            p = max(1, min(255, round(float(propensity) * 255)))
            out += _VIEW_CARD.pack(int(brand_id), max(0, min(255, int(percent))), p)
    return bytes(out)


def unpack_views(blob: bytes | None) -> list[View]:
    """`pack_views` undone; a blob cut short keeps the views read whole."""
    views: list[View] = []
    data, at = bytes(blob or b""), 0
    while at + _VIEW_HEAD.size <= len(data):
        when, version, count = _VIEW_HEAD.unpack_from(data, at)
        at += _VIEW_HEAD.size
        if at + count * _VIEW_CARD.size > len(data):
            break
        cards = []
        for _ in range(count):
            brand_id, percent, p = _VIEW_CARD.unpack_from(data, at)
            cards.append((brand_id, percent, p / 255))
            at += _VIEW_CARD.size
        views.append(View(when, version, tuple(cards)))
    return views
