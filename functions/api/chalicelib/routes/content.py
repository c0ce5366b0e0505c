"""The team's content and onboarding: GET collab, GET videos, PUT users/video-view/{slug}
(SPEC section 7) and POST users/action/instructions (the tips tour is done with)."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import member_for_brand
from chalicelib.http import lazy, path_text, route
from tandem.store.models import User

bp = Blueprint(__name__)
content = lazy("tandem.services.content")


@route(bp, "/collab", methods=["GET"])
def collab() -> dict:
    request = bp.current_request
    member_for_brand(request, need_brand=False)
    return content.collab(request.query_params)


@route(bp, "/videos", methods=["GET"])
def video_guides() -> dict:
    member = member_for_brand(bp.current_request, need_brand=False)
    return content.video_list(member.user)


@route(bp, "/users/video-view/{slug}", methods=["PUT"])
def video_view(slug: str) -> dict:
    member = member_for_brand(bp.current_request, need_brand=False)
    return content.record_video_view(member.user, path_text(slug))


@route(bp, "/users/action/instructions", methods=["POST"])
def instructions_done() -> dict:
    member = member_for_brand(bp.current_request, need_brand=False)
    member.user.update(actions=[User.instructions_done.set(True)])
    return {"ok": True}
