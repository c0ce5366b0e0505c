"""The compact precomputed candidate form: every brand's packed match profile, in a few items.

Brand `id` lives in shard `id // SHARD_SIZE` at slot `id % SHARD_SIZE` of that shard's binary
record string (tandem.domain.matching.RECORD_FORMAT, 66 bytes a brand: a full shard is about
130 KB, well under DynamoDB's 400 KB item limit). A match run reads all candidates with one
BatchGetItem per 100 shards (200,000 brands) instead of one read per candidate.

Kept current by `refresh(brand)` on every profile save (match_runs.profile_changed) and rebuilt
shard by shard from the brands themselves by the nightly run and the seed (`rebuild()`).
Writes are read-modify-write of a whole shard, so each put is conditioned on the version it
read; a writer that loses the race reads again and retries (at most MAX_ATTEMPTS times).

Each shard also carries brand search's rows for its slots (tandem.domain.search: creation time,
flags, and the name only of brands that show it), written with the records, and every put notes
the shard's new version in the manifest item that a warm search checks (services/brand_search.py).
A row's flags also carry the brand's reply tier (tandem.domain.matching.reply): set from the
brands' reply figures when a shard is rebuilt (nightly), kept as it is by a profile save, read
by match runs (`load_ranked`) and search to rank brands that rarely answer lower; and its reply
label code (tandem.domain.reply_time.label_code), set and kept with the tier, which match runs
copy onto their cards (the Matches screen shows the labels without reading the figures).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tandem.domain import account_types, search, search_rows
from tandem.domain.matching import RECORD_SIZE, VOCAB_VERSION, Packed, pack, record_dtype
from tandem.services.match_profile import to_profile
from tandem.services.reply_stats import signals_of
from tandem.store import items
from tandem.store.errors import ConditionFailed
from tandem.store.learning import MatchModel
from tandem.store.matches import MatchIndexManifest, MatchIndexShard
from tandem.store.models import Brand, Counter, Key, User

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from tandem.domain.matching import Packed

SHARD_SIZE = 2000  # slots per shard item (2000 * 66 B = 132 KB)
MAX_ATTEMPTS = 8
EMPTY_RECORD = bytes(RECORD_SIZE)


class IndexBusy(RuntimeError):
    """A shard kept changing under us; the next refresh or the nightly rebuild catches up."""


def shard_of(brand_id: int) -> int:
    return brand_id // SHARD_SIZE


def highest_brand_id() -> int:
    """Brand ids come from one counter (tandem.store.ids): every brand id is at most this."""
    counter = Counter.find("brand")
    return int(counter.value) if counter is not None else 0


def brand_and_highest_id(brand_id: int) -> tuple[Brand | None, int, MatchModel | None]:
    """(the brand or None, the highest brand id, the learned match model or None), read
    together in one BatchGetItem (a match run's Prepare needs all three)."""
    brand_key, counter_key, model_key = Brand.key(brand_id), Counter.key("brand"), MatchModel.key()
    found = items.get_many([(Brand, brand_key), (Counter, counter_key), (MatchModel, model_key)])
    counter = found.get(counter_key)
    return found.get(brand_key), int(counter.value) if counter is not None else 0, found.get(model_key)


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


SEARCH_FIELDS = frozenset({"name", "hide_name"})  # a save of these refreshes the brand's search row


def _feature_only(account_id: str) -> bool:
    return any(account_types.is_feature_only(user.access) for user in User.of_account(account_id))


def search_row(
    brand: Brand, feature_only: bool, reply_tier: int = 0, reply_labels: int = 0
) -> search_rows.Row:
    created = brand.created_at
    return search_rows.row_for(
        slot=int(brand.brand_id) % SHARD_SIZE,
        created=int(created.timestamp()) if created is not None else 0,
        name=brand.name or "",
        hides_name=bool(brand.hide_name),
        feature_only=feature_only,
        reply_tier=reply_tier,
        reply_labels=reply_labels,
    )


def _put(shard: int, blob: bytes, read: MatchIndexShard | None, rows: bytes | None = None) -> bool:
    """Write a shard if nobody changed it since `read` (None: if it still does not exist), then
    note its new version in the manifest."""
    version = (int(read.version) + 1) if read is not None else 1
    item = MatchIndexShard(
        *MatchIndexShard.key(shard),
        records=blob or EMPTY_RECORD,  # an empty slot reads as "no brand"
        search=rows,
        version=version,
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
    MatchIndexManifest.record(shard, version)
    return True


def _backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(0.5, 0.02 * 2**attempt)))  # jitter, not security


