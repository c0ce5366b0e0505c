"""What is new for a brand: the BrandSeen item (pk=BRAND#<id>, sk=SEEN) and its id sets.

- `new_requests`: pending requests the brand received. Added when a request reaches it (send,
  or an awaiting one released); removed when the request leaves pending, or when the brand
  views the first page of its received requests.
- `new_connections`, `new_declines`: requests the brand sent that the other brand accepted or
  declined; removed when the brand views the first page of its connections or declines-out.
- `new_matches`: candidate ids a match run added; removed when the potentials list shows them
  (or leaves them out for good), when the brand dismisses one, or when a rerun drops it.
- `open_runs`: "<started epoch s>:<run id>" of the brand's queued and running match runs.
- `views`: the brand's recent Matches views (what matching learns from), set by the same
  UpdateItem that clears the new matches a view showed: a GET writes this one item.

Sets change with ADD / DELETE actions: atomic, no read first, and valid on an item or set that
does not exist yet, so they ride inside the requests' transactions. Menu counts are the sets'
sizes: the dashboard reads one item instead of counting boxes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from tandem.store.connection import Transaction
from tandem.store.items import get_many
from tandem.store.models import BrandSeen

REQUESTS = "new_requests"
CONNECTIONS = "new_connections"
DECLINES = "new_declines"
MATCHES = "new_matches"
OPEN_RUNS = "open_runs"
KINDS = (REQUESTS, CONNECTIONS, DECLINES, MATCHES, OPEN_RUNS)


def _attribute(kind: str) -> Any:
    if kind not in KINDS:
        raise ValueError(f"unknown news kind {kind!r}")
    return getattr(BrandSeen, kind)


def _ids(values: Iterable[Any]) -> set[str]:
    return {str(v) for v in values}


def add_in(tx: Transaction, brand_id: int, kind: str, ids: Iterable[Any]) -> None:
    """Inside a transaction: these items are new to the brand."""
    wanted = _ids(ids)
    if wanted:
        tx.update(BrandSeen.at(brand_id), actions=[_attribute(kind).add(wanted)])


def remove_in(tx: Transaction, brand_id: int, kind: str, ids: Iterable[Any]) -> None:
    """Inside a transaction: these items are no longer new to the brand."""
    wanted = _ids(ids)
    if wanted:
        tx.update(BrandSeen.at(brand_id), actions=[_attribute(kind).delete(wanted)])


def add(brand_id: int, kind: str, ids: Iterable[Any]) -> None:
    """These items are new to the brand (one UpdateItem)."""
    wanted = _ids(ids)
    if wanted:
        BrandSeen.at(brand_id).update(actions=[_attribute(kind).add(wanted)])


def remove(brand_id: int, kind: str, ids: Iterable[Any]) -> None:
    """These items are no longer new to the brand (one UpdateItem; a GET's one write)."""
    wanted = _ids(ids)
    if wanted:
        BrandSeen.at(brand_id).update(actions=[_attribute(kind).delete(wanted)])


def viewed(brand_id: int, kind: str, ids: Iterable[Any], views: bytes | None = None) -> bool:
    """A list's view: these items are no longer new and, with `views`, the brand's recent views
    are now these (BrandSeen.views, store/learning.py): one UpdateItem of the one item, or no
    call when there is nothing to change. True when it wrote."""
    wanted = _ids(ids)
    actions = [_attribute(kind).delete(wanted)] if wanted else []
    if views is not None:
        actions.append(BrandSeen.views.set(views))
    if not actions:
        return False
    BrandSeen.at(brand_id).update(actions=actions)
    return True


def views_of(brand_ids: Iterable[int]) -> dict[int, bytes]:
    """{brand id: its BrandSeen.views} of those that keep any (BatchGetItem, 100 a call)."""
    found = get_many([(BrandSeen, BrandSeen.key(int(b))) for b in brand_ids])
    return {int(k[0].split("#", 1)[1]): bytes(v.views) for k, v in found.items() if v.views}


def read(brand_id: int) -> BrandSeen:
    """The brand's item (an empty one when nothing was ever new)."""
    return BrandSeen.find(brand_id) or BrandSeen.at(brand_id)


# A run open longer than this is failed by the scheduler's sweep (match_runs.fail_stuck_runs);
# screens stop waiting for it then too.
STUCK_AFTER = timedelta(minutes=15)


def open_run_of(seen: BrandSeen | None, now: datetime | None = None) -> str | None:
    """The id of the brand's latest queued or running match run, or None."""
    since = ((now or datetime.now(UTC)) - STUCK_AFTER).timestamp()
    open_runs = []
    for entry in ids(seen, OPEN_RUNS):
        started, _, run_id = entry.partition(":")
        if started.isdigit() and int(started) > since and run_id:
            open_runs.append((int(started), run_id))
    return max(open_runs)[1] if open_runs else None


def ids(seen: BrandSeen | None, kind: str) -> set[str]:
    return set(getattr(seen, kind, None) or ()) if seen is not None else set()


def count(seen: BrandSeen | None, kind: str) -> int:
    return len(ids(seen, kind))
