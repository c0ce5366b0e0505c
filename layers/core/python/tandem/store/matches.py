"""Match runs, the matches they write, and the packed match index shards."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UTCDateTimeAttribute,
)

from tandem.domain.brand_profile import FIT_LABELS
from tandem.store import keys
from tandem.store.base import Condition, Key, TandemModel, _Gsi2, _register, update_only
from tandem.store.errors import ConditionFailed


@_register
class MatchRun(TandemModel):
    run_id = UnicodeAttribute()
    brand_id = NumberAttribute()
    status = UnicodeAttribute()  # queued | running | done | failed
    message = UnicodeAttribute(default="")
    trigger = UnicodeAttribute(default="on-demand")
    candidates = NumberAttribute(default=0)
    batches = NumberAttribute(default=0)
    matches = NumberAttribute(default=0)
    started_at = UTCDateTimeAttribute()
    finished_at = UTCDateTimeAttribute(null=True)
    gsi2pk = UnicodeAttribute(null=True)
    gsi2sk = UnicodeAttribute(null=True)
    by_status = _Gsi2()
    ttl = NumberAttribute(null=True)

    @classmethod
    def key(cls, brand_id: int, run_id: str) -> Key:
        return keys.brand_pk(brand_id), keys.match_run_sk(run_id)

    @classmethod
    def of_brand(cls, brand_id: int, filter_condition: Condition | None = None) -> Iterator[MatchRun]:
        return cls.query(
            keys.brand_pk(brand_id),
            cls.sk.startswith(keys.MATCH_RUN_PREFIX),
            filter_condition=filter_condition,
        )

    @classmethod
    def status_key(cls, status: str) -> str:
        """gsi2pk of runs in `status` (the scheduler's sweep of runs still open)."""
        return keys.match_run_status_gsi(status)

    @classmethod
    def with_status(cls, status: str, started_before: str) -> Iterator[MatchRun]:
        return cls.by_status.query(keys.match_run_status_gsi(status), cls.gsi2sk < started_before)


@_register
class Match(TandemModel):
    brand_id = NumberAttribute()
    candidate_id = NumberAttribute()
    score = NumberAttribute()
    reasons = ListAttribute(of=UnicodeAttribute, default=list)
    run_id = UnicodeAttribute()
    seen = BooleanAttribute(default=False)  # no longer written: BrandSeen.new_matches says what is new
    created_at = UTCDateTimeAttribute()
    rank = NumberAttribute(null=True)  # place in the diversified list (1 first): list matches by it
    fit = UnicodeAttribute(null=True)  # its fit label, by the thresholds the run had (None: the defaults)
    # True when its label went by the brand's chance of acceptance (a run with a model's chance
    # thresholds; None: by its percent): a request sent from it keeps the label (what a promise is
    # measured on). Not the chance itself: a nightly retrain moves every chance a little, and a
    # Match item is rewritten only when what it says changes (match_runs._content).
    fit_by_chance = BooleanAttribute(null=True)
    promise = UnicodeAttribute(null=True)  # what that label promises from our own data (None: nothing yet)

    @classmethod
    def key(cls, brand_id: int, candidate_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.match_sk(candidate_id)

    @classmethod
    def of_brand(cls, brand_id: int) -> dict[int, Match]:
        """The brand's matches by candidate id (one query)."""
        return {
            int(m.candidate_id): m
            for m in cls.query(keys.brand_pk(brand_id), cls.sk.startswith(keys.MATCH_PREFIX))
        }


@dataclass(frozen=True)
class MatchCard:
    """One match as the Matches screen lists it: who, how well, why, and its place in the run's
    diversified order (None: a saved brand kept outside the list)."""

    candidate_id: int
    score: float
    reasons: tuple[str, ...]
    rank: int | None
    labels: int = 0  # the brand's reply label code when the run wrote it (reply_time.label_texts)
    # The probability the card had of being in the list (1: ranked there; less: an exploration
    # place drew it, tandem.domain.matching.explore); a view keeps it for training.
    propensity: float = 1.0
    # Its fit label as its run decided it ("": a card written before runs stored it, labelled by
    # its percent and the run's thresholds).
    fit: str = ""


@_register
class MatchCards(TandemModel):
    """A brand's match list as its Matches screen reads it (pk=BRAND#<id>, sk=MATCHCARDS): written
    by each run together with its Match items, and read in the Query of the brand's own items
    instead of them. `cards` is JSON, [[candidate id, score, rank or null, [reasons], reply label
    code(, propensity)], ...] in the run's order (cards written before the code have four fields:
    no labels; a propensity is written only below 1, an explored card's):
    one attribute value to read instead of one item of eight attributes per match. The brands'
    names, logos and descriptions are not in it: they are read live (they change after the run,
    and who may see a name is decided per viewer); their reply labels are as the run found them
    in the index rows (tandem.domain.reply_time.label_code, set by the nightly rebuild)."""

    brand_id = NumberAttribute()
    run_id = UnicodeAttribute()
    cards = UnicodeAttribute(default="[]")
    written_at = UTCDateTimeAttribute()
    # The fit labels' thresholds the run had (the stored model's, recalibrated from outcomes),
    # {label: lowest percent}; None: the defaults (tandem.domain.brand_profile.FIT_THRESHOLDS).
    thresholds = MapAttribute(null=True)
    # What each label may promise, from the stored model (brand_profile.label_promises, JSON);
    # None: nothing our own data backs yet (a fresh deployment shows no promise).
    promises = UnicodeAttribute(null=True)

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.MATCH_CARDS

    @classmethod
    def of(
        cls,
        brand_id: int,
        run_id: str,
        cards: Iterable[MatchCard],
        written_at: datetime,
        thresholds: dict[str, int] | None = None,
        promises: dict[str, Any] | None = None,
    ) -> MatchCards:
        packed = [
            [c.candidate_id, c.score, c.rank, list(c.reasons), c.labels]
            + ([round(float(c.propensity), 4)] if c.propensity < 1 or c.fit else [])
            + ([FIT_LABELS.index(c.fit) + 1] if c.fit in FIT_LABELS else [])
            for c in cards
        ]
        return cls(
            *cls.key(brand_id),
            brand_id=brand_id,
            run_id=run_id,
            cards=json.dumps(packed, separators=(",", ":")),
            written_at=written_at,
            thresholds=dict(thresholds) if thresholds else None,
            promises=json.dumps(promises, separators=(",", ":")) if promises else None,
        )

    def label_promises(self) -> dict[str, Any] | None:
        """What each label promised when its run wrote it, or None."""
        try:
            return json.loads(self.promises) if self.promises else None
        except ValueError:
            return None

    def fit_thresholds(self) -> dict[str, int] | None:
        """The thresholds its run had, or None (the defaults)."""
        stored = self.thresholds
        if isinstance(stored, MapAttribute):
            stored = stored.as_dict()
        return {str(k): int(v) for k, v in stored.items()} if stored else None

    def listed(self) -> dict[int, MatchCard]:
        """The cards by candidate id, in the run's order."""
        return {
            int(c[0]): MatchCard(
                int(c[0]),
                float(c[1]),
                tuple(c[3]),
                None if c[2] is None else int(c[2]),
                int(c[4]) if len(c) > 4 and c[4] else 0,
                float(c[5]) if len(c) > 5 else 1.0,
                FIT_LABELS[int(c[6]) - 1] if len(c) > 6 and 1 <= int(c[6]) <= len(FIT_LABELS) else "",
            )
            for c in json.loads(self.cards or "[]")
        }

    @staticmethod
    def from_match(match: Match) -> MatchCard:
        """A Match item as a card (a brand whose last run predates the match list)."""
        return MatchCard(
            int(match.candidate_id),
            float(match.score),
            tuple(match.reasons or ()),
            None if match.rank is None else int(match.rank),
            fit=match.fit if match.fit in FIT_LABELS else "",
        )


@_register
class MatchIndexShard(TandemModel):
    """Packed match profiles of brands `n * size` .. `(n + 1) * size - 1` (pk=MATCHINDEX,
    sk=SHARD#n): fixed-width records (tandem.domain.matching.RECORD_FORMAT), slot = id % size.
    `version` guards read-modify-write refreshes (conditional put)."""

    records = BinaryAttribute(legacy_encoding=False)
    # Brand search's rows for the same slots (tandem.domain.search.encode_rows): creation time,
    # flags and the name only of brands that show it. Absent on shards written before search.
    search = BinaryAttribute(legacy_encoding=False, null=True)
    version = NumberAttribute(default=0)
    vocab = NumberAttribute(default=0)  # matching.VOCAB_VERSION the records were packed with
    slots = NumberAttribute(default=0)  # shard size when written
    updated_at = NumberAttribute(default=0)

    @classmethod
    def key(cls, shard: int) -> Key:
        return keys.MATCH_INDEX, keys.match_index_shard_sk(shard)

    @property
    def shard(self) -> int:
        return keys.shard_of_sk(self.sk)


@_register
class MatchIndexManifest(TandemModel):
    """Every shard's current version (pk=MATCHINDEX-VERSIONS, sk=META), one small item: a warm brand
    search reads it to tell which shards changed since its container loaded them."""

    versions = MapAttribute(default=dict)  # {"<shard>": version}

    @classmethod
    def key(cls) -> Key:
        return keys.MATCH_INDEX_MANIFEST, keys.META

    @classmethod
    def record(cls, shard: int, version: int) -> None:
        """Note that `shard` is now at `version` (never lowers a later one)."""
        field = cls.versions[str(shard)]
        newer = field.does_not_exist() | (field < version)
        try:
            update_only(cls, cls.key(), [field.set(version)], cls.versions.exists() & newer)
            return
        except ConditionFailed:
            pass
        try:  # no manifest yet
            cls(*cls.key(), versions={str(shard): version}).save(condition=cls.pk.does_not_exist())
        except ConditionFailed:  # it exists: its version is as new already, or it just appeared
            try:
                update_only(cls, cls.key(), [field.set(version)], newer)
            except ConditionFailed:
                pass

    @property
    def shard_versions(self) -> dict[int, int]:
        raw = self.versions.as_dict() if self.versions else {}
        return {int(k): int(v) for k, v in raw.items()}
