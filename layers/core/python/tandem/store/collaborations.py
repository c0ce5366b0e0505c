"""Collaborations (issue 41): the store layout, one Query per screen.

- a collaboration, one copy per brand   pk=COLLAB#<id>  sk=SIDE#<padded brand id>
  on that brand's list                  gsi1pk=BRAND-COLLABS#<brand>  gsi1sk=<proposed ms>#<id>
- its thread                            pk=COLLAB#<id>  sk=MSG#<ms>#<message id>

The two copies hold the same collaboration (the plan, the checklist, the changes, both sides'
results); only `brand_id`, `other_id` and the index keys differ. Every change writes both in one
transaction, so a brand's list (Collaborations: one Query of its index) and one collaboration's
screen (one Query of its partition: both copies and the thread) each read everything in one call.
The API's door reads the caller's own copy with the caller (viewer `more`): a brand with no copy
is a stranger to the collaboration (404) before anything else is read.

Roles: `a` is the brand that proposed, `b` the other; the checklist owners and the results are
kept by role (a, b, both).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pynamodb.attributes import ListAttribute, MapAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.expressions.condition import size
from pynamodb.expressions.operand import Path

from tandem.config import settings
from tandem.domain import collaborations as rules
from tandem.integrations.aws import client
from tandem.store import keys
from tandem.store.base import Condition, Key, TandemModel, _Gsi1, _Gsi2, _register, transaction, update_only
from tandem.store.connection import Transaction
from tandem.store.models import RateCounter

SHARED_FIELDS = (
    "collab_id",
    "a_id",
    "b_id",
    "status",
    "turn",
    "format",
    "title",
    "brings_a",
    "brings_b",
    "goal",
    "start",
    "end",
    "moment",
    "idea",
    "brief",
    "checklist",
    "changes",
    "ended_reason",
    "ended_by",
    "ended_cause",
    "created_at",
    "updated_at",
    "version",
    "results_a",
    "results_b",
    "learned",
)


@_register
class Collaboration(TandemModel):
    """One brand's copy of a collaboration (see the module's docstring)."""

    brand_id = NumberAttribute()  # whose copy
    other_id = NumberAttribute()
    collab_id = UnicodeAttribute()
    a_id = NumberAttribute()  # the proposer
    b_id = NumberAttribute()
    status = UnicodeAttribute()  # proposed | agreed | declined | cancelled (domain/collaborations.py)
    turn = NumberAttribute(null=True)  # while proposed: the brand that answers
    format = UnicodeAttribute()
    title = UnicodeAttribute()
    brings_a = UnicodeAttribute()
    brings_b = UnicodeAttribute()
    goal = UnicodeAttribute()
    start = UnicodeAttribute()  # YYYY-MM-DD
    end = UnicodeAttribute()
    moment = UnicodeAttribute(null=True)  # a calendar moment's slug
    idea = UnicodeAttribute(null=True)  # the collab idea it was planned from
    brief = UnicodeAttribute(null=True)  # the idea's template, copied in
    # [{id, text, owner (a|b|both), due (YYYY-MM-DD|None), done_at (ms|None), done_by}]
    checklist = ListAttribute(default=list)
    # [{by, at (ms), kind (proposed|changed|accepted|declined|cancelled), fields {name: [old, new]}}]
    changes = ListAttribute(default=list)
    ended_reason = UnicodeAttribute(null=True)
    ended_by = NumberAttribute(null=True)
    ended_cause = UnicodeAttribute(null=True)  # "unavailable": a block or suspension ended it
    created_at = NumberAttribute()  # epoch ms
    updated_at = NumberAttribute()
    version = NumberAttribute(default=1)
    results_a = MapAttribute(null=True)  # type: ignore[var-annotated]
    results_b = MapAttribute(null=True)  # type: ignore[var-annotated]
    learned = NumberAttribute(null=True)  # epoch ms the outcome went to matching's records
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    of_brand_index = _Gsi1()
    gsi2pk = UnicodeAttribute(null=True)  # COLLAB-WATCH on the proposer's copy while reminders are to come
    gsi2sk = UnicodeAttribute(null=True)
    watched_index = _Gsi2()

    @classmethod
    def key(cls, collab_id: str, brand_id: int) -> Key:
        return keys.collab_pk(collab_id), keys.collab_side_sk(brand_id)

    def shared(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SHARED_FIELDS}

    def role(self, brand_id: int) -> str:
        return "a" if brand_id == int(self.a_id) else "b"

    def results_of(self, brand_id: int) -> dict[str, Any] | None:
        found = self.results_a if self.role(brand_id) == "a" else self.results_b
        return _plain(found)


def _plain(value: Any) -> Any:
    if isinstance(value, MapAttribute):
        return value.as_dict()
    return value


def side(shared: dict[str, Any], brand_id: int) -> Collaboration:
    """The copy of `brand_id` of the collaboration described by `shared`."""
    a_id, b_id = int(shared["a_id"]), int(shared["b_id"])
    other = b_id if brand_id == a_id else a_id
    return Collaboration(
        *Collaboration.key(shared["collab_id"], brand_id),
        brand_id=brand_id,
        other_id=other,
        gsi1pk=keys.brand_collabs_gsi(brand_id),
        gsi1sk=keys.brand_collabs_sk(int(shared["created_at"]), shared["collab_id"]),
        **{k: _plain(v) for k, v in shared.items() if v is not None},
    )


@_register
class CollabStats(TandemModel):
    """The admin console's figures (pk=SITE, sk=COLLABSTATS): one number attribute per status
    (s_<status>: how many are in it now) and per month (m_<YYYYMM>: how many were proposed then),
    ADDed in the transaction of each change, so they never drift from the collaborations."""

    @classmethod
    def key(cls) -> Key:  # type: ignore[override]
        return keys.SITE_PK, keys.COLLAB_STATS_SK


def _count(tx: Transaction, moves: dict[str, int], month: str | None = None) -> None:
    actions = [Path(f"s_{status}").add(amount) for status, amount in moves.items() if amount]
    if month is not None:
        actions.append(Path(f"m_{month}").add(1))
    if actions:
        tx.update(CollabStats.at(), actions=actions)


def stats() -> dict[str, dict[str, int]]:
    """{"statuses": {status: n}, "months": {YYYYMM: n}}: one GetItem."""
    raw = (
        client("dynamodb")
        .get_item(
            TableName=settings().table_name,
            Key={"pk": {"S": keys.SITE_PK}, "sk": {"S": keys.COLLAB_STATS_SK}},
            ConsistentRead=True,
        )
        .get("Item", {})
    )
    found: dict[str, dict[str, int]] = {"statuses": {}, "months": {}}
    for name, value in raw.items():
        if "N" in value and name[:2] in ("s_", "m_"):
            found["statuses" if name[0] == "s" else "months"][name[2:]] = int(value["N"])
    return found


def create(shared: dict[str, Any]) -> None:
    """Both copies of a new collaboration, in one transaction (its id is fresh: no condition),
    counted among the proposed and this month's."""
    month = datetime.fromtimestamp(int(shared["created_at"]) / 1000, UTC).strftime("%Y%m")
    with transaction() as tx:
        for brand_id in (int(shared["a_id"]), int(shared["b_id"])):
            tx.save(side(shared, brand_id), condition=Collaboration.pk.does_not_exist())
        _count(tx, {str(shared["status"]): 1}, month)


