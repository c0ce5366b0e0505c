"""Timed jobs. EventBridge schedules in template.yaml send {"job": "<name>"}."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from tandem.config import settings
from tandem.observability import emit_now, lambda_handler, logger
from tandem.services import (
    accounts,
    billing,
    collaboration_reminders,
    credits,
    match_learning,
    match_news,
    match_runs,
    pitch,
    stripe_events,
    tips,
)
from tandem.services.requests import expiry

settings().require(  # at import
    "match_run_state_machine_arn", "nightly_match_run_state_machine_arn", "billing_state_machine_arn"
)

JOBS: dict[str, Callable[[], Any]] = {
    "fail-stuck-match-runs": match_runs.fail_stuck_runs,
    "nightly-match-run": match_runs.start_nightly,  # every brand's matches, and the index rebuilt
    "verify-credit-ledgers": credits.verify_all,  # balance == ledger for every active account
    "settle-expired-holds": credits.settle_expired_holds,  # holds past their month are spent
    "billing-monthly-grants": billing.grant_due_months,  # yearly plans' (and fixed terms') months
    # every 15 minutes: Stripe events we failed to process, started again for 3 days (issue 42)
    "retry-failed-stripe-events": stripe_events.retry_failed,
    "new-matches-digest": match_news.send_digests,  # hourly: 9:00 local for each member
    "weekly-tip": tips.send_weekly,  # Mondays: the collab idea of the week (source `tips`)
    "expire-features": pitch.expire_due,  # Pitch Area features past their term (hourly)
    # pending requests' reminders (day 3, 10), expiry with the credit back (day 14) (hourly)
    "expire-requests": expiry.run,
    # collaborations' reminders: the start, checklist items due, results to record (daily)
    "collaboration-reminders": collaboration_reminders.run,
    # daily before the nightly run: the learned match model from request outcomes (issue 30)
    "train-matching": match_learning.train,
    # pending requests from before the due index into it (make deploy runs it)
    "index-pending-requests": expiry.index_pending,
    # EmailOwner items for users from before them (make deploy runs it after each deploy)
    "claim-legacy-emails": accounts.claim_legacy_emails,
    # users from before the users index into it (the admin lists query it; make deploy runs it)
    "index-users": accounts.index_users,
}


@lambda_handler
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    job = event.get("job")
    if job not in JOBS:
        raise ValueError(f"Unknown job {job!r}; known: {sorted(JOBS)}")
    run = JOBS[job]
    # The local stack's clock control (POST /__local/clock) runs jobs as if later; in AWS the
    # schedules' Input never carries it, and it is ignored.
    if event.get("now") is not None and settings().is_local and "now" in inspect.signature(run).parameters:
        result = run(now=int(event["now"]))
    else:
        result = run()
    logger.info("Job finished", extra={"job": job, "result": result})
    emit_now("JobHeartbeat", job)  # its alarm (template.yaml) breaches when a run is missing
    return {"job": job, "result": result}
