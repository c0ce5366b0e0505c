"""The team's content and onboarding: GET collab, GET collab/calendar, GET videos,
PUT users/video-view/{slug} (SPEC section 7), POST users/action/instructions (the tips tour is
done with), and member collabs: GET collab/examples and the share of a connection
(GET/POST/DELETE connections/{brandId}/share, POST connections/{brandId}/share/agree)."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.door import route
from chalicelib.http import brand_id_param, json_body, path_text
from tandem.domain import account_types as areas
from tandem.services import collab_shares as shares
from tandem.services import content, onboarding
from tandem.services import viewer as reads
from tandem.services.viewer import Pending, Viewer

bp = Blueprint(__name__)


@route(bp, "/collab", methods=["GET"], area=areas.COLLAB_IDEAS, reads=reads.CALLER)
def collab(viewer: Viewer) -> dict:
    return content.collab(bp.current_request.query_params)


@route(bp, "/collab/calendar", methods=["GET"], area=areas.COLLAB_IDEAS, reads=reads.CALLER)
def collab_calendar(viewer: Viewer) -> dict:
    return content.collab_calendar(bp.current_request.query_params)


@route(bp, "/collab/examples", methods=["GET"], area=areas.COLLAB_IDEAS, reads=reads.LIST_OF_BRAND)
def collab_examples(pending: Pending) -> dict:
    return shares.examples(pending)


@route(bp, "/connections/{otherBrandId}/share", methods=["GET"], area=areas.CONNECTIONS, reads=reads.SHARE)
def get_share(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return shares.share_of(viewer, brand_id_param(otherBrandId))


@route(bp, "/connections/{otherBrandId}/share", methods=["POST"], area=areas.CONNECTIONS, reads=reads.SHARE)
def propose_share(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    request = bp.current_request
    # a collaboration is finished by the member's date
    offset = (request.headers or {}).get("x-timezone-offset")
    return shares.propose(viewer, brand_id_param(otherBrandId), json_body(request), offset)


@route(
    bp, "/connections/{otherBrandId}/share/agree", methods=["POST"], area=areas.CONNECTIONS, reads=reads.SHARE
)
def agree_share(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return shares.agree(viewer, brand_id_param(otherBrandId), json_body(bp.current_request))


@route(bp, "/connections/{otherBrandId}/share", methods=["DELETE"], area=areas.CONNECTIONS, reads=reads.SHARE)
def withdraw_share(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return shares.withdraw(viewer, brand_id_param(otherBrandId))


@route(bp, "/videos", methods=["GET"], area=areas.VIDEO_GUIDES, reads=reads.CALLER)
def video_guides(viewer: Viewer) -> dict:
    return content.video_list(viewer.user)


@route(bp, "/users/video-view/{slug}", methods=["PUT"], area=areas.VIDEO_GUIDES, reads=reads.CALLER)
def video_view(viewer: Viewer, slug: str) -> dict:
    return content.record_video_view(viewer.user, path_text(slug))


@route(bp, "/users/action/instructions", methods=["POST"], reads=reads.CALLER)
def instructions_done(viewer: Viewer) -> dict:
    return onboarding.finish(viewer.user, "instructions")
