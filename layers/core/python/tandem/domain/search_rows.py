"""Brand search's rows, kept beside the packed match records in each match-index shard (pure:
no I/O): for every slot, when the brand was created, its flags (hides its name, feature-only,
its reply tier and reply labels) and its name, only when the brand shows it. `row_for` is the one
place a row is made, so a hidden name is never written (docs/decisions.md, 2026-11-29).

numpy is imported inside the functions that need it (the API imports this module).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

HIDDEN = 1  # the brand hides its name: the row carries no name
FEATURE_ONLY = 2  # the brand's account is feature-only (not open to requests)
# Bits 2-3: the brand's reply tier (tandem.domain.matching.reply.reply_tier; 0 = no effect, so
# rows written before it read as tier 0). Set by the nightly rebuild, kept by a profile save.
REPLY_TIER_SHIFT = 2
REPLY_TIER = 3 << REPLY_TIER_SHIFT
# Bits 4-7: the brand's reply labels as a code (tandem.domain.reply_time.label_code; 0 = no
# labels, so rows written before read as none). Set and kept with the tier.
REPLY_LABELS_SHIFT = 4
REPLY_LABELS = 15 << REPLY_LABELS_SHIFT
REPLY_SIGNAL = REPLY_TIER | REPLY_LABELS  # what a profile save keeps from the last rebuild


_ROW_HEAD = struct.Struct("<H")


@dataclass(frozen=True)
class Row:
    """One brand's search row: where it sits in its shard, when it was created, its flags, and
    its name, given only when the brand shows it."""

    slot: int
    created: int
    flags: int
    name: str = ""


def row_for(
    slot: int,
    created: int,
    name: str,
    hides_name: bool,
    feature_only: bool,
    reply_tier: int = 0,
    reply_labels: int = 0,
) -> Row:
    """The one place a row is made: a hidden name is never written."""
    flags = (HIDDEN if hides_name else 0) | (FEATURE_ONLY if feature_only else 0)
    flags |= _reply_bits(reply_tier, reply_labels)
    return Row(slot=slot, created=created, flags=flags, name="" if hides_name else name.replace("\n", " "))


def _reply_bits(tier: int, labels: int) -> int:
    return ((tier << REPLY_TIER_SHIFT) & REPLY_TIER) | ((labels << REPLY_LABELS_SHIFT) & REPLY_LABELS)


def with_reply_tier(row: Row, tier: int, labels: int = 0) -> Row:
    """The row with its reply tier and label code set (both from the same figures)."""
    flags = (row.flags & ~REPLY_SIGNAL) | _reply_bits(tier, labels)
    return Row(row.slot, row.created, flags, row.name)


def reply_tiers(flags: np.ndarray) -> np.ndarray:
    """The reply tier (0-3) of each row of a flags column."""
    return (flags & REPLY_TIER) >> REPLY_TIER_SHIFT


def reply_label_codes(flags: np.ndarray) -> np.ndarray:
    """The reply label code (tandem.domain.reply_time.label_texts) of each row of a flags column."""
    return (flags & REPLY_LABELS) >> REPLY_LABELS_SHIFT


def flags_of(ids: np.ndarray, blob: bytes | None, shard_size: int) -> np.ndarray:
    """The row flags of the brands `ids` of one shard, in that order (a brand without a row:
    HIDDEN, as `build` reads it; its reply tier is 0)."""
    slots, _, flags, _ = decode_columns(blob)
    at = np.full(shard_size, -1, dtype=np.int64)
    at[slots] = np.arange(len(slots))
    row = at[np.asarray(ids, dtype=np.int64) % shard_size]
    return np.where(row >= 0, flags[row] if len(flags) else 0, HIDDEN).astype(np.uint8)


def encode_rows(rows: Iterable[Row]) -> bytes:
    """Rows as one compressed blob: slot, created and flags columns, then the names."""
    rows = sorted(rows, key=lambda r: r.slot)
    head = _ROW_HEAD.pack(len(rows))
    slots = struct.pack(f"<{len(rows)}H", *(r.slot for r in rows))
    created = struct.pack(f"<{len(rows)}I", *(max(0, r.created) for r in rows))
    flags = bytes(r.flags for r in rows)
    names = "\n".join(("" if r.flags & HIDDEN else r.name) for r in rows).encode()
    return zlib.compress(head + slots + created + flags + names, 6)


def decode_rows(blob: bytes | None) -> list[Row]:
    if not blob:
        return []
    data = zlib.decompress(blob)
    (n,) = _ROW_HEAD.unpack_from(data)
    at = _ROW_HEAD.size
    slots = struct.unpack_from(f"<{n}H", data, at)
    at += 2 * n
    created = struct.unpack_from(f"<{n}I", data, at)
    at += 4 * n
    flags = data[at : at + n]
    names = data[at + n :].decode().split("\n") if n else []
    return [Row(slots[i], created[i], flags[i], names[i]) for i in range(n)]


def decode_columns(blob: bytes | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """The rows as columns (slots, created, flags, names): how the index loads them."""
    if not blob:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.uint8), []
    data = zlib.decompress(blob)
    (n,) = _ROW_HEAD.unpack_from(data)
    at = _ROW_HEAD.size
    slots = np.frombuffer(data, dtype="<u2", count=n, offset=at).astype(np.int64)
    created = np.frombuffer(data, dtype="<u4", count=n, offset=at + 2 * n).astype(np.int64)
    flags = np.frombuffer(data, dtype=np.uint8, count=n, offset=at + 6 * n)
    names = data[at + 7 * n :].decode().split("\n") if n else []
    return slots, created, flags, names


def splice_row(blob: bytes | None, row: Row | None, slot: int, keep: int = 0) -> bytes:
    """The shard's rows with `slot` replaced by `row` (None: removed), keeping the flag bits
    `keep` of the row it replaces (a profile save keeps the reply tier and labels: REPLY_SIGNAL)."""
    rows = {r.slot: r for r in decode_rows(blob)}
    old = rows.pop(slot, None)
    if row is not None:
        if keep and old is not None:
            row = Row(row.slot, row.created, (row.flags & ~keep) | (old.flags & keep), row.name)
        rows[slot] = row
    return encode_rows(rows.values())
