"""Match runs: start one on demand, and poll it (SPEC: GET matching/run-check/{runId}/{brand})."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS
from tandem.domain import account_types as areas
from tandem.services import match_runs, run_check
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(
    bp, "/matching/run/{brand}", methods=["POST"], area=areas.MATCHES, reads=reads.ACTING, brand_param="brand"
)
def start_run(viewer: Viewer, brand: str) -> Response:
    run = match_runs.start_run(viewer.brand_id)
    return Response(
        body={"runId": run.run_id, "status": run.status, "message": run.message},
        status_code=202,
        headers=dict(JSON_HEADERS),
    )


@route(
    bp,
    "/matching/run-check/{runId}/{brand}",
    methods=["GET"],
    area=areas.MATCHES,
    reads=run_check.RUN_CHECK,
    brand_param="brand",
)
def check_run(viewer: Viewer, runId: str, brand: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    return run_check.run_check(viewer, runId)
