"""Collaborations between two connected brands (issue 41): the list (the performance page), its
CSV, one collaboration, and what either side does with it. Every route acts as the selected
brand (`X-Brand-Id`, checked at the door) and reads the caller's own copy of the collaboration
with the caller (tandem.services.collaborations COLLAB); a collaboration of other brands is the
404 of an unknown id. Dates are the member's (X-Timezone-Offset)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, json_body
from tandem.domain import account_types as areas
from tandem.services import collaboration_feed, collaborations
from tandem.services.collaborations import COLLAB
from tandem.services.viewer import COLLAB_LIST as LIST
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)
AREA = areas.COLLABORATIONS


def _offset() -> str | None:
    return (bp.current_request.headers or {}).get("x-timezone-offset")


def _body() -> object:
    return json_body(bp.current_request)


@route(bp, "/collaborations", methods=["GET"], area=AREA, reads=LIST)
def list_collaborations(viewer: Viewer) -> dict:
    return collaborations.list_mine(viewer, _offset())


@route(bp, "/collaborations/export", methods=["GET"], area=AREA, reads=LIST)
def export_collaborations(viewer: Viewer) -> Response:
    return Response(
        body=collaborations.export_csv(viewer, _offset()),
        status_code=200,
        headers={
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": 'attachment; filename="collaborations.csv"',
            "Cache-Control": "no-store",
        },
    )


@route(bp, "/collaborations/calendar-feed", methods=["GET"], area=AREA, reads=LIST)
def calendar_feed(viewer: Viewer) -> dict:
    return collaboration_feed.state(viewer)


@route(bp, "/collaborations/calendar-feed", methods=["POST"], area=AREA, reads=LIST)
def renew_calendar_feed(viewer: Viewer) -> dict:
    return collaboration_feed.renew(viewer)


@route(bp, "/collaborations/calendar-feed", methods=["DELETE"], area=AREA, reads=LIST)
def revoke_calendar_feed(viewer: Viewer) -> dict:
    return collaboration_feed.revoke(viewer)


@route(bp, "/calendar/{feed}", methods=["GET"], public=True)
def calendar_file(feed: str) -> Response:
    """The brand's calendar feed (iCalendar): the secret in the path is the credential."""
    return Response(
        body=collaboration_feed.ics(feed),
        status_code=200,
        headers={
            "Content-Type": "text/calendar; charset=utf-8",
            "Cache-Control": "private, max-age=900",
            "Referrer-Policy": "no-referrer",
        },
    )


@route(bp, "/collaborations", methods=["POST"], area=AREA, reads=LIST)
def propose_collaboration(viewer: Viewer) -> Response:
    result = collaborations.propose(viewer, _body(), _offset())
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/collaborations/{collabId}", methods=["GET"], area=AREA, reads=COLLAB)
def get_collaboration(viewer: Viewer, collabId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return collaborations.view(viewer, collabId, _offset())


@route(bp, "/collaborations/{collabId}/accept", methods=["POST"], area=AREA, reads=COLLAB)
def accept_collaboration(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.accept(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/changes", methods=["POST"], area=AREA, reads=COLLAB)
def change_collaboration(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.propose_changes(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/decline", methods=["POST"], area=AREA, reads=COLLAB)
def decline_collaboration(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.decline(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/cancel", methods=["POST"], area=AREA, reads=COLLAB)
def cancel_collaboration(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.cancel(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/checklist", methods=["POST"], area=AREA, reads=COLLAB)
def add_checklist_item(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.add_item(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/checklist/{itemId}", methods=["PUT"], area=AREA, reads=COLLAB)
def tick_checklist_item(viewer: Viewer, collabId: str, itemId: str) -> dict:  # noqa: N803
    return collaborations.tick(viewer, collabId, itemId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/messages", methods=["POST"], area=AREA, reads=COLLAB)
def post_collaboration_message(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.message(viewer, collabId, _body(), _offset())


@route(bp, "/collaborations/{collabId}/results", methods=["PUT"], area=AREA, reads=COLLAB)
def record_collaboration_results(viewer: Viewer, collabId: str) -> dict:  # noqa: N803
    return collaborations.record_results(viewer, collabId, _body(), _offset())
