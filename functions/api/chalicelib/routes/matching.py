"""Match runs: start one on demand, and poll it (SPEC: GET matching/run-check/{runId}/{brand})."""

from __future__ import annotations

import re

from chalice import Blueprint, Response

from chalicelib.auth import member_for_brand
from chalicelib.http import JSON_HEADERS, route
from tandem.errors import NotFound
from tandem.services import dashboard, match_runs

bp = Blueprint(__name__)

RUN_ID = re.compile(r"^[0-9a-f]{32}$")


@route(bp, "/matching/run/{brand}", methods=["POST"])
def start_run(brand: str) -> Response:
    member = member_for_brand(bp.current_request, path_brand=brand)
    run = match_runs.start_run(int(member.brand.brand_id))
    return Response(
        body={"runId": run.run_id, "status": run.status, "message": run.message},
        status_code=202,
        headers=dict(JSON_HEADERS),
    )


@route(bp, "/matching/run-check/{runId}/{brand}", methods=["GET"])
def run_check(runId: str, brand: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    member = member_for_brand(bp.current_request, path_brand=brand)
    if not RUN_ID.match(runId):
        raise NotFound("Match run not found")
    run = match_runs.get_run(int(member.brand.brand_id), runId)
    return {
        "status": run.status,
        "message": run.message,
        "dashboard": dashboard.build(member.brand, member.brands),
    }
