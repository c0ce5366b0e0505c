"""The developer issue box (shown to admins, and to everyone in development)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.auth import member_for_brand
from chalicelib.http import JSON_HEADERS, json_body, route
from tandem.config import settings
from tandem.errors import Forbidden

bp = Blueprint(__name__)


@route(bp, "/issues/report", methods=["POST"])
def report_issue() -> Response:
    from tandem.services import issue_reports

    user = member_for_brand(bp.current_request, need_brand=False).user
    if user.access != "admin" and not settings().is_development:
        raise Forbidden("Only Tandem admins can report issues here")
    result = issue_reports.report(user.user_id, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))
