"""The developer issue box (shown to admins, and to everyone in development), and the reply box
of a suspended brand's owner (its dashboard notice)."""

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

    member = member_for_brand(bp.current_request, need_brand=False)
    user = member.user
    # The owner of a suspended brand replies to the team from the dashboard's notice (issue 27).
    suspended = user.access != "admin" and any(b.suspended for b in member.brands)
    if user.access != "admin" and not settings().is_development and not suspended:
        raise Forbidden("Only Tandem admins can report issues here")
    result = issue_reports.report(user.user_id, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))
