"""The compact precomputed candidate form: every brand's packed match profile, in a few items.

Brand `id` lives in shard `id // SHARD_SIZE` at slot `id % SHARD_SIZE` of that shard's binary
record string (tandem.domain.matching.RECORD_FORMAT, 66 bytes a brand: a full shard is about
130 KB, well under DynamoDB's 400 KB item limit). A match run reads all candidates with one
BatchGetItem per 100 shards (200,000 brands) instead of one read per candidate.

Kept current by `refresh(brand)` on every profile save (match_runs.profile_changed) and rebuilt
shard by shard from the brands themselves by the nightly run and the seed (`rebuild()`).
Writes are read-modify-write of a whole shard, so each put is conditioned on the version it
read; a writer that loses the race reads again and retries (at most MAX_ATTEMPTS times).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from tandem.domain.matching import RECORD_SIZE, VOCAB_VERSION, Profile, pack
from tandem.store import items
from tandem.store.errors import ConditionFailed
from tandem.store.models import Brand, Counter, MatchIndexShard

if TYPE_CHECKING:  # pragma: no cover
    from tandem.domain.matching import Packed

SHARD_SIZE = 2000  # slots per shard item (2000 * 66 B = 132 KB)
MAX_ATTEMPTS = 8
EMPTY_RECORD = bytes(RECORD_SIZE)


class IndexBusy(RuntimeError):
    """A shard kept changing under us; the next refresh or the nightly rebuild catches up."""


def to_profile(brand: Brand) -> Profile:
    audience = brand.audience
    return Profile(
        brand_id=int(brand.brand_id),
        account_id=brand.account_id,
        category=brand.category or "",
        company_size=brand.company_size or "",
        audience_size=brand.audience_size or "",
        values=frozenset(brand.values or ()),
        collab_kinds=frozenset(brand.collab_kinds or ()),
        countries=frozenset((audience.countries or ()) if audience else ()),
        age_bands=frozenset((audience.age_bands or ()) if audience else ()),
        genders=frozenset((audience.genders or ()) if audience else ()),
    )


def shard_of(brand_id: int) -> int:
    return brand_id // SHARD_SIZE


def highest_brand_id() -> int:
    """Brand ids come from one counter (tandem.store.ids): every brand id is at most this."""
    counter = Counter.find("brand")
    return int(counter.value) if counter is not None else 0


def brand_and_highest_id(brand_id: int) -> tuple[Brand | None, int]:
    """(the brand or None, the highest brand id), read together in one BatchGetItem (a match
    run's Prepare needs both)."""
    brand_key, counter_key = Brand.key(brand_id), Counter.key("brand")
    found = items.get_many([(Brand, brand_key), (Counter, counter_key)])
    counter = found.get(counter_key)
    return found.get(brand_key), int(counter.value) if counter is not None else 0


def shard_count(highest: int | None = None) -> int:
    """Shards that can hold brands."""
    highest = highest_brand_id() if highest is None else highest
    return highest // SHARD_SIZE + 1 if highest else 0


def _get(shard: int) -> MatchIndexShard | None:
    return MatchIndexShard.find(shard, consistent=True)


def _usable(item: MatchIndexShard | None) -> bool:
    return item is not None and int(item.vocab) == VOCAB_VERSION and int(item.slots) == SHARD_SIZE


def _splice(blob: bytes, slot: int, record: bytes) -> bytes:
    start = slot * RECORD_SIZE
    if len(blob) < start + RECORD_SIZE:
        blob = blob + bytes(start + RECORD_SIZE - len(blob))
    return blob[:start] + record + blob[start + RECORD_SIZE :]


def _put(shard: int, blob: bytes, read: MatchIndexShard | None) -> bool:
    """Write a shard if nobody changed it since `read` (None: if it still does not exist)."""
    item = MatchIndexShard(
        *MatchIndexShard.key(shard),
        records=blob or EMPTY_RECORD,  # an empty slot reads as "no brand"
        version=(int(read.version) + 1) if read is not None else 1,
        vocab=VOCAB_VERSION,
        slots=SHARD_SIZE,
        updated_at=int(time.time()),
    )
    if read is not None:
        condition = MatchIndexShard.version == int(read.version)
    else:
        condition = MatchIndexShard.pk.does_not_exist()
    try:
        item.save(condition=condition)
    except ConditionFailed:
        return False
    return True


def _backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(0.5, 0.02 * 2**attempt)))  # noqa: S311 (jitter, not security)


