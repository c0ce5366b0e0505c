"""The team's content and onboarding: GET collab, GET collab/calendar, GET videos,
PUT users/video-view/{slug} (SPEC section 7), POST users/action/instructions (the tips tour is
done with), and member collabs: GET collab/examples and the share of a connection
(GET/POST/DELETE connections/{brandId}/share, POST connections/{brandId}/share/agree)."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import Member, caller, member_for_brand
from chalicelib.http import brand_id_param, json_body, path_text, route
from tandem.domain import account_types as areas
from tandem.store.models import BrandRelation

bp = Blueprint(__name__)


@route(bp, "/collab", methods=["GET"], area=areas.COLLAB_IDEAS)
def collab() -> dict:
    from tandem.services import content

    request = bp.current_request
    member_for_brand(request, need_brand=False)
    return content.collab(request.query_params)


@route(bp, "/collab/calendar", methods=["GET"], area=areas.COLLAB_IDEAS)
def collab_calendar() -> dict:
    from tandem.services import content

    request = bp.current_request
    member_for_brand(request, need_brand=False)
    return content.collab_calendar(request.query_params)


@route(bp, "/collab/examples", methods=["GET"], area=areas.COLLAB_IDEAS)
def collab_examples() -> dict:
    from tandem.services import collab_shares as shares

    who = caller(bp.current_request, default_brand=True)  # checked with the list's brand read
    return shares.examples(who.brand_id, access=who)


def _party(other: str) -> tuple[Member, BrandRelation | None]:
    """The caller's brand (checked) and its relation to the other brand, in one BatchGetItem;
    a brand blocked either way or suspended (tandem.services.visibility, read in the same
    BatchGetItem) is as a brand it is not connected with."""
    from tandem.services import visibility

    other_id = brand_id_param(other)

    def also(brand_id: int, _account_id: str) -> list:
        return [(BrandRelation, BrandRelation.key(brand_id, other_id)), *visibility.keys(brand_id)]

    member = member_for_brand(bp.current_request, also=also)
    brand_id = int(member.brand.brand_id)
    if other_id in visibility.hidden_from(brand_id, member.found):
        return member, None
    return member, member.item(BrandRelation, brand_id, other_id)


@route(bp, "/connections/{otherBrandId}/share", methods=["GET"], area=areas.CONNECTIONS)
def get_share(otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import collab_shares as shares

    member, relation = _party(otherBrandId)
    return shares.share_of(int(member.brand.brand_id), relation)


@route(bp, "/connections/{otherBrandId}/share", methods=["POST"], area=areas.CONNECTIONS)
def propose_share(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import collab_shares as shares

    member, relation = _party(otherBrandId)
    return shares.propose(int(member.brand.brand_id), relation, json_body(bp.current_request))


@route(bp, "/connections/{otherBrandId}/share/agree", methods=["POST"], area=areas.CONNECTIONS)
def agree_share(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import collab_shares as shares

    member, relation = _party(otherBrandId)
    return shares.agree(int(member.brand.brand_id), relation, json_body(bp.current_request))


@route(bp, "/connections/{otherBrandId}/share", methods=["DELETE"], area=areas.CONNECTIONS)
def withdraw_share(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import collab_shares as shares

    member, relation = _party(otherBrandId)
    return shares.withdraw(int(member.brand.brand_id), relation)


@route(bp, "/videos", methods=["GET"], area=areas.VIDEO_GUIDES)
def video_guides() -> dict:
    from tandem.services import content

    member = member_for_brand(bp.current_request, need_brand=False)
    return content.video_list(member.user)


@route(bp, "/users/video-view/{slug}", methods=["PUT"], area=areas.VIDEO_GUIDES)
def video_view(slug: str) -> dict:
    from tandem.services import content

    member = member_for_brand(bp.current_request, need_brand=False)
    return content.record_video_view(member.user, path_text(slug))


@route(bp, "/users/action/instructions", methods=["POST"])
def instructions_done() -> dict:
    from tandem.services import onboarding

    member = member_for_brand(bp.current_request, need_brand=False)
    return onboarding.finish(member.user, "instructions")
