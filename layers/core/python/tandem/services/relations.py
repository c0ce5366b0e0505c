"""Brand-to-brand relations: saved / dismissed matches and connection-request state.

One item per direction (`BRAND#a` / `REL#b`). Match lists and the matcher read all of one
brand's relations with a single query; requests and the matches screens write them here only.
"""

from __future__ import annotations

import time

from tandem.store import keys
from tandem.store.models import BrandRelation

# A brand with one of these states is never suggested again as a match.
EXCLUDING_STATES = frozenset({"requested-out", "requested-in", "connected", "declined-out", "declined-in"})
REQUEST_STATES = ("", "cancelled", *sorted(EXCLUDING_STATES))


def of_brand(brand_id: int) -> dict[int, BrandRelation]:
    """Every relation of `brand_id`, keyed by the other brand's id (one query)."""
    return {
        int(r.other_id): r
        for r in BrandRelation.query(keys.brand_pk(brand_id), BrandRelation.sk.startswith("REL#"))
    }


def get(brand_id: int, other_id: int) -> BrandRelation | None:
    try:
        return BrandRelation.get(keys.brand_pk(brand_id), keys.relation_sk(other_id), consistent_read=True)
    except BrandRelation.DoesNotExist:
        return None


def is_excluded(relation: BrandRelation | None) -> bool:
    return relation is not None and (relation.dismissed or relation.request_state in EXCLUDING_STATES)


def excluded_ids(brand_id: int) -> set[int]:
    """Brands never to suggest to `brand_id`: dismissed, requested, connected or declined."""
    return {other for other, rel in of_brand(brand_id).items() if is_excluded(rel)}


def item(brand_id: int, other_id: int) -> BrandRelation:
    """The relation item's key (for updates and transactions); it may not exist yet."""
    return BrandRelation(keys.brand_pk(brand_id), keys.relation_sk(other_id))


def set_flags(brand_id: int, other_id: int, **flags: bool) -> None:
    """Set `saved` and/or `dismissed` (an upsert: the item is created when missing)."""
    actions = [BrandRelation.brand_id.set(brand_id), BrandRelation.other_id.set(other_id)]
    actions += [getattr(BrandRelation, name).set(bool(value)) for name, value in flags.items()]
    actions.append(BrandRelation.updated_at.set(int(time.time())))
    item(brand_id, other_id).update(actions=actions)


def request_state_actions(brand_id: int, other_id: int, state: str, request_id: str) -> list:
    """Update actions recording a request state (use inside the requests transaction)."""
    if state not in REQUEST_STATES:
        raise ValueError(f"unknown request state {state!r}")
    return [
        BrandRelation.brand_id.set(brand_id),
        BrandRelation.other_id.set(other_id),
        BrandRelation.request_state.set(state),
        BrandRelation.request_id.set(request_id),
        BrandRelation.updated_at.set(int(time.time())),
    ]
