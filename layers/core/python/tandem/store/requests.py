"""Connection requests (with the two brands' summaries as they were when sent)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pynamodb.attributes import (
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)

from tandem.domain import requests as request_rules
from tandem.store import keys

if TYPE_CHECKING:
    pass
from tandem.store.base import Key, TandemModel, _Gsi1, _Gsi2, _register
from tandem.store.brands import BrandSummaryMap


@_register
class ConnectionRequest(TandemModel):
    """A connection request from one brand to another (pk=REQUEST#<id>, sk=META).

    gsi1 is the recipient's boxes and gsi2 the sender's (keys.box_sk): each list is one query.
    """

    request_id = UnicodeAttribute()
    from_brand_id = NumberAttribute()
    to_brand_id = NumberAttribute()
    from_account_id = UnicodeAttribute()
    to_account_id = UnicodeAttribute()
    from_brand = BrandSummaryMap()
    to_brand = BrandSummaryMap()
    message = UnicodeAttribute()
    reply = UnicodeAttribute(null=True)
    from_contact = MapAttribute(null=True)  # each side's contact details, kept on accept
    to_contact = MapAttribute(null=True)
    # awaiting_approval | pending | accepted | declined | cancelled
    status = UnicodeAttribute()
    hold_bucket_id = UnicodeAttribute(null=True)
    hold_release_until = NumberAttribute(null=True)
    pitch = MapAttribute(null=True)  # a pitch to a Pitch Area feature: {feature_id, title}
    created_at = NumberAttribute()  # epoch milliseconds
    updated_at = NumberAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    received = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    sent = _Gsi2()

    @classmethod
    def key(cls, request_id: str) -> Key:
        return keys.request_pk(request_id), keys.META

    @classmethod
    def new(
        cls,
        request_id: str,
        *,
        from_brand: BrandSummaryMap,
        to_brand: BrandSummaryMap,
        status: str,
        at_ms: int,
        **fields: Any,
    ) -> ConnectionRequest:
        """A request sent at `at_ms`, in its boxes on both sides (store/boxes.py)."""
        from_id, to_id = int(from_brand.id), int(to_brand.id)
        return cls(
            *cls.key(request_id),
            request_id=request_id,
            from_brand_id=from_id,
            to_brand_id=to_id,
            from_brand=from_brand,
            to_brand=to_brand,
            status=status,
            created_at=at_ms,
            updated_at=at_ms,
            gsi1pk=keys.requests_in_gsi(to_id),
            gsi1sk=keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, request_id),
            gsi2pk=keys.requests_out_gsi(from_id),
            gsi2sk=keys.box_sk(request_rules.SENT_BOX[status], at_ms, request_id),
            **fields,
        )

    def move_actions(self, status: str, at_ms: int) -> list:
        """Update actions moving the request to `status` at `at_ms` (both sides' boxes)."""
        cls = type(self)
        return [
            cls.status.set(status),
            cls.updated_at.set(at_ms),
            cls.gsi1sk.set(keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)),
            cls.gsi2sk.set(keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)),
        ]

    def moved(self, status: str, at_ms: int) -> None:
        """This object as the item reads after `move_actions` applied (no need to read it again)."""
        self.status, self.updated_at = status, at_ms
        self.gsi1sk = keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)
        self.gsi2sk = keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)