def update_both(
    collab: Collaboration,
    actions: list,
    condition: Condition | None = None,
    proposer_only: list | None = None,
    moves: dict[str, int] | None = None,
) -> None:
    """The same change to both copies, in one transaction; `condition` holds on each (raises
    ConditionFailed otherwise). `proposer_only`: more actions on the proposer's copy (the watch
    index lives there alone); `moves`: the site's status counts it changes."""
    with transaction() as tx:
        for brand_id in (int(collab.a_id), int(collab.b_id)):
            extra = (proposer_only or []) if brand_id == int(collab.a_id) else []
            tx.update(
                Collaboration.at(collab.collab_id, brand_id), actions=[*actions, *extra], condition=condition
            )
        _count(tx, moves or {})


def changed_version(
    collab: Collaboration, actions: list, proposer_only: list | None = None, status: str | None = None
) -> None:
    """A change of the plan or its status (to `status`), made only if nobody changed it since
    `collab` was read (its version), raising ConditionFailed otherwise."""
    version = int(collab.version)
    moves = {collab.status: -1, status: 1} if status and status != collab.status else None
    update_both(
        collab,
        [*actions, Collaboration.version.set(version + 1)],
        condition=Collaboration.version == version,
        proposer_only=proposer_only,
        moves=moves,
    )


def watch(end_day: str, collab_id: str) -> list:
    """The proposer's copy's actions that put the collaboration on the reminders' index."""
    return [
        Collaboration.gsi2pk.set(keys.COLLABS_WATCHED),
        Collaboration.gsi2sk.set(keys.collab_watch_sk(end_day, collab_id)),
    ]


def unwatch(collab: Collaboration) -> None:
    """Off the reminders' index (nothing more to remind of)."""
    update_only(
        Collaboration,
        Collaboration.key(collab.collab_id, int(collab.a_id)),
        [Collaboration.gsi2pk.remove(), Collaboration.gsi2sk.remove()],
    )


def watched() -> Iterator[Collaboration]:
    """The proposer's copies of the collaborations with reminders to come: one Query (paged)."""
    return Collaboration.watched_index.query(keys.COLLABS_WATCHED)


@_register
class CollabReminder(TandemModel):
    """A reminder of one collaboration, claimed once (whoever claims it sends it)."""

    at = NumberAttribute()

    @classmethod
    def key(cls, collab_id: str, reminder: str) -> Key:  # type: ignore[override]
        return keys.collab_pk(collab_id), keys.collab_reminded_sk(reminder)


def claim_reminder(collab_id: str, reminder: str, at: int) -> bool:
    return CollabReminder(*CollabReminder.key(collab_id, reminder), at=at).put_new()


