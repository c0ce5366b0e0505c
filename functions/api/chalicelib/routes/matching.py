"""Match runs: start one on demand, and poll it (SPEC: GET matching/run-check/{runId}/{brand})."""

from __future__ import annotations

import re

from chalice import Blueprint, Response

from chalicelib.auth import member_for_brand
from chalicelib.http import JSON_HEADERS, route
from chalicelib.routes.dashboard import build
from tandem.domain import account_types as areas
from tandem.errors import NotFound
from tandem.store.models import Key, TandemModel

bp = Blueprint(__name__)

RUN_ID = re.compile(r"^[0-9a-f]{32}$")


@route(bp, "/matching/run/{brand}", methods=["POST"], area=areas.MATCHES)
def start_run(brand: str) -> Response:
    from tandem.services import match_runs

    member = member_for_brand(bp.current_request, path_brand=brand)
    run = match_runs.start_run(int(member.brand.brand_id))
    return Response(
        body={"runId": run.run_id, "status": run.status, "message": run.message},
        status_code=202,
        headers=dict(JSON_HEADERS),
    )


@route(bp, "/matching/run-check/{runId}/{brand}", methods=["GET"], area=areas.MATCHES)
def run_check(runId: str, brand: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    from tandem.services import dashboard
    from tandem.store.models import MatchRun

    def with_run(brand_id: int | None, account_id: str) -> list[tuple[type[TandemModel], Key]]:
        """The run is read with the dashboard (one BatchGetItem), so the two agree."""
        run = [(MatchRun, MatchRun.key(brand_id, runId))] if brand_id is not None and known else []
        return [*dashboard.with_caller(brand_id, account_id), *run]

    known = bool(RUN_ID.match(runId))
    member = member_for_brand(
        bp.current_request, path_brand=brand, also=with_run, alongside=dashboard.ALONGSIDE
    )
    run = member.item(MatchRun, int(member.brand.brand_id), runId) if known else None
    if run is None:
        raise NotFound("Match run not found")
    return {"status": run.status, "message": run.message, "dashboard": build(member)}
