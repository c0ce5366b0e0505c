"""Match runs: started here, executed by the match-run state machine, read by the app.

Statuses: queued -> running -> done | failed. A run that stays open past STUCK_AFTER is failed
by the scheduler's sweep, so the app's polling always ends.

A run for one brand reads its relations once (exclusions), scores the brand against the packed
candidates of the match index (services/match_index.py: a BatchGetItem per group of shards),
keeps the best MATCHES_KEPT after diversifying, and writes the brand's Match items whose content
changed (new ones unseen, seen ones still seen, ones no longer suggested deleted; an unchanged
one is not written again). Runs start on demand, after a
profile change that matters (profile_changed), and nightly for every brand (start_nightly).
"""

from __future__ import annotations

import base64
import json
import random
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from tandem.config import settings
from tandem.domain import brand_profile, matching
from tandem.domain import relations as rel
from tandem.domain.matching import explore, format_grade, reply, training
from tandem.errors import NotFound
from tandem.integrations.aws import client
from tandem.observability import count_event, logger, record_metric
from tandem.services import match_index, match_learning, match_news, visibility
from tandem.store import news
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.matches import Match, MatchCard, MatchCards, MatchRun
from tandem.store.models import Brand, BrandRelation, BrandSeen

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
OPEN_STATUSES = (QUEUED, RUNNING)
MATCHES_KEPT = matching.MATCHES_KEPT
# Saved brands outside the chosen list that the match list carries (each card is about 300
# bytes: 50 + 500 cards stay far below DynamoDB's 400 KB item). Saved brands beyond these are
# scored on the spot when the saved list shows them, as a brand saved since the run is.
SAVED_CARDS_KEPT = 500
STUCK_AFTER = news.STUCK_AFTER
RUN_RETENTION = timedelta(days=30)
FAILED_MESSAGE = "We couldn't update your matches this time. Please try again in a few minutes."
RUNNING_MESSAGE = "We're finding brands that fit you. This usually takes under a minute."


def _now() -> datetime:
    return datetime.now(UTC)


def _open_entry(run: MatchRun) -> str:
    """The run's entry in its brand's open runs (BrandSeen.open_runs): "<started s>:<run id>"."""
    return f"{int(run.started_at.timestamp())}:{run.run_id}"


def open_run_of(seen: BrandSeen | None, now: datetime | None = None) -> str | None:
    return news.open_run_of(seen, now)


def latest_open_run(brand_id: int) -> str | None:
    return news.open_run_of(news.read(brand_id))


def _brand(brand_id: int) -> Brand:
    brand = Brand.find(brand_id)
    if brand is None:
        raise NotFound("Brand not found")
    return brand


def _set_status(run: MatchRun, status: str, message: str, **fields: Any) -> None:
    """Move a run to `status` (the item must exist). A run that ends (done, failed) leaves its
    brand's open runs in the same transaction, so the dashboard and the run agree."""
    actions = [
        MatchRun.status.set(status),
        MatchRun.message.set(message),
        MatchRun.gsi2pk.set(MatchRun.status_key(status)),
    ]
    for name, value in fields.items():
        actions.append(getattr(MatchRun, name).set(value))
    if status not in (DONE, FAILED):
        try:
            run.update(actions=actions, condition=MatchRun.pk.exists())
        except ConditionFailed:
            raise NotFound("Match run not found") from None
        return
    actions.append(MatchRun.finished_at.set(_now()))
    if run.started_at is None:  # only the key (MarkFailed): Finalize is given the start time
        try:
            run = MatchRun.get(run.pk, run.sk, consistent_read=True)
        except MatchRun.DoesNotExist:
            raise NotFound("Match run not found") from None
    try:
        with transaction() as tx:
            tx.update(run, actions=actions, condition=MatchRun.pk.exists())
            news.remove_in(tx, int(run.brand_id), news.OPEN_RUNS, [_open_entry(run)])
    except ConditionFailed:
        raise NotFound("Match run not found") from None
    count_event("MatchRunDone" if status == DONE else "MatchRunFailed")
    if run.started_at is not None:
        record_metric("MatchRunDuration", max(0.0, (_now() - run.started_at).total_seconds() * 1000))


