"""Pitch Area features on the one table (a module of its own, like store/notify.py).

- a feature by id                    pk=FEATURE#<id>          sk=META
- features by status, newest first   gsi1pk=FEATURES#<status> gsi1sk=<ms>#<id>
  (live: approval time; pending: submission time; closed ones keep their status' partition)
- a brand's features, newest first   gsi2pk=BRAND-FEATURES#<brand> gsi2sk=<created ms>#<id>
- a brand's current feature (slot)   pk=BRAND#<brand>         sk=FEATURE

The slot holds the brand's latest feature's state: it is what makes "one open feature per
brand" a condition, and what the dashboard reads (in its BatchGetItem) for featureDone. Every
change of a feature updates its slot in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pynamodb.attributes import (
    BooleanAttribute,
    JSONAttribute,
    ListAttribute,
    NumberAttribute,
    UnicodeAttribute,
)

from tandem.domain import pitch as rules
from tandem.store import keys
from tandem.store.base import Condition
from tandem.store.keys import FEATURE_PREFIX, FEATURES_PREFIX, SLOT_SK, brand_features_gsi, status_gsi
from tandem.store.models import BrandSummaryMap, Key, TandemModel, _Gsi1, _Gsi2, _register


def order_sk(ms: int, feature_id: str) -> str:
    return f"{str(int(ms)).zfill(keys.TIME_WIDTH)}#{feature_id}"


@_register
class Feature(TandemModel):
    feature_id = UnicodeAttribute()
    brand_id = NumberAttribute()
    account_id = UnicodeAttribute()
    brand = BrandSummaryMap()  # as it was when the feature was submitted
    title = UnicodeAttribute()
    offer = UnicodeAttribute()
    looking_for = UnicodeAttribute()
    collab_kinds = ListAttribute(of=UnicodeAttribute)
    audience = UnicodeAttribute(default="")
    closing_date = UnicodeAttribute(null=True)  # YYYY-MM-DD
    months = NumberAttribute()
    pay_with = UnicodeAttribute()  # credits | product
    spent = JSONAttribute(null=True)  # [[bucket id, credits]] the 3 credits came from
    status = UnicodeAttribute()  # pending | live | expired | ended | refused
    created_at = NumberAttribute()  # epoch ms
    approved_at = NumberAttribute(null=True)  # epoch s
    expires_at = NumberAttribute(null=True)  # epoch s, the term's end once approved
    closed_at = NumberAttribute(null=True)  # epoch s
    refused_reason = UnicodeAttribute(null=True)
    created_by = UnicodeAttribute()  # user id
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    by_status = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    by_brand = _Gsi2()

    @classmethod
    def key(cls, feature_id: str) -> Key:
        return f"{FEATURE_PREFIX}{feature_id}", keys.META

    @classmethod
    def new(cls, feature_id: str, brand_id: int, created_ms: int, **fields: Any) -> Feature:
        return cls(
            *cls.key(feature_id),
            feature_id=feature_id,
            brand_id=brand_id,
            status=rules.PENDING,
            created_at=created_ms,
            gsi1pk=status_gsi(rules.PENDING),
            gsi1sk=order_sk(created_ms, feature_id),
            gsi2pk=brand_features_gsi(brand_id),
            gsi2sk=order_sk(created_ms, feature_id),
            **fields,
        )

    def move_actions(self, status: str, order_ms: int | None = None) -> list:
        cls = type(self)
        actions = [cls.status.set(status), cls.gsi1pk.set(status_gsi(status))]
        if order_ms is not None:
            actions.append(cls.gsi1sk.set(order_sk(order_ms, self.feature_id)))
        return actions

    @classmethod
    def page_with_status(
        cls, status: str, limit: int, after: str | None = None, filter_condition: Condition | None = None
    ) -> tuple[list[Feature], str | None]:
        """One Query: up to `limit` features with `status`, newest first, and the cursor after
        them (None at the end). A filter may leave a page short; the cursor still moves on."""
        found = cls.by_status.query(
            status_gsi(status),
            scan_index_forward=False,
            limit=limit,
            filter_condition=filter_condition,
            last_evaluated_key=_decode(after) if after else None,
        )
        items = list(found)
        return items, _encode(found.last_evaluated_key)

    @classmethod
    def every_with_status(cls, status: str, filter_condition: Condition | None = None) -> Iterator[Feature]:
        return cls.by_status.query(status_gsi(status), filter_condition=filter_condition)

    @classmethod
    def of_brand(cls, brand_id: int, limit: int = 20) -> list[Feature]:
        return list(cls.by_brand.query(brand_features_gsi(brand_id), scan_index_forward=False, limit=limit))

    def as_dict(self) -> dict[str, Any]:
        return {
            "feature_id": self.feature_id,
            "status": self.status,
            "pay_with": self.pay_with,
            "approved_at": int(self.approved_at) if self.approved_at is not None else None,
            "expires_at": int(self.expires_at) if self.expires_at is not None else None,
        }


def _encode(last: dict[str, Any] | None) -> str | None:
    if not last:
        return None
    return "|".join(last[k]["S"] for k in ("pk", "sk", "gsi1pk", "gsi1sk"))


def _decode(cursor: str) -> dict[str, Any]:
    parts = cursor.split("|")
    if len(parts) != 4 or not parts[0].startswith(FEATURE_PREFIX) or not parts[2].startswith(FEATURES_PREFIX):
        raise ValueError("bad cursor")
    return {k: {"S": v} for k, v in zip(("pk", "sk", "gsi1pk", "gsi1sk"), parts, strict=True)}


@_register
class FeatureSlot(TandemModel):
    """A brand's latest feature (pk=BRAND#<id>, sk=FEATURE)."""

    feature_id = UnicodeAttribute()
    status = UnicodeAttribute()
    pay_with = UnicodeAttribute()
    approved_at = NumberAttribute(null=True)
    expires_at = NumberAttribute(null=True)
    has_had_live = BooleanAttribute(default=False)

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), SLOT_SK

    def as_dict(self) -> dict[str, Any]:
        return {
            "feature_id": self.feature_id,
            "status": self.status,
            "pay_with": self.pay_with,
            "approved_at": int(self.approved_at) if self.approved_at is not None else None,
            "expires_at": int(self.expires_at) if self.expires_at is not None else None,
        }

    @classmethod
    def free_condition(cls, now: int) -> Condition:
        """The brand has no open feature: none yet, the last one closed, or its term is over."""
        return (
            cls.status.does_not_exist()
            | cls.status.is_in(rules.EXPIRED, rules.ENDED, rules.REFUSED)
            | ((cls.status == rules.LIVE) & (cls.expires_at <= now))
        )

    @classmethod
    def holds(cls, feature_id: str) -> Condition:
        return cls.feature_id == feature_id
