"""Connections: the brands a brand is connected with, newest connection first, 20 a page.

Three DynamoDB calls a page: the brand's partition (profile, relations, what is new: the
connected relations name each connection's request), one BatchGetItem of the page's requests
and the other brands as they are now (with the caller's own items, checked there), and, on a
first page with new connections, one UpdateItem marking them seen.
"""

from __future__ import annotations

from typing import Any

from tandem.domain import relations as rel
from tandem.domain import requests as rules
from tandem.domain.ids import parse_id
from tandem.errors import NotFound, ValidationError
from tandem.services.requests.boxes import CURSOR_INVALID, decode_cursor, encode_cursor
from tandem.services.requests.present import connection_json
from tandem.services.viewer import Pending, Viewer
from tandem.store import news
from tandem.store.items import get_many
from tandem.store.models import Brand, BrandRelation
from tandem.store.partition import brand_items
from tandem.store.requests import ConnectionRequest

NOT_CONNECTED = "You are not connected with this brand"


def _connected_ms(relation: BrandRelation) -> int:
    """When they connected (epoch ms); relations from before `connected_at` use their last change."""
    return int(relation.connected_at or int(relation.updated_at or 0) * 1000)


def _order(relation: BrandRelation) -> tuple[int, int]:
    return _connected_ms(relation), int(relation.other_id)


def _start(cursor: str | None) -> tuple[int, int] | None:
    """A cursor names the last connection of the previous page: [connected ms, brand id]."""
    if not cursor:
        return None
    position = decode_cursor(cursor)
    if not isinstance(position, list) or len(position) != 2:
        raise ValidationError(CURSOR_INVALID)
    at, other = (parse_id(p, 20) if not isinstance(p, bool) else None for p in position)
    if at is None or other is None:
        raise ValidationError(CURSOR_INVALID)
    return at, other


def list_connections(pending: Pending, cursor: str | None = None) -> dict[str, Any]:
    """GET connections: connections in either direction, newest first. New: connections this
    brand asked for that the other brand accepted (its own accepts are not news to it). The
    caller is checked with the second read (reads: LIST_OF_BRAND)."""
    start = _start(cursor)
    brand_id = pending.brand_id
    mine = brand_items(brand_id)  # call 1
    # A connection with a brand blocked either way is hidden (tandem.services.visibility; the
    # blocks came with the partition); one with a suspended brand is left out below.
    blocked = mine.blocks.hidden() if mine.blocks is not None else set()
    connected = sorted(
        (
            r
            for r in mine.relations.values()
            if r.request_state == rel.CONNECTED and r.request_id and int(r.other_id) not in blocked
        ),
        key=_order,
        reverse=True,
    )
    if start is not None:
        connected = [r for r in connected if _order(r) < start]
    page, more = connected[: rules.PAGE_SIZE], len(connected) > rules.PAGE_SIZE
    wanted = [*pending.keys]
    wanted += [(ConnectionRequest, ConnectionRequest.key(r.request_id)) for r in page]
    wanted += [(Brand, Brand.key(int(r.other_id))) for r in page]
    found = get_many(wanted)  # call 2
    pending.viewer(found, mine.profile)
    fresh = news.ids(mine.seen, news.CONNECTIONS)
    items = []
    for relation in page:
        req = found.get(ConnectionRequest.key(relation.request_id))
        if req is None or req.status != rules.ACCEPTED:
            continue
        live = found.get(Brand.key(int(relation.other_id)))
        if live is not None and live.suspended:
            continue
        asked = int(req.from_brand_id) == brand_id
        items.append(connection_json(req, brand_id, live, asked and req.request_id in fresh))
    if start is None and any(i["direction"] == "sent" for i in items) and fresh:
        news.remove(brand_id, news.CONNECTIONS, fresh)  # call 3, only when there was news
    return {"items": items, "nextCursor": encode_cursor(list(_order(page[-1]))) if more else None}


def connection_with(viewer: Viewer, other_id: int) -> dict[str, Any]:
    """GET connections/{brandId}: the connection with one brand (404 when not connected, or
    hidden by a block or a suspension; reads: SEES)."""
    brand_id = viewer.brand_id
    if other_id in viewer.hidden:
        raise NotFound(NOT_CONNECTED)
    relation = BrandRelation.find(brand_id, other_id, consistent=True)
    if relation is None or relation.request_state != rel.CONNECTED or not relation.request_id:
        raise NotFound(NOT_CONNECTED)
    req_key, brand_key = ConnectionRequest.key(relation.request_id), Brand.key(other_id)
    found = get_many([(ConnectionRequest, req_key), (Brand, brand_key)], consistent=True)
    req = found.get(req_key)
    if (
        req is None
        or req.status != rules.ACCEPTED
        or brand_id not in (int(req.from_brand_id), int(req.to_brand_id))
    ):
        raise NotFound(NOT_CONNECTED)
    return {"connection": connection_json(req, brand_id, found.get(brand_key), False)}
