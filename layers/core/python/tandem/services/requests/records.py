"""Reading one request and deciding who may see it; what every change shares."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import requests as rules
from tandem.errors import FieldErrors, NotFound
from tandem.services.requests.present import request_json
from tandem.services.viewer import Viewer
from tandem.store.base import Condition
from tandem.store.connection import Transaction
from tandem.store.models import BrandRelation
from tandem.store.requests import ConnectionRequest

ATTEMPTS = 4  # a lost race (credit taken, request changed) reads again and tries again
NOT_FOUND = "Request not found"


def now_ms() -> int:
    return int(time.time() * 1000)


def valid_id(request_id: Any) -> bool:
    return isinstance(request_id, str) and request_id.isalnum() and len(request_id) <= 40


def get_request(request_id: str) -> ConnectionRequest:
    if not valid_id(request_id):
        raise NotFound(NOT_FOUND)
    req = ConnectionRequest.find(request_id, consistent=True)
    if req is None:
        raise NotFound(NOT_FOUND)
    return req


def party(req: ConnectionRequest, brand_id: int, hidden: frozenset[int] = frozenset()) -> str:
    """'sender' or 'recipient'; a brand that is neither does not learn the request exists, nor
    does one whose other brand is `hidden` from it (blocked either way or suspended:
    tandem.services.visibility), which gets the same 404 as for an unknown request."""
    other = int(req.to_brand_id) if int(req.from_brand_id) == brand_id else int(req.from_brand_id)
    if other in hidden:
        raise NotFound(NOT_FOUND)
    if int(req.from_brand_id) == brand_id:
        return "sender"
    if int(req.to_brand_id) == brand_id and req.status != rules.AWAITING:
        return "recipient"
    raise NotFound(NOT_FOUND)


def view(viewer: Viewer, request_id: str) -> dict[str, Any]:
    """GET requests/{id}: the request as this brand sees it (404 unless it is a party and the
    other brand is not hidden from it; reads: SEES)."""
    req = get_request(request_id)
    party(req, viewer.brand_id, viewer.hidden)
    return {"request": request_json(req, viewer.brand_id, sees_names=viewer.names_shown)}


def clean_text(raw: Any, field: str, required: bool, limit: int) -> str:
    """A message or reply, or a 400 naming the field."""
    try:
        return rules.clean_message(raw, required=required, limit=limit)
    except ValueError as exc:
        raise FieldErrors({field: str(exc)}) from None


def relation_update(
    tx: Transaction,
    brand_id: int,
    other_id: int,
    state: str,
    request_id: str,
    condition: Condition | None = None,
    extra: Any = (),
) -> None:
    """One direction's relation item records the request's state (inside the transaction)."""
    tx.update(
        BrandRelation.at(brand_id, other_id),
        actions=[*BrandRelation.request_state_actions(brand_id, other_id, state, request_id), *extra],
        condition=condition,
    )