def _write_record(brand_id: int, record: bytes) -> None:
    shard, slot = shard_of(brand_id), brand_id % SHARD_SIZE
    for attempt in range(MAX_ATTEMPTS):
        current = _get(shard)
        if not _usable(current):
            # No shard yet, or one packed under other rules: build it from the brands, with
            # this record in place (the brands' index may not show this save yet).
            if _rebuild_once(shard, current, {slot: record}) is not None:
                return
        elif _put(shard, _splice(current.records or b"", slot, record), current):
            return
        _backoff(attempt)
    raise IndexBusy(f"match index shard {shard} kept changing; brand {brand_id} not refreshed")


def refresh(brand: Brand) -> None:
    """Put one brand's current profile into the index (after a create or a save)."""
    _write_record(int(brand.brand_id), pack(to_profile(brand)))


def remove(brand_id: int) -> None:
    """Take a brand out of the candidates (its slot becomes empty)."""
    _write_record(brand_id, EMPTY_RECORD)


def _brands_of_shard(shard: int) -> Iterable[Brand]:
    return Brand.every(shard * SHARD_SIZE, (shard + 1) * SHARD_SIZE - 1)


def _rebuild_once(shard: int, current: MatchIndexShard | None, extra: dict[int, bytes]) -> bytes | None:
    blob = b""
    for brand in _brands_of_shard(shard):
        blob = _splice(blob, int(brand.brand_id) % SHARD_SIZE, pack(to_profile(brand)))
    for slot, record in extra.items():
        blob = _splice(blob, slot, record)
    return blob if _put(shard, blob, current) else None


def rebuild_shard(shard: int) -> bytes:
    """Pack a shard afresh from its brands (conditional on the version read, retried)."""
    for attempt in range(MAX_ATTEMPTS):
        blob = _rebuild_once(shard, _get(shard), {})
        if blob is not None:
            return blob
        _backoff(attempt)
    raise IndexBusy(f"match index shard {shard} kept changing during a rebuild")


def rebuild() -> dict[str, int]:
    """Rebuild every shard (nightly run, seed). Returns counts for the logs."""
    shards = shard_count()
    brands = 0
    for shard in range(shards):
        blob = rebuild_shard(shard)
        brands += sum(
            1 for i in range(0, len(blob), RECORD_SIZE) if blob[i : i + RECORD_SIZE] != EMPTY_RECORD
        )
    return {"shards": shards, "brands": brands}


def read_shards(shards: Sequence[int]) -> list[bytes]:
    """Record strings of `shards` in order: BatchGetItem (100 keys a call); shards packed under
    other rules are rebuilt on the way (after a vocabulary change)."""
    found: dict[int, MatchIndexShard] = {}
    if shards:
        for item in MatchIndexShard.batch_get([MatchIndexShard.key(s) for s in shards]):
            found[item.shard] = item
    blobs = []
    for shard in shards:
        item = found.get(shard)
        if item is not None and _usable(item):
            blobs.append(bytes(item.records or b""))
        else:  # never built, or packed under other rules
            blobs.append(rebuild_shard(shard))
    return blobs


def load(shards: Sequence[int]) -> Packed:
    """The candidates of `shards` as numpy columns (imports numpy)."""
    from tandem.domain.matching import Packed

    return Packed.from_bytes(read_shards(shards))
