"""GET matching/run-check/{runId}/{brand}: the app polls a match run (tandem.services.match_runs
starts and executes it) and gets its status with the dashboard, both from the door's one read
(RUN_CHECK: the dashboard's items and the run, one BatchGetItem), so the two agree. Apart from
the dashboard's service: a member's first GET /api/dashboard loads no match model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tandem.errors import NotFound
from tandem.services import dashboard
from tandem.services.viewer import Reads, Viewer, Wanted
from tandem.store.matches import MatchRun

RUN_ID = re.compile(r"^[0-9a-f]{32}$")


def _polled_run(brand_id: int, params: Mapping[str, str]) -> Wanted:
    """The polled run's key (none for a malformed id: the run is then not found)."""
    run_id = params.get("runId") or ""
    return [(MatchRun, MatchRun.key(brand_id, run_id))] if RUN_ID.match(run_id) else []


RUN_CHECK = Reads(seen=True, feature_slot=True, brands=True, buckets=True, more=_polled_run)


def run_check(viewer: Viewer, run_id: str) -> dict[str, Any]:
    """The run's status and message, with the dashboard (tandem.services.dashboard.build)."""
    run = viewer.item(MatchRun, viewer.brand_id, run_id)  # None for an unknown or malformed id
    if run is None:
        raise NotFound("Match run not found")
    return {"status": run.status, "message": run.message, "dashboard": dashboard.build(viewer)}
