"""The request lists: received and sent (open requests), declines out and in. Each page is one
Query on a box (tandem.store.boxes), newest first, 20 a page; the lists with new items flag
them from the brand's BrandSeen item and the first page marks them seen (one UpdateItem)."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from tandem.domain import requests as rules
from tandem.errors import ValidationError
from tandem.services.requests.present import request_json
from tandem.services.viewer import Viewer
from tandem.store import boxes, news
from tandem.store.models import BrandSeen
from tandem.store.requests import ConnectionRequest

CURSOR_INVALID = "This list link is out of date. Please reload the list."


def encode_cursor(position: Any) -> str | None:
    if not position:
        return None
    return base64.urlsafe_b64encode(json.dumps(position, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> Any:
    try:
        return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error):
        raise ValidationError(CURSOR_INVALID) from None


def start_of(cursor: str | None, side: str, brand_id: int, box: str) -> dict | None:
    """The position a `nextCursor` names: a key of this brand's `box`, and nothing else."""
    if not cursor:
        return None
    try:
        return boxes.check_position(decode_cursor(cursor), side, brand_id, box)
    except boxes.BadPosition:
        raise ValidationError(CURSOR_INVALID) from None


def mark_seen(brand_id: int, kind: str, fresh: set[str], first_page: bool, shown: bool) -> None:
    """Viewing a first page that shows items marks everything new of that list seen (the
    items on later pages are older still); the one write of a list view."""
    if first_page and shown and fresh:
        news.remove(brand_id, kind, fresh)


def list_box(
    brand_id: int,
    side: str,
    box: str,
    kind: str | None,
    cursor: str | None,
    seen: BrandSeen | None = None,
    sees_names: bool = True,
    hidden: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """One page of the brand's received (`side` in) or sent (out) requests in `box`, newest
    first; `kind` names its new items (None: the list flags nothing). `seen`: the brand's
    BrandSeen item when the caller read it already."""
    start = start_of(cursor, side, brand_id, box)
    fresh: set[str] = set()
    if kind is not None:
        fresh = news.ids(seen if seen is not None else news.read(brand_id), kind)
    items, following = boxes.page(side, brand_id, box, start, rules.PAGE_SIZE)
    if kind is not None:
        mark_seen(brand_id, kind, fresh, start is None, bool(items))
    # Blocked (either way) and suspended brands are left out (tandem.services.visibility),
    # except the sender's record of a request that was cancelled because the brand it wrote
    # to became unavailable: it says so instead of vanishing (the same words for a block and
    # a suspension, so a block stays silent).
    items = [r for r in items if _other_of(r, brand_id) not in hidden or _kept_for_sender(r, brand_id)]
    return {
        "items": [request_json(r, brand_id, r.request_id in fresh, sees_names=sees_names) for r in items],
        "nextCursor": encode_cursor(following),
    }


def _kept_for_sender(req: ConnectionRequest, brand_id: int) -> bool:
    return (
        int(req.from_brand_id) == brand_id
        and req.status == rules.CANCELLED
        and req.cancel_cause == rules.UNAVAILABLE
    )


def _other_of(req: ConnectionRequest, brand_id: int) -> int:
    return int(req.to_brand_id) if int(req.from_brand_id) == brand_id else int(req.from_brand_id)


def list_requests(viewer: Viewer, box: str, cursor: str | None = None) -> dict[str, Any]:
    """GET requests?box=received|sent: open requests, newest first, 20 a page (reads: LISTS)."""
    brand_id, seen, sees_names, hidden = viewer.brand_id, viewer.seen, viewer.names_shown, viewer.hidden
    if box not in ("received", "sent"):
        raise ValidationError("box must be received or sent")
    if box == "received":
        return list_box(
            brand_id, boxes.IN, rules.RECEIVED_BOX[rules.PENDING], news.REQUESTS, cursor, seen, hidden=hidden
        )
    return list_box(
        brand_id, boxes.OUT, rules.SENT_BOX[rules.PENDING], None, cursor, sees_names=sees_names, hidden=hidden
    )


def list_declines(viewer: Viewer, direction: str, cursor: str | None = None) -> dict[str, Any]:
    """GET declines?dir=out|in: out = this brand's requests that were declined (new ones are
    flagged), in = requests this brand declined (reads: LISTS)."""
    brand_id, seen, sees_names, hidden = viewer.brand_id, viewer.seen, viewer.names_shown, viewer.hidden
    if direction not in (boxes.IN, boxes.OUT):
        raise ValidationError("dir must be in or out")
    kind = news.DECLINES if direction == boxes.OUT else None
    return list_box(
        brand_id, direction, rules.RECEIVED_BOX[rules.DECLINED], kind, cursor, seen, sees_names, hidden
    )