def _run_key(brand_id: int, run_id: str, started_at: str | None = None) -> MatchRun:
    """The run's key only: the steps update it without reading it first (fewer calls a run).
    `started_at` (ISO, Prepare's output) names the run's entry in its brand's open runs, so
    Finalize ends the run without reading it back."""
    run = MatchRun.at(brand_id, run_id)
    if started_at:
        run.run_id, run.brand_id, run.started_at = run_id, brand_id, datetime.fromisoformat(started_at)
    return run


def start_run(brand_id: int, trigger: str = "on-demand") -> MatchRun:
    """Record a queued run (open for its brand) and start its Standard execution (named after
    the run). The brand's existence is a condition of the same transaction (no read first)."""
    run_id = uuid.uuid4().hex
    started = _now()
    run = MatchRun(
        *MatchRun.key(brand_id, run_id),
        run_id=run_id,
        brand_id=brand_id,
        status=QUEUED,
        message=RUNNING_MESSAGE,
        trigger=trigger,
        started_at=started,
        gsi2pk=MatchRun.status_key(QUEUED),
        gsi2sk=started.isoformat(),
        ttl=int(time.time() + RUN_RETENTION.total_seconds()),
    )
    try:
        with transaction() as tx:
            tx.condition_check(Brand, *Brand.key(brand_id), condition=Brand.pk.exists())
            tx.save(run)
            news.add_in(tx, brand_id, news.OPEN_RUNS, [_open_entry(run)])
    except ConditionFailed as exc:
        if Brand.key(brand_id) in exc.failed_keys:
            raise NotFound("Brand not found") from None
        raise
    count_event("MatchRunStarted")
    try:
        client("stepfunctions").start_execution(
            stateMachineArn=settings().require("match_run_state_machine_arn"),
            name=f"match-{brand_id}-{run_id}",
            input=json.dumps({"runId": run_id, "brandId": brand_id}),
        )
    except Exception:
        _set_status(run, FAILED, FAILED_MESSAGE)
        raise
    return run


# Profile fields whose change can change who fits a brand (and so starts a run).
MATCH_FIELDS = frozenset(
    {
        "category",
        "company_size",
        "audience_size",
        "niche",
        "price_tier",
        "values",
        "collab_kinds",
        "audience",
        "countries",
        "age_bands",
        "genders",
    }
)


def profile_changed(brand_id: int, *, created: bool, changed: set[str]) -> MatchRun | None:
    """Called after a brand is created or saved: keep the match index current, and start a run
    when the change matters."""
    if created or changed & MATCH_FIELDS:
        try:
            match_index.refresh(_brand(brand_id))
        except match_index.IndexBusy:
            # The run itself reads this brand's saved profile; only other brands' runs see the
            # old one until the next refresh or the nightly rebuild.
            logger.warning("Match index busy; brand %s refreshed by the nightly rebuild", brand_id)
        return start_run(brand_id, trigger="profile")
    if changed & match_index.SEARCH_FIELDS:
        # A new name, or a name hidden or shown: brand search must stop (or start) finding it by
        # that name. No run: matching does not read names.
        try:
            match_index.refresh(_brand(brand_id))
        except match_index.IndexBusy:
            logger.warning("Match index busy; brand %s refreshed by the nightly rebuild", brand_id)
    return None


def get_run(brand_id: int, run_id: str) -> MatchRun:
    run = MatchRun.find(brand_id, run_id)
    if run is None:
        raise NotFound("Match run not found")
    return run


# --- steps of the state machine (called by functions/workflows/match_run) ---

MAX_MAP_ITEMS = 8  # a run's Map never has more items than this (the state's 256 KB payload)
POOL = MATCHES_KEPT * matching.POOL_FACTOR  # best candidates diversity chooses from


