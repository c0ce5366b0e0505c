"""A brand's connection requests by box: one Query on an index per page.

Each request is in one box of its recipient (gsi1: REQ-IN#<brand>) and one of its sender
(gsi2: REQ-OUT#<brand>), sort key <BOX>#<ms of the last change>#<request id>, so a box reads
newest first (keys.box_sk; the boxes per status are tandem.domain.requests.RECEIVED_BOX and
SENT_BOX). A page position is the index key of its last item; `check_position` accepts only a
key of this brand's box (a key outside the query's box is a DynamoDB error, not an empty page).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tandem.store import keys
from tandem.store.requests import ConnectionRequest

IN, OUT = "in", "out"  # a recipient's boxes (received), a sender's boxes (sent)
SIDES = {IN: "gsi1", OUT: "gsi2"}
_SORT_KEY = re.compile(rf"^([A-Z]+)#\d{{{keys.TIME_WIDTH}}}#([A-Za-z0-9]{{1,40}})$")


class BadPosition(ValueError):
    """A page position that is not an item of this brand's box."""


def _partition(side: str, brand_id: int) -> str:
    return keys.requests_in_gsi(brand_id) if side == IN else keys.requests_out_gsi(brand_id)


def entered_ms(req: ConnectionRequest, side: str) -> int:
    """When the request entered its current box on `side` (epoch ms)."""
    return keys.box_ms(req.gsi1sk if side == IN else req.gsi2sk)


def page(
    side: str, brand_id: int, box: str, start: dict | None, limit: int
) -> tuple[list[ConnectionRequest], dict | None]:
    """Up to `limit` requests of the brand's `box` on `side`, newest first, from `start`;
    and the position after the last one (None when the box has no more)."""
    index = ConnectionRequest.received if side == IN else ConnectionRequest.sent
    sort_key = ConnectionRequest.gsi1sk if side == IN else ConnectionRequest.gsi2sk
    result = index.query(
        _partition(side, brand_id),
        sort_key.startswith(keys.box_prefix(box)),
        scan_index_forward=False,
        limit=limit,
        last_evaluated_key=start,
    )
    items = list(result)
    return items, (result.last_evaluated_key if len(items) == limit else None)


def every(side: str, brand_id: int, box: str) -> Iterator[ConnectionRequest]:
    """Every request of the brand's `box` on `side` (jobs, not screens: no page limit)."""
    index = ConnectionRequest.received if side == IN else ConnectionRequest.sent
    sort_key = ConnectionRequest.gsi1sk if side == IN else ConnectionRequest.gsi2sk
    return index.query(_partition(side, brand_id), sort_key.startswith(keys.box_prefix(box)))


def position_of(req: ConnectionRequest, side: str) -> dict:
    """The page position just after `req` on `side`."""
    gsi = SIDES[side]
    return {
        "pk": {"S": req.pk},
        "sk": {"S": req.sk},
        f"{gsi}pk": {"S": getattr(req, f"{gsi}pk")},
        f"{gsi}sk": {"S": getattr(req, f"{gsi}sk")},
    }


def check_position(key: Any, side: str, brand_id: int, box: str) -> dict:
    """`key` if it is a position in the brand's `box` on `side`; BadPosition otherwise."""
    gsi = SIDES[side]
    expected = {"pk", "sk", f"{gsi}pk", f"{gsi}sk"}
    if (
        not isinstance(key, dict)
        or set(key) != expected
        or not all(isinstance(v, dict) and isinstance(v.get("S"), str) and len(v) == 1 for v in key.values())
        or key[f"{gsi}pk"]["S"] != _partition(side, brand_id)
    ):
        raise BadPosition("not a position in this box")
    position = _SORT_KEY.match(key[f"{gsi}sk"]["S"])
    if (
        position is None
        or position.group(1) != box
        or key["pk"]["S"] != keys.request_pk(position.group(2))
        or key["sk"]["S"] != keys.META
    ):
        raise BadPosition("not a position in this box")
    return key
