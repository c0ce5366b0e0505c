"""Task handlers of the match-run state machine (infra/statemachines/match_run.asl.json).

Prepare -> Map(ScoreBatch over candidate batches) -> Finalize; any failure -> MarkFailed.
Each handler only unpacks its input and calls tandem.services.match_runs.
"""

from __future__ import annotations

from typing import Any

from tandem.observability import logger
from tandem.services import match_runs


@logger.inject_lambda_context(clear_state=True)
def prepare(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    return match_runs.prepare(event["runId"], int(event["brandId"]))


@logger.inject_lambda_context(clear_state=True)
def score_batch(event: dict[str, Any], context: Any) -> list[dict[str, Any]]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    ids = [int(i) for i in event["candidateIds"]]
    return match_runs.score_batch(event["runId"], int(event["brandId"]), ids)


@logger.inject_lambda_context(clear_state=True)
def finalize(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    return match_runs.finalize(event["runId"], int(event["brandId"]), event["batchResults"])


@logger.inject_lambda_context(clear_state=True)
def mark_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(run_id=event["runId"], brand_id=event["brandId"])
    logger.error("Match run failed", extra={"error": event.get("error", {})})
    return match_runs.mark_failed(event["runId"], int(event["brandId"]))