def _write_record(brand_id: int, record: bytes, row: search_rows.Row | None) -> None:
    shard, slot = shard_of(brand_id), brand_id % SHARD_SIZE
    for attempt in range(MAX_ATTEMPTS):
        current = _get(shard)
        if not _usable(current):
            # No shard yet, or one packed under other rules: build it from the brands, with
            # this record in place (the brands' index may not show this save yet).
            if _rebuild_once(shard, current, {slot: (record, row)}) is not None:
                return
        elif _put(
            shard,
            _splice(current.records or b"", slot, record),
            current,
            # The brand's reply tier and labels stay as the last rebuild set them.
            search_rows.splice_row(current.search, row, slot, keep=search_rows.REPLY_SIGNAL),
        ):
            return
        _backoff(attempt)
    raise IndexBusy(f"match index shard {shard} kept changing; brand {brand_id} not refreshed")


def refresh(brand: Brand) -> None:
    """Put one brand's current profile into the index (after a create or a save); a suspended
    brand's slot stays empty (it is no one's candidate, and no search finds it)."""
    if brand.suspended:
        _write_record(int(brand.brand_id), EMPTY_RECORD, None)
        return
    row = search_row(brand, _feature_only(brand.account_id))
    _write_record(int(brand.brand_id), pack(to_profile(brand)), row)


def remove(brand_id: int) -> None:
    """Take a brand out of the candidates (its slot becomes empty)."""
    _write_record(brand_id, EMPTY_RECORD, None)


def _brands_of_shard(shard: int) -> Iterable[Brand]:
    return Brand.every(shard * SHARD_SIZE, (shard + 1) * SHARD_SIZE - 1)


def _rebuild_once(
    shard: int, current: MatchIndexShard | None, extra: dict[int, tuple[bytes, search_rows.Row | None]]
) -> tuple[bytes, bytes] | None:
    """Pack a shard from its brands: (records, rows) as written, None if another writer came
    first. Whether a brand's account is feature-only is kept from the rows already there (a
    profile save sets it; reading every account's users is not a rebuild's job); its reply tier
    and reply label code are read afresh from the brands' reply figures (BatchGetItem, 100
    brands a call: at most SHARD_SIZE / 100 calls, no scan)."""
    feature = {
        r.slot
        for r in search_rows.decode_rows(current.search if current else None)
        if r.flags & search_rows.FEATURE_ONLY
    }
    # A brand suspended by the team (issue 27) is no one's candidate and found by no search.
    brands = [brand for brand in _brands_of_shard(shard) if not brand.suspended]
    first = shard * SHARD_SIZE
    wanted = {int(brand.brand_id) for brand in brands} | {first + slot for slot, (_, r) in extra.items() if r}
    signals = signals_of(sorted(wanted))
    blob = b""
    rows: dict[int, search_rows.Row] = {}
    for brand in brands:
        slot = int(brand.brand_id) % SHARD_SIZE
        blob = _splice(blob, slot, pack(to_profile(brand)))
        rows[slot] = search_row(brand, slot in feature, *signals.get(int(brand.brand_id), (0, 0)))
    for slot, (record, row) in extra.items():
        blob = _splice(blob, slot, record)
        rows.pop(slot, None)
        if row is not None:
            rows[slot] = search_rows.with_reply_tier(row, *signals.get(first + slot, (0, 0)))
    encoded = search_rows.encode_rows(rows.values())
    return (blob, encoded) if _put(shard, blob, current, encoded) else None