def tick(collab: Collaboration, index: int, item_id: str, done_at: int | None, done_by: int | None) -> None:
    """Tick (or untick) checklist item `index` on both copies: one transaction, conditional on the
    item still being there."""
    item = Collaboration.checklist[index]
    actions = (
        [item["done_at"].set(done_at), item["done_by"].set(done_by)]
        if done_at is not None
        else [item["done_at"].remove(), item["done_by"].remove()]
    )
    update_both(collab, actions, condition=Collaboration.checklist[index]["id"] == item_id)


def add_items(collab: Collaboration, items: list[dict[str, Any]], limit: int) -> None:
    """Append checklist items on both copies, only while the list stays within `limit`."""
    update_both(
        collab,
        [Collaboration.checklist.set(Collaboration.checklist.append(items))],
        condition=size(Collaboration.checklist) <= limit - len(items),
    )


@_register
class CollabMessage(TandemModel):
    collab_id = UnicodeAttribute()
    message_id = UnicodeAttribute()
    brand_id = NumberAttribute()  # the side that wrote it
    author = UnicodeAttribute(default="")  # the member's first name, as the other side reads it
    text = UnicodeAttribute()
    at = NumberAttribute()  # epoch ms

    @classmethod
    def key(cls, collab_id: str, at_ms: int, message_id: str) -> Key:  # type: ignore[override]
        return keys.collab_pk(collab_id), keys.collab_message_sk(at_ms, message_id)


def write_message(message: CollabMessage, mine: Collaboration, counter: Key, limit: int, ttl: int) -> None:
    """The message, its count in the brand's hour (refused past `limit`) and a check that the
    writer's copy is still open: one transaction. ConditionFailed names which failed (the
    counter: too many; the copy: closed or gone)."""
    with transaction() as tx:
        tx.condition_check(
            Collaboration,
            mine.pk,
            mine.sk,
            condition=Collaboration.status.is_in(rules.PROPOSED, rules.AGREED),
        )
        tx.save(message, condition=CollabMessage.pk.does_not_exist())
        tx.update(
            RateCounter(*counter),
            actions=[RateCounter.count.add(1), RateCounter.ttl.set(ttl)],
            condition=RateCounter.count.does_not_exist() | (RateCounter.count < limit),
        )


@dataclass
class CollabItems:
    sides: dict[int, Collaboration] = field(default_factory=dict)
    messages: list[CollabMessage] = field(default_factory=list)


def everything(collab_id: str) -> CollabItems:
    """Both copies and the whole thread, oldest message first: one Query (more only past 1 MB)."""
    found = CollabItems()
    request: dict[str, Any] = {
        "TableName": settings().table_name,
        "KeyConditionExpression": "pk = :pk",
        "ExpressionAttributeValues": {":pk": {"S": keys.collab_pk(collab_id)}},
        "ConsistentRead": True,
    }
    while True:
        answer = client("dynamodb").query(**request)
        for raw in answer.get("Items", []):
            sort_key = raw["sk"]["S"]
            if sort_key.startswith(keys.COLLAB_SIDE_PREFIX):
                copy = Collaboration.from_raw_data(raw)
                found.sides[int(copy.brand_id)] = copy
            elif sort_key.startswith(keys.COLLAB_MESSAGE_PREFIX):
                found.messages.append(CollabMessage.from_raw_data(raw))
        if not answer.get("LastEvaluatedKey"):
            return found
        request["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def of_brand(brand_id: int) -> Iterator[Collaboration]:
    """A brand's copies, newest first: one Query of its index (pages as they come)."""
    return Collaboration.of_brand_index.query(keys.brand_collabs_gsi(brand_id), scan_index_forward=False)


@_register
class CalendarFeed(TandemModel):
    """A brand's private calendar feed (pk=BRAND#<id>, sk=CALFEED): the hash of its secret."""

    brand_id = NumberAttribute()
    secret_hash = UnicodeAttribute()
    created_at = NumberAttribute()

    @classmethod
    def key(cls, brand_id: int) -> Key:  # type: ignore[override]
        return keys.brand_pk(brand_id), keys.COLLAB_FEED_SK


@_register
class CalendarFeedSecret(TandemModel):
    """Which brand a feed's secret opens (pk=CALFEED#<hash>, sk=META)."""

    brand_id = NumberAttribute()

    @classmethod
    def key(cls, secret_hash: str) -> Key:  # type: ignore[override]
        return keys.collab_feed_pk(secret_hash), keys.META


def replace_feed(brand_id: int, secret_hash: str, at: int, old_hash: str | None) -> None:
    """The brand's feed now opens with the new secret only (the old one, if any, stops at once):
    one transaction."""
    with transaction() as tx:
        if old_hash:
            tx.delete(CalendarFeedSecret.at(old_hash))
        tx.save(CalendarFeedSecret(*CalendarFeedSecret.key(secret_hash), brand_id=brand_id))
        tx.save(
            CalendarFeed(
                *CalendarFeed.key(brand_id), brand_id=brand_id, secret_hash=secret_hash, created_at=at
            )
        )


def revoke_feed(brand_id: int, old_hash: str) -> None:
    with transaction() as tx:
        tx.delete(CalendarFeedSecret.at(old_hash))
        tx.delete(CalendarFeed.at(brand_id))
