"""Task handlers of the match-run state machines.

One brand (infra/statemachines/match_run.asl.json):
    Prepare -> Map(ScoreBatch over groups of index shards) -> Finalize; any failure -> MarkFailed.
Every brand, nightly (infra/statemachines/match_nightly.asl.json):
    NightlyPlan -> Map(NightlyRebuildShard) -> Map(NightlyBatch over brand-id ranges).
Each handler only unpacks its input and calls tandem.services.match_runs.
"""

from __future__ import annotations

from typing import Any

from tandem.config import settings
from tandem.observability import lambda_handler, logger
from tandem.services import match_runs

settings()  # checked at import: a missing variable fails here, with its name


@lambda_handler
def prepare(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    return match_runs.prepare(event["runId"], int(event["brandId"]))


@lambda_handler
def score_batch(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    return match_runs.score_batch(
        event["runId"],
        int(event["brandId"]),
        [int(s) for s in event["shards"]],
        me=event["me"],
        excluded=[int(i) for i in event.get("excluded", [])],
        saved=[int(i) for i in event.get("saved", [])],
        model=event.get("model"),
        format_boosts=event.get("formatBoosts"),
    )


@lambda_handler
def finalize(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    return match_runs.finalize(
        event["runId"],
        int(event["brandId"]),
        event["batchResults"],
        me=event["me"],
        saved=[int(i) for i in event.get("saved", [])],
        started_at=event.get("startedAt"),
        account_id=event.get("accountId"),
        model=event.get("model"),
    )


@lambda_handler
def mark_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    logger.error("Match run failed", extra={"error": event.get("error", {})})
    return match_runs.mark_failed(event["runId"], int(event["brandId"]))


@lambda_handler
def nightly_plan(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return match_runs.nightly_plan(str(event.get("run", "nightly")))


@lambda_handler
def nightly_rebuild_shard(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return match_runs.nightly_rebuild_shard(int(event["shard"]))


@lambda_handler
def nightly_batch(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run=event["run"], first=event["first"], last=event["last"])
    result = match_runs.nightly_batch(str(event["run"]), int(event["first"]), int(event["last"]))
    if result["failed"]:
        logger.error("Some brands were not matched", extra={"failed": result["failed"]})
    return result
