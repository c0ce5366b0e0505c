"""The developer issue box (shown to admins, and to everyone in development), and the reply box
of a suspended brand's owner (its dashboard notice)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, json_body
from tandem.services import issue_reports
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/issues/report", methods=["POST"], reads=reads.USER_BRANDS)
def report_issue(viewer: Viewer) -> Response:
    result = issue_reports.report_from(viewer, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))
