"""Connection requests (with the two brands' summaries as they were when sent)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)
from pynamodb.indexes import GlobalSecondaryIndex, KeysOnlyProjection

from tandem.domain import requests as request_rules
from tandem.store import keys
from tandem.store.base import Key, TandemModel, _Gsi1, _Gsi2, _register, update_only
from tandem.store.brands import BrandSummaryMap
from tandem.store.errors import ConditionFailed


class _DueIndex(GlobalSecondaryIndex):
    """gsi3 (keys only here: its projection is the admin lists' user fields): pending requests
    by the time their next step is due."""

    class Meta:
        index_name = "gsi3"
        projection = KeysOnlyProjection()

    gsi3pk = UnicodeAttribute(hash_key=True)
    gsi3sk = UnicodeAttribute(range_key=True)


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
    # Set when a cancel was not the sender's own (tandem.domain.requests.CANCEL_CAUSES).
    cancel_cause = UnicodeAttribute(null=True)
    hold_bucket_id = UnicodeAttribute(null=True)
    hold_release_until = NumberAttribute(null=True)
    pitch = MapAttribute(null=True)  # a pitch to a Pitch Area feature: {feature_id, title}
    # Both brands' packed match records when it was sent (tandem.domain.matching.pack, 66 bytes
    # each): the pair's features at that moment, recorded with its outcome (store/learning.py).
    from_record = BinaryAttribute(legacy_encoding=False, null=True)
    to_record = BinaryAttribute(legacy_encoding=False, null=True)
    # The fit percent the sender was shown for the pair when it sent (its match's, else scored
    # then), and the fit label it was shown when that label went by the brand's chance of
    # accepting (its match's; None otherwise): what a label's promise is measured on
    # (services/match_learning.py).
    shown_percent = NumberAttribute(null=True)
    shown_fit = UnicodeAttribute(null=True)
    created_at = NumberAttribute()  # epoch milliseconds
    updated_at = NumberAttribute()
    # A pending request: when it expires (epoch s) and the next step of its schedule (a
    # reminder, the expiry, the expiry email), in gsi3 by due time while one is to come.
    expires_at = NumberAttribute(null=True)
    due_step = UnicodeAttribute(null=True)
    gsi3pk = UnicodeAttribute(null=True)
    gsi3sk = UnicodeAttribute(null=True)
    due = _DueIndex()
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
        if status == request_rules.PENDING:
            fields = {**fields, **cls._schedule_fields(request_id, at_ms // 1000)}
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

    @staticmethod
    def _schedule_fields(request_id: str, pending_since: int) -> dict[str, Any]:
        step, due_at = request_rules.first_step(pending_since)
        return {
            "expires_at": request_rules.expires_at(pending_since),
            **ConnectionRequest._due_fields(request_id, step, due_at),
        }

    @staticmethod
    def _due_fields(request_id: str, step: str | None, due_at: int = 0) -> dict[str, Any]:
        if step is None:
            return {"due_step": None, "gsi3pk": None, "gsi3sk": None}
        return {
            "due_step": step,
            "gsi3pk": keys.REQUESTS_DUE,
            "gsi3sk": keys.request_due_sk(due_at, request_id),
        }

    def _move_fields(self, status: str, at_ms: int) -> dict[str, Any]:
        """The schedule after moving to `status`: a new pending request starts it; an expired
        one keeps one step (its sender's email); any other status leaves the due index."""
        if status == request_rules.PENDING:
            return self._schedule_fields(self.request_id, at_ms // 1000)
        if status == request_rules.EXPIRED:
            return self._due_fields(self.request_id, request_rules.MAIL_EXPIRED, at_ms // 1000)
        return self._due_fields(self.request_id, None)

    def move_actions(self, status: str, at_ms: int) -> list:
        """Update actions moving the request to `status` at `at_ms` (both sides' boxes, and its
        place in the due index)."""
        cls = type(self)
        actions = [
            cls.status.set(status),
            cls.updated_at.set(at_ms),
            cls.gsi1sk.set(keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)),
            cls.gsi2sk.set(keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)),
        ]
        for name, value in self._move_fields(status, at_ms).items():
            attr = getattr(cls, name)
            actions.append(attr.remove() if value is None else attr.set(value))
        return actions

    def moved(self, status: str, at_ms: int) -> None:
        """This object as the item reads after `move_actions` applied (no need to read it again)."""
        fields = self._move_fields(status, at_ms)
        self.status, self.updated_at = status, at_ms
        self.gsi1sk = keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)
        self.gsi2sk = keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)
        for name, value in fields.items():
            setattr(self, name, value)

    # ------------------------------------------------------------ the due index

    @classmethod
    def due_ids(cls, now: int, page_size: int = 100) -> Iterator[list[str]]:
        """Ids of requests whose next step is due at `now`, earliest first, a page at a time
        (one Query each; the index holds only requests with a step to come)."""
        pages = cls.due.query(
            keys.REQUESTS_DUE, cls.gsi3sk < keys.request_due_before(now), page_size=page_size
        )
        batch: list[str] = []
        for item in pages:
            batch.append(keys.request_id_of(item.pk))
            if len(batch) == page_size:
                yield batch
                batch = []
        if batch:
            yield batch

    def index_schedule(self) -> bool:
        """Give a pending request from before the due index its schedule, counted from when it
        became pending (its last change). False when it has one or is no longer pending."""
        cls = type(self)
        fields = self._schedule_fields(self.request_id, int(self.updated_at) // 1000)
        try:
            update_only(
                cls,
                cls.key(self.request_id),
                [getattr(cls, name).set(value) for name, value in fields.items()],
                condition=(cls.status == request_rules.PENDING) & cls.due_step.does_not_exist(),
            )
        except ConditionFailed:
            return False
        return True

    def advance_step(self, step: str, then: tuple[str, int] | None) -> bool:
        """Move this request's schedule from `step` to `then` ((step, due) or None: done),
        only if `step` is still its step (a claim: of two runs, one wins). False if not."""
        cls = type(self)
        fields = self._due_fields(self.request_id, *(then or (None,)))
        actions = [
            getattr(cls, n).remove() if v is None else getattr(cls, n).set(v) for n, v in fields.items()
        ]
        try:
            update_only(cls, cls.key(self.request_id), actions, condition=cls.due_step == step)
        except ConditionFailed:
            return False
        for name, value in fields.items():
            setattr(self, name, value)
        return True


@_register
class RequestReminder(TandemModel):
    """A reminder of a request sent to its recipient (pk=REQUEST#<id>, sk=REMINDED#<day>):
    written once, before the reminder is queued, so it is never sent twice."""

    at = NumberAttribute()
    ttl = NumberAttribute(null=True)

    @classmethod
    def key(cls, request_id: str, day: int) -> Key:
        return keys.request_pk(request_id), keys.reminder_sk(day)

    @classmethod
    def claim(cls, request_id: str, day: int, at: int) -> bool:
        return cls(*cls.key(request_id, day), at=at, ttl=at + 60 * 86400).put_new()
