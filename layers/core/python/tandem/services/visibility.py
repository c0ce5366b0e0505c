"""Who a brand must not see (issue 27): the brands it blocked, the brands that blocked it, and
every suspended brand. `hidden_from` is the one filter: Matches, the request lists, Connections,
the Pitch Area, a brand's page, sending a request or a pitch and search all ask it.

Blocks are silent: a hidden brand is left out of lists and counts, and asking for it directly
answers as for a brand that does not exist ('Brand not found').

How it is read (no extra DynamoDB call on a screen): the brand's blocks are one item in its own
partition (store/safety.py BrandBlocks, sk SAFETY, read by the partition Query), the suspended
brands one site item; a screen adds `keys(brand_id)` to the BatchGetItem it makes anyway and
passes what it found.
"""

from __future__ import annotations

from typing import Any

from tandem.store.items import get_many
from tandem.store.models import Key, TandemModel
from tandem.store.safety import BrandBlocks, SuspendedBrands

NOT_FOUND = "Brand not found"


def keys(brand_id: int | None, with_blocks: bool = True) -> list[tuple[type[TandemModel], Key]]:
    """The items `hidden_from` reads, to add to a screen's BatchGetItem."""
    wanted: list[tuple[type[TandemModel], Key]] = [(SuspendedBrands, SuspendedBrands.key())]
    if brand_id is not None and with_blocks:
        wanted.append((BrandBlocks, BrandBlocks.key(brand_id)))
    return wanted


def hidden_from(
    brand_id: int, found: dict[Key, Any] | None = None, blocks: BrandBlocks | None = None
) -> frozenset[int]:
    """The ids of the brands `brand_id` must not see and that must not see it: those it blocked,
    those that blocked it, and every suspended brand (never itself). `found`: what a BatchGetItem
    with `keys(brand_id)` returned (read here when None); `blocks`: the brand's BrandBlocks item
    when it came with the brand's partition instead."""
    if found is None:
        found = get_many(keys(brand_id, with_blocks=blocks is None))
    if blocks is None:
        blocks = found.get(BrandBlocks.key(brand_id))
    suspended = found.get(SuspendedBrands.key())
    hidden = set(blocks.hidden() if blocks is not None else ())
    hidden |= suspended.ids() if suspended is not None else set()
    hidden.discard(brand_id)
    return frozenset(hidden)


def blocked_by_me(blocks: BrandBlocks | None) -> set[int]:
    return {int(i) for i in (blocks.blocked or set())} if blocks is not None else set()