def plan_batches(shards: int, batch_size: int, index_shard_size: int) -> list[list[int]]:
    """Group shard numbers into Map items: about `batch_size` candidates each, whole shards,
    at most MAX_MAP_ITEMS items."""
    if shards <= 0:
        return []
    per_item = max(1, -(-batch_size // index_shard_size), -(-shards // MAX_MAP_ITEMS))
    return matching.split_batches(list(range(shards)), per_item)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def prepare(run_id: str, brand_id: int) -> dict[str, Any]:
    """Pack the brand, read its relations once, plan the Map over index shards. The brand, the
    brand-id counter and the learned match model are read together (one BatchGetItem); the
    run's update returns the run, whose start time Finalize is given."""
    run = _run_key(brand_id, run_id)
    me, highest, model = match_index.brand_and_highest_id(brand_id)
    if me is None:
        raise NotFound("Brand not found")
    excluded, saved = _exclusions(brand_id)
    batches = plan_batches(
        match_index.shard_count(highest), settings().match_run_batch_size, match_index.SHARD_SIZE
    )
    _set_status(run, RUNNING, RUNNING_MESSAGE, batches=len(batches))  # the update returns the run
    return {
        "runId": run_id,
        "brandId": brand_id,
        "startedAt": run.started_at.isoformat() if run.started_at is not None else None,
        "accountId": me.account_id,
        "me": _b64(matching.pack(match_index.to_profile(me))),
        "excluded": sorted(excluded),
        "saved": sorted(saved),
        "batches": batches,
        # the learned model the batches and Finalize blend (None: the rules alone)
        "model": match_learning.payload_model(match_learning.model_json(model)),
        # the brand's learned grade per format that worked for it ({}: none)
        "formatBoosts": format_grade.format_boosts(me.format_outcomes),
    }


def _exclusions(brand_id: int) -> tuple[set[int], set[int]]:
    """(never suggest: dismissed, requested, connected, declined, blocked either way or
    suspended (tandem.services.visibility); saved and still allowed)."""
    rels = BrandRelation.of_brand(brand_id)
    excluded = {other for other, r in rels.items() if rel.is_excluded(r.request_state, r.dismissed)}
    excluded |= visibility.hidden_from(brand_id)
    saved = {other for other, r in rels.items() if r.saved and other not in excluded}
    return excluded, saved


def _top_entries(
    me: bytes,
    cands: matching.Packed,
    excluded: list[int],
    saved: list[int],
    tiers: Any = None,
    labels: Any = None,
    model: dict | None = None,
    format_boosts: dict[str, float] | None = None,
    prior: Any = True,
) -> dict:
    """Best POOL candidates (and any saved ones) as compact entries:
    [candidate id, score, packed record (base64), reply tier, reply label code, rank value].
    "Best" is by the rank value: the rules' score blended with the fresh prior (fitted offline on
    our tuning world), then with the learned `model` over every candidate (training.rank_scores:
    the fresh value alone without one), times the candidate's reply factor (`tiers`: each
    candidate's reply tier, match_index.load_ranked; a brand that rarely answers ranks lower);
    the score kept is the rules' fit the cards show. `labels`: each candidate's label code from
    the same rows, kept on its card. `prior`: True for the committed prior, False for the rules
    alone (benches compare the two)."""
    import numpy as np

    scores = matching.score_packed(me, cands, excluded, format_boosts=format_boosts)
    ranked = training.rank_scores(me, cands, scores.score, model, prior)
    ranked = ranked if tiers is None else ranked * reply.tier_factors(tiers)
    positions = list(matching.top_positions(ranked, POOL))
    if saved:
        wanted = np.flatnonzero(np.isin(cands.ids, np.asarray(saved, dtype=np.int64)) & (scores.score > 0))
        positions += [p for p in wanted.tolist() if p not in set(positions)]
    considered = int(np.count_nonzero(scores.score > 0))
    return {
        "scored": considered,
        "top": [
            [
                int(cands.ids[p]),
                round(float(scores.score[p]), 4),
                _b64(cands.record(p)),
                int(tiers[p]) if tiers is not None else 0,
                int(labels[p]) if labels is not None else 0,
                round(float(ranked[p]), 6),
            ]
            for p in positions
        ],
    }


def score_batch(
    run_id: str,
    brand_id: int,
    shards: list[int],
    *,
    me: str,
    excluded: list[int],
    saved: list[int],
    model: dict | None = None,
    format_boosts: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Score the brand against every candidate of `shards` (one BatchGetItem), blended with the
    learned `model` Prepare read (None: the rules alone), candidates offering a format that
    worked for the brand raised by its grade (`format_boosts`, Prepare's)."""
    cands, tiers, labels = match_index.load_ranked(shards)
    return _top_entries(base64.b64decode(me), cands, excluded, saved, tiers, labels, model, format_boosts)


def _choose(
    me: matching.Profile,
    entries: list[list],
    saved: set[int],
    model: dict | None = None,
    record: bytes | None = None,
    explore_seed: str | None = None,
) -> tuple[list, list]:
    """(diversified best MATCHES_KEPT, saved candidates outside them), each as Scored.
    Ordered and diversified by the score times the reply factor of the entry's tier (entries
    of a run started before tiers have none: tier 0), blended with the learned `model`
    (match_learning.model_json; `record`: the brand's packed record) by how much history it
    saw; the Scored keep the plain score. With `explore_seed` (a run's: its draws repeat for
    the same run) one place in ten goes to a brand of the pool the model is unsure of, drawn
    at random, each chosen card keeping its propensity (tandem.domain.matching.explore)."""
    best: dict[int, list] = {}
    for entry in entries:
        if entry[0] not in best or entry[1] > best[entry[0]][1]:
            best[entry[0]] = entry
    # The rank value each batch computed (rules blended with the learned model, times the reply
    # factor); entries of a run started before it have none: the score times the reply factor.
    rank = {
        e[0]: e[5] if len(e) > 5 else e[1] * reply.tier_factor(e[3] if len(e) > 3 else 0)
        for e in best.values()
    }

    def ranked(entry: list) -> float:
        return rank.get(entry[0], 0.0)

    ordered = sorted(best.values(), key=lambda e: (-ranked(e), e[0]))

    profiles: dict[int, matching.Profile] = {}

    def scored(entry: list) -> matching.Scored:
        other = profiles[entry[0]] = matching.unpack(base64.b64decode(entry[2]))
        reasons, reason_keys = matching.explain(me, other)
        return matching.Scored(entry[0], entry[1], reasons, other.category, reason_keys)

    # Every suggestion says why: a candidate we can name no reason for is not suggested.
    pool = [s for s in map(scored, ordered[:POOL]) if s.reasons]
    # Diversity weighs the ranked score; the chosen keep the plain one (the fit the cards show).
    by_id = {e[0]: e for e in ordered[:POOL]}
    chosen = matching.diversify([replace(s, score=ranked(by_id[s.candidate_id])) for s in pool], MATCHES_KEPT)
    plain = {s.candidate_id: s for s in pool}
    chosen = [plain[s.candidate_id] for s in chosen]
    # The first ten hold incomplete profiles' share of the pool, lifted from the list or, past its
    # end, from the rest of the pool by rank (the list keeps its length).
    picked = {s.candidate_id for s in chosen}
    chosen = explore.fair_top(
        [*chosen, *(s for s in pool if s.candidate_id not in picked)],
        pool,
        lambda s: explore.incomplete(profiles[s.candidate_id]),
    )[: len(chosen)]
    if explore_seed is not None:
        known = match_learning.known_brands(model)
        unsure = [s for s in pool if explore.unsure(profiles[s.candidate_id], known)]
        drawn = explore.fill(chosen, unsure, MATCHES_KEPT, random.Random(explore_seed), _candidate)
        chosen = [replace(s, propensity=p) for s, p in drawn]
    taken = {s.candidate_id for s in chosen}
    extra = [scored(e) for e in ordered if e[0] in saved and e[0] not in taken]
    return chosen, extra


def _candidate(s: matching.Scored) -> int:
    return s.candidate_id


def store_matches(
    brand_id: int,
    run_id: str,
    chosen: list[matching.Scored],
    extra: list[matching.Scored],
    account_id: str | None = None,
    labels: dict[int, int] | None = None,
    thresholds: dict[str, int] | None = None,
    promises: dict[str, Any] | None = None,
    chances: dict[int, int] | None = None,
) -> int:
    """Write the brand's matches: the chosen list in order (rank 1..n), saved ones outside it;
    keep `created_at` of matches already there; delete the ones no longer suggested (fallen out
    of the list, or excluded since); and the match list the Matches screen reads (MatchCards),
    in the same batch of writes, each card with its brand's reply label code (`labels`,
    `label_codes`; none: no labels), and the fit labels' `thresholds` the run had (the stored
    model's; None: the defaults), each Match and card with its fit label by them: on each card's
    percent, or with `chances` (`fit_chances`: a model's) on its chance of acceptance, `thresholds`
    then being the model's chance thresholds. New matches become new to the brand (BrandSeen), dropped
    ones stop being new. Returns how many are new.

    New matches are marked new before they are written: a match that exists is never left
    unmarked when this step is cut off between the two (a Lambda timeout and the state
    machine's retry, or a second run of the same brand finishing meanwhile: its `existing`
    then held them and they were never counted, the local stack's flaky menu count of 0)."""
    existing = Match.of_brand(brand_id)
    now = _now()
    # At most a fifth of the list is the top label; each label says only what our data backs.
    kept = [*chosen, *extra]
    value = chances or {s.candidate_id: brand_profile.score_percent(s.score) for s in kept}
    fit_at = brand_profile.capped_thresholds([value[s.candidate_id] for s in chosen], thresholds)
    fits = {s.candidate_id: brand_profile.fit_label(value[s.candidate_id], fit_at) for s in kept}
    stale = set(existing) - {s.candidate_id for s in kept}
    news.add(brand_id, news.MATCHES, [s.candidate_id for s in kept if s.candidate_id not in existing])
    with Match.batch_write() as batch:
        for place, s in enumerate(kept, start=1):
            old = existing.get(s.candidate_id)
            match = Match(
                *Match.key(brand_id, s.candidate_id),
                brand_id=brand_id,
                candidate_id=s.candidate_id,
                score=s.score,
                reasons=list(s.reasons),
                run_id=run_id,
                seen=bool(old.seen) if old is not None else False,
                created_at=old.created_at if old is not None else now,
                rank=place if place <= len(chosen) else None,
                fit=fits[s.candidate_id],
                fit_by_chance=True if chances else None,
                promise=brand_profile.fit_promise(fits[s.candidate_id], promises),
            )
            if old is None or _content(old) != _content(match):
                batch.save(match)  # unchanged: left as it is (its run_id: the run that last changed it)
        for candidate in stale:
            batch.delete(existing[candidate])
        # The Matches screen reads the list from this one item, written last.
        # (a chance threshold is no percent's: a card of this run carries its label)
        listed = _cards(chosen, extra, labels, fits)
        batch.save(MatchCards.of(brand_id, run_id, listed, now, None if chances else fit_at, promises))
    news.remove(brand_id, news.MATCHES, stale)
    fresh = [s.candidate_id for s in chosen if s.candidate_id not in existing]
    try:  # the members' new-match messages; a notification never undoes the run
        match_news.found(brand_id, fresh, account_id=account_id)
    except Exception:
        logger.exception("Could not queue the new-matches notification", extra={"brand_id": brand_id})
    return len(fresh)


def _content(match: Match) -> dict[str, Any]:
    """What a Match item says, as stored (DynamoDB's own form, so a score read back compares
    equal to the same score computed again), without the run that wrote it: a nightly run over
    unchanged data rewrote every Match item of every brand (about 58 write units a brand a night,
    two thirds of all write units, docs/cost.md), and now writes only the ones whose content
    changed."""
    stored = match.serialize()
    stored.pop("run_id", None)
    return stored


def _cards(
    chosen: list[matching.Scored],
    extra: list[matching.Scored],
    labels: dict[int, int] | None = None,
    fits: dict[int, str] | None = None,
) -> list[MatchCard]:
    """The match list: the chosen in order (rank 1..n), then saved brands outside it, each with
    its brand's reply label code (`labels`; none: no labels) and its fit label (`fits`)."""
    labels, fits = labels or {}, fits or {}
    return [
        MatchCard(
            s.candidate_id,
            float(s.score),
            tuple(s.reasons),
            place if place <= len(chosen) else None,
            labels.get(s.candidate_id, 0),
            s.propensity if place <= len(chosen) else 1.0,
            fits.get(s.candidate_id, ""),
        )
        for place, s in enumerate([*chosen, *extra[:SAVED_CARDS_KEPT]], start=1)
    ]


def fit_values(
    record: bytes, kept: list[matching.Scored], entries: list[list], model: dict | None
) -> tuple[dict[str, int] | None, dict[int, int] | None]:
    """What a run labels `kept` by: (the model's chance thresholds, each card's chance percent of
    acceptance by it: training.chance_values over the entries' records) once the model has them,
    else (the percent thresholds, None: the labels go by each card's percent)."""
    at = match_learning.fit_chances(model)
    if at is None or not kept:
        return match_learning.fit_thresholds(model), None
    records = {int(e[0]): e[2] for e in entries}
    ids = [s.candidate_id for s in kept if s.candidate_id in records]
    cands = matching.Packed.from_bytes(base64.b64decode(records[i]) for i in ids)
    values = dict(zip(ids, training.chance_values(record, cands, model), strict=True))  # type: ignore[arg-type]
    return at, {s.candidate_id: values.get(s.candidate_id, 0) for s in kept}


def label_codes(entries: list[list]) -> dict[int, int]:
    """{candidate id: reply label code} of `_top_entries` entries (entries of a run started
    before the codes have none: no labels)."""
    return {int(e[0]): int(e[4]) for e in entries if len(e) > 4 and e[4]}


def _done_message(new: int) -> str:
    if not new:
        return "Your matches are up to date."
    return f"Your matches are up to date: {new} new {'match' if new == 1 else 'matches'}."


def finalize(
    run_id: str,
    brand_id: int,
    batch_results: list[dict[str, Any]],
    *,
    me: str,
    saved: list[int],
    started_at: str | None = None,
    account_id: str | None = None,
    model: dict | None = None,
) -> dict:
    """Merge the batches' best, blend with the learned `model`, diversify, store, and mark the
    run done. `started_at`, `account_id` and `model` come from Prepare's output (without the
    first two the run and account are read)."""
    run = _run_key(brand_id, run_id, started_at)
    record = base64.b64decode(me)
    profile = matching.unpack(record)
    entries = [entry for result in batch_results for entry in result["top"]]
    chosen, extra = _choose(profile, entries, set(saved), model, record, explore_seed=f"{brand_id}:{run_id}")
    thresholds, chances = fit_values(record, [*chosen, *extra], entries, model)
    promises = match_learning.label_promises(model)
    new = store_matches(
        brand_id, run_id, chosen, extra, account_id, label_codes(entries), thresholds, promises, chances
    )
    scored = sum(int(result["scored"]) for result in batch_results)
    _set_status(run, DONE, _done_message(new), matches=len(chosen), candidates=scored)
    return {"runId": run_id, "brandId": brand_id, "status": DONE, "matches": len(chosen)}


# --- the nightly run for every brand (infra/statemachines/match_nightly.asl.json) ---

NIGHTLY_BATCH = 250  # brands per nightly Map item (one Lambda scores and stores them all)


def start_nightly() -> dict[str, str]:
    """Scheduler job: start the nightly execution (named, so a repeated start cannot collide)."""
    name = f"nightly-{_now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    client("stepfunctions").start_execution(
        stateMachineArn=settings().require("nightly_match_run_state_machine_arn"),
        name=name,
        input=json.dumps({"run": name}),
    )
    return {"execution": name}


def nightly_plan(run: str) -> dict[str, Any]:
    """Shards to rebuild, and brand-id ranges for the matching Map."""
    highest = match_index.highest_brand_id()
    shards = match_index.shard_count(highest)
    ranges = [[lo, min(lo + NIGHTLY_BATCH - 1, highest)] for lo in range(1, highest + 1, NIGHTLY_BATCH)]
    return {"run": run, "shards": list(range(shards)), "batches": ranges}


def nightly_rebuild_shard(shard: int) -> dict[str, int]:
    match_index.rebuild_shard(shard)
    return {"shard": shard}


def nightly_batch(run: str, first: int, last: int) -> dict[str, Any]:
    """Match every brand with an id in first..last against all candidates (index read once).
    A brand that fails is logged and counted; the others still get their matches."""
    cands, tiers, labels = match_index.load_ranked(list(range(match_index.shard_count())))
    model = match_learning.read_model()  # one GetItem for every brand of the batch
    promises = match_learning.label_promises(model)
    positions = ((cands.ids >= first) & (cands.ids <= last)).nonzero()[0].tolist()
    # The formats that worked for each brand raise them as in its on-demand run's Prepare (the
    # packed records carry no outcomes): the batch's brands in BatchGetItems of 100, once.
    boosts = {
        int(b.brand_id): format_grade.format_boosts(b.format_outcomes)
        for b in Brand.find_many(int(cands.ids[p]) for p in positions)
        if b.format_outcomes
    }
    done, failed = 0, []
    for position in positions:
        brand_id = int(cands.ids[position])
        try:
            record = cands.record(position)
            excluded, saved = _exclusions(brand_id)
            entries = _top_entries(
                record, cands, sorted(excluded), sorted(saved), tiers, labels, model, boosts.get(brand_id)
            )["top"]
            chosen, extra = _choose(
                matching.unpack(record), entries, saved, model, record, explore_seed=f"{brand_id}:{run}"
            )
            thresholds, chances = fit_values(record, [*chosen, *extra], entries, model)
            store_matches(
                brand_id,
                run,
                chosen,
                extra,
                labels=label_codes(entries),
                thresholds=thresholds,
                promises=promises,
                chances=chances,
            )
            done += 1
        except Exception:
            logger.exception("Nightly matching failed for a brand", extra={"brand_id": brand_id})
            failed.append(brand_id)
    if failed and not done:
        raise RuntimeError(f"Nightly matching failed for every brand in {first}..{last}")
    return {"first": first, "last": last, "matched": done, "failed": failed}


def mark_failed(run_id: str, brand_id: int) -> dict[str, Any]:
    _set_status(_run_key(brand_id, run_id), FAILED, FAILED_MESSAGE)
    return {"runId": run_id, "brandId": brand_id, "status": FAILED}


def redrive_failed() -> list[str]:
    """make redrive WHAT=match-runs: a new run for each brand whose latest run failed. A brand
    that has run again since its failure is left alone, so running it twice starts nothing more."""
    latest: dict[int, MatchRun] = {}
    for run in MatchRun.with_status(FAILED, _now().isoformat()):
        brand_id = int(run.brand_id)
        if brand_id not in latest or run.started_at > latest[brand_id].started_at:
            latest[brand_id] = run
    done = []
    for brand_id, failed in sorted(latest.items()):
        if any(r.started_at > failed.started_at for r in MatchRun.of_brand(brand_id)):
            done.append(f"brand {brand_id}: ran again since run {failed.run_id} failed, left alone")
            continue
        try:
            run = start_run(brand_id, trigger="redrive")
        except NotFound:
            done.append(f"brand {brand_id}: no longer exists, left alone")
            continue
        done.append(f"brand {brand_id}: run {failed.run_id} failed, started run {run.run_id}")
    return done


def fail_stuck_runs(now: int | None = None) -> int:
    """Fail runs open for longer than STUCK_AFTER (a lost execution must not poll forever).
    `now`: epoch seconds, as every scheduled job takes it (the local clock control)."""
    at = _now() if now is None else datetime.fromtimestamp(now, UTC)
    cutoff = (at - STUCK_AFTER).isoformat()
    failed = 0
    for status in OPEN_STATUSES:
        for run in MatchRun.with_status(status, cutoff):
            _set_status(run, FAILED, FAILED_MESSAGE)
            failed += 1
    return failed
