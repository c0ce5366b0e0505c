"""Match runs: started here, executed by the match-run state machine, read by the app.

Statuses: queued -> running -> done | failed. A run that stays open past STUCK_AFTER is failed
by the scheduler's sweep, so the app's polling always ends.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from tandem.config import settings
from tandem.domain import matching
from tandem.errors import NotFound
from tandem.integrations.aws import client
from tandem.services import brands
from tandem.store import keys
from tandem.store.models import Match, MatchRun

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
OPEN_STATUSES = (QUEUED, RUNNING)
MATCHES_KEPT = 50
STUCK_AFTER = timedelta(minutes=15)
RUN_RETENTION = timedelta(days=30)
FAILED_MESSAGE = "We couldn't update your matches this time. Please try again in a few minutes."
RUNNING_MESSAGE = "We're finding brands that fit you. This usually takes under a minute."


def _now() -> datetime:
    return datetime.now(UTC)


def _set_status(run: MatchRun, status: str, message: str, **fields: Any) -> None:
    actions = [
        MatchRun.status.set(status),
        MatchRun.message.set(message),
        MatchRun.gsi2pk.set(keys.match_run_status_gsi(status)),
    ]
    for name, value in fields.items():
        actions.append(getattr(MatchRun, name).set(value))
    if status in (DONE, FAILED):
        actions.append(MatchRun.finished_at.set(_now()))
    run.update(actions=actions)


def start_run(brand_id: int, trigger: str = "on-demand") -> MatchRun:
    """Record a queued run and start its Standard execution (named after the run)."""
    brands.get_brand(brand_id)
    run_id = uuid.uuid4().hex
    started = _now()
    run = MatchRun(
        keys.brand_pk(brand_id),
        keys.match_run_sk(run_id),
        run_id=run_id,
        brand_id=brand_id,
        status=QUEUED,
        message=RUNNING_MESSAGE,
        trigger=trigger,
        started_at=started,
        gsi2pk=keys.match_run_status_gsi(QUEUED),
        gsi2sk=started.isoformat(),
        ttl=int(time.time() + RUN_RETENTION.total_seconds()),
    )
    run.save()
    try:
        client("stepfunctions").start_execution(
            stateMachineArn=settings().match_run_state_machine_arn,
            name=f"match-{brand_id}-{run_id}",
            input=json.dumps({"runId": run_id, "brandId": brand_id}),
        )
    except Exception:
        _set_status(run, FAILED, FAILED_MESSAGE)
        raise
    return run


# Profile fields whose change can change who fits a brand (and so starts a run).
MATCH_FIELDS = frozenset(
    {"category", "company_size", "values", "collab_kinds", "audience", "countries", "age_bands", "genders"}
)


def profile_changed(brand_id: int, *, created: bool, changed: set[str]) -> MatchRun | None:
    """Called after a brand is created or saved: start a run when the change matters."""
    if created or changed & MATCH_FIELDS:
        return start_run(brand_id, trigger="profile")
    return None


def get_run(brand_id: int, run_id: str) -> MatchRun:
    try:
        return MatchRun.get(keys.brand_pk(brand_id), keys.match_run_sk(run_id))
    except MatchRun.DoesNotExist:
        raise NotFound("Match run not found") from None


def latest_open_run(brand_id: int) -> MatchRun | None:
    runs = MatchRun.query(
        keys.brand_pk(brand_id),
        MatchRun.sk.startswith("MATCHRUN#"),
        filter_condition=MatchRun.status.is_in(*OPEN_STATUSES),
    )
    return next(iter(runs), None)


# --- steps of the state machine (called by functions/workflows/match_run) ---


def prepare(run_id: str, brand_id: int) -> dict[str, Any]:
    run = get_run(brand_id, run_id)
    me = brands.get_brand(brand_id)
    candidate_ids = [i for i in brands.all_brand_ids() if i != brand_id]
    batches = matching.split_batches(candidate_ids, settings().match_run_batch_size)
    _set_status(
        run,
        RUNNING,
        RUNNING_MESSAGE,
        candidates=len(candidate_ids),
        batches=len(batches),
    )
    return {
        "runId": run_id,
        "brandId": brand_id,
        "accountId": me.account_id,
        "batches": batches,
    }


def score_batch(run_id: str, brand_id: int, candidate_ids: list[int]) -> list[dict[str, Any]]:
    me = brands.to_profile(brands.get_brand(brand_id))
    candidates = []
    for start in range(0, len(candidate_ids), brands.BATCH_GET_LIMIT):
        chunk = candidate_ids[start : start + brands.BATCH_GET_LIMIT]
        candidates.extend(brands.to_profile(b) for b in brands.get_many(chunk))
    ranked = matching.rank(me, candidates, MATCHES_KEPT)
    return [{"candidateId": s.candidate_id, "score": s.score, "reasons": list(s.reasons)} for s in ranked]


def finalize(run_id: str, brand_id: int, batch_results: list[list[dict[str, Any]]]) -> dict:
    run = get_run(brand_id, run_id)
    ranked = matching.merge_ranked(
        (
            [matching.Scored(r["candidateId"], r["score"], tuple(r["reasons"])) for r in batch]
            for batch in batch_results
        ),
        MATCHES_KEPT,
    )
    existing = {
        int(m.candidate_id) for m in Match.query(keys.brand_pk(brand_id), Match.sk.startswith("MATCH#"))
    }
    now = _now()
    with Match.batch_write() as batch:
        for s in ranked:
            batch.save(
                Match(
                    keys.brand_pk(brand_id),
                    keys.match_sk(s.candidate_id),
                    brand_id=brand_id,
                    candidate_id=s.candidate_id,
                    score=s.score,
                    reasons=list(s.reasons),
                    run_id=run_id,
                    seen=s.candidate_id in existing,
                    created_at=now,
                )
            )
    new = sum(1 for s in ranked if s.candidate_id not in existing)
    message = (
        f"Your matches are up to date: {new} new {'match' if new == 1 else 'matches'}."
        if new
        else "Your matches are up to date."
    )
    _set_status(run, DONE, message, matches=len(ranked))
    return {"runId": run_id, "brandId": brand_id, "status": DONE, "matches": len(ranked)}


def mark_failed(run_id: str, brand_id: int) -> dict[str, Any]:
    run = get_run(brand_id, run_id)
    _set_status(run, FAILED, FAILED_MESSAGE)
    return {"runId": run_id, "brandId": brand_id, "status": FAILED}


def fail_stuck_runs(now: datetime | None = None) -> int:
    """Fail runs open for longer than STUCK_AFTER (a lost execution must not poll forever)."""
    cutoff = ((now or _now()) - STUCK_AFTER).isoformat()
    failed = 0
    for status in OPEN_STATUSES:
        for run in MatchRun.by_status.query(keys.match_run_status_gsi(status), MatchRun.gsi2sk < cutoff):
            _set_status(run, FAILED, FAILED_MESSAGE)
            failed += 1
    return failed


def new_match_count(brand_id: int) -> int:
    return sum(1 for m in Match.query(keys.brand_pk(brand_id), Match.sk.startswith("MATCH#")) if not m.seen)