def _rebuild(shard: int) -> tuple[bytes, bytes]:
    for attempt in range(MAX_ATTEMPTS):
        written = _rebuild_once(shard, _get(shard), {})
        if written is not None:
            return written
        _backoff(attempt)
    raise IndexBusy(f"match index shard {shard} kept changing during a rebuild")


def rebuild_shard(shard: int) -> bytes:
    """Pack a shard afresh from its brands (conditional on the version read, retried)."""
    return _rebuild(shard)[0]


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


def _read(shards: Sequence[int]) -> list[tuple[bytes, bytes | None]]:
    """(records, search rows) of `shards` in order: BatchGetItem (100 keys a call); shards
    packed under other rules are rebuilt on the way (after a vocabulary change)."""
    found: dict[int, MatchIndexShard] = {}
    if shards:
        for item in MatchIndexShard.batch_get([MatchIndexShard.key(s) for s in shards]):
            found[item.shard] = item
    out: list[tuple[bytes, bytes | None]] = []
    for shard in shards:
        item = found.get(shard)
        if item is not None and _usable(item):
            out.append((bytes(item.records or b""), bytes(item.search) if item.search else None))
        else:  # never built, or packed under other rules
            out.append(_rebuild(shard))
    return out


def read_shards(shards: Sequence[int]) -> list[bytes]:
    """Record strings of `shards` in order (see `_read`)."""
    return [records for records, _ in _read(shards)]


def load(shards: Sequence[int]) -> Packed:
    """The candidates of `shards` as numpy columns (imports numpy)."""
    return Packed.from_bytes(read_shards(shards))


def load_ranked(shards: Sequence[int]) -> tuple[Packed, np.ndarray, np.ndarray]:
    """The candidates of `shards`, each one's reply tier and each one's reply label code (from
    the search rows of the same shard items: no extra read), in the same order."""
    import numpy as np

    read = _read(shards)
    cands = Packed.from_bytes(records for records, _ in read)
    dtype = record_dtype()
    parts = [np.zeros(0, dtype=np.uint8)]
    for records, rows in read:
        ids = np.frombuffer(records[: len(records) - len(records) % dtype.itemsize], dtype=dtype)["id"]
        parts.append(search_rows.flags_of(ids[ids != 0], rows, SHARD_SIZE))
    flags = np.concatenate(parts)
    return cands, search_rows.reply_tiers(flags), search_rows.reply_label_codes(flags)


def load_for_search(
    shards: Sequence[int] | None = None,
) -> tuple[list[search.Shard], MatchIndexManifest | None]:
    """The shards brand search holds in memory (all of them, or `shards`), with their rows and
    versions; all: the manifest says which exist (one GetItem, then BatchGetItem, 100 a call)."""
    manifest = None
    if shards is None:
        manifest = MatchIndexManifest.find()
        shards = sorted(manifest.shard_versions) if manifest is not None else []
    loaded = []
    if shards:
        for item in MatchIndexShard.batch_get([MatchIndexShard.key(s) for s in shards]):
            shard = _search_shard(item)
            if shard is not None:
                loaded.append(shard)
    return loaded, manifest


def _search_shard(item: MatchIndexShard) -> search.Shard | None:
    if not _usable(item):
        return None  # packed under other rules: the nightly rebuild writes it again
    return search.Shard(
        number=item.shard,
        version=int(item.version),
        records=bytes(item.records or b""),
        search=bytes(item.search) if item.search else None,
    )


def first_shard_keys(count: int) -> list[tuple[type[MatchIndexShard], Key]]:
    """The keys of shards 0..count-1, for a cold container to read in the batch a search makes
    anyway (brand ids grow from 1, so these are every shard of a directory of up to
    `count * SHARD_SIZE` brands; a key with no shard costs nothing but its read)."""
    return [(MatchIndexShard, MatchIndexShard.key(s)) for s in range(count)]


def search_shards_in(found: Mapping[Key, Any]) -> dict[int, search.Shard]:
    """The usable shards among a BatchGetItem's items (first_shard_keys), by number."""
    shards = (_search_shard(item) for item in found.values() if isinstance(item, MatchIndexShard))
    return {shard.number: shard for shard in shards if shard is not None}
