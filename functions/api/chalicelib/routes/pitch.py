"""The Pitch Area: features (a brand's featured opportunity), pitches to them, and the admin
approval of features. Every member route acts as the selected brand (`X-Brand-Id`, checked at
the door with what its use case reads: tandem.services.viewer); the admin routes need a Tandem
admin (`reads.ADMIN`: the door refuses anyone else)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, json_body
from tandem.domain import account_types as areas
from tandem.services import pitch
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


def _query(name: str) -> str | None:
    params = bp.current_request.query_params or {}
    value = params.get(name)
    return value if value else None


@route(bp, "/pitch", methods=["GET"], reads=reads.SEES)
def list_features(viewer: Viewer) -> dict:
    return pitch.list_live(viewer, _query("kind"), _query("category"), _query("cursor"))


@route(bp, "/pitch", methods=["POST"], reads=reads.ACTING)
def create_feature(viewer: Viewer) -> Response:
    result = pitch.create(viewer, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/pitch/mine", methods=["GET"], reads=reads.PITCH_MINE)
def my_features(viewer: Viewer) -> dict:
    return pitch.mine(viewer)


@route(bp, "/pitch/{featureId}", methods=["GET"], reads=reads.SEES)
def get_feature(viewer: Viewer, featureId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return pitch.view(viewer, featureId)


@route(bp, "/pitch/{featureId}", methods=["DELETE"], reads=reads.ACTING)
def end_feature(viewer: Viewer, featureId: str) -> dict:  # noqa: N803
    return pitch.end(viewer, featureId)


@route(bp, "/pitch/{featureId}/pitch", methods=["POST"], area=areas.PITCHING, reads=reads.CREDITS)
def pitch_to_feature(viewer: Viewer, featureId: str) -> Response:  # noqa: N803
    result = pitch.pitch(viewer, featureId, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/pitch/{featureId}/checkout", methods=["POST"], reads=reads.ACCOUNT)
def feature_checkout(viewer: Viewer, featureId: str) -> dict:  # noqa: N803
    return pitch.checkout(viewer, featureId, json_body(bp.current_request))


@route(bp, "/admin/features", methods=["GET"], reads=reads.ADMIN)
def admin_features(viewer: Viewer) -> dict:
    return pitch.admin_list(_query("status"))


@route(bp, "/admin/features/{featureId}/approve", methods=["POST"], reads=reads.ADMIN)
def approve_feature(viewer: Viewer, featureId: str) -> dict:  # noqa: N803
    admin = viewer.user
    return pitch.approve(featureId, admin)


@route(bp, "/admin/features/{featureId}/refuse", methods=["POST"], reads=reads.ADMIN)
def refuse_feature(viewer: Viewer, featureId: str) -> dict:  # noqa: N803
    admin = viewer.user
    return pitch.refuse(featureId, admin, json_body(bp.current_request))
