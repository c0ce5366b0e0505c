"""The Pitch Area: features (a brand's featured opportunity), pitches to them, and the admin
approval of features. Every route acts as the selected brand (`X-Brand-Id`, checked by
`member_for_brand`); the admin routes need a Tandem admin (`admin_only`)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.auth import Member, admin_only, member_for_brand
from chalicelib.http import JSON_HEADERS, json_body, route
from tandem.domain import account_types as areas
from tandem.store.models import Account
from tandem.store.pitch import FeatureSlot

bp = Blueprint(__name__)


def _query(name: str) -> str | None:
    params = bp.current_request.query_params or {}
    value = params.get(name)
    return value if value else None


def _member(with_slot: bool = False) -> tuple[Member, Account | None]:
    """The caller, with the account (names shown by subscription; billing's record) read in the
    same call, and the brand's Pitch Area slot when `with_slot` (the pitch service says which)."""
    from tandem.services import entitlements, pitch, visibility

    read = pitch.with_slot if with_slot else entitlements.with_account

    def also(brand_id: int | None, account_id: str) -> list:
        return read(brand_id, account_id) + visibility.keys(brand_id)  # hidden brands' features

    member = member_for_brand(bp.current_request, also=also)
    return member, member.item(Account, member.user.account_id)


def _hidden(member: Member) -> frozenset[int]:
    from tandem.services import visibility

    return visibility.hidden_from(int(member.brand.brand_id), member.found)


@route(bp, "/pitch", methods=["GET"])
def list_features() -> dict:
    from tandem.services import pitch

    member, account = _member()
    return pitch.list_live(
        account,
        member.user,
        _query("kind"),
        _query("category"),
        _query("cursor"),
        hidden=_hidden(member),
    )


@route(bp, "/pitch", methods=["POST"])
def create_feature() -> Response:
    from tandem.services import pitch

    member = member_for_brand(bp.current_request)
    result = pitch.create(member.brand, member.user, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/pitch/mine", methods=["GET"])
def my_features() -> dict:
    from tandem.services import pitch

    member, account = _member(with_slot=True)
    return pitch.mine(member.brand, account, member.item(FeatureSlot, int(member.brand.brand_id)))


@route(bp, "/pitch/{featureId}", methods=["GET"])
def get_feature(featureId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import pitch

    member, account = _member()
    return pitch.view(featureId, member.brand, account, member.user, hidden=_hidden(member))


@route(bp, "/pitch/{featureId}", methods=["DELETE"])
def end_feature(featureId: str) -> dict:  # noqa: N803
    from tandem.services import pitch

    member = member_for_brand(bp.current_request)
    return pitch.end(featureId, member.brand)


@route(bp, "/pitch/{featureId}/pitch", methods=["POST"], area=areas.PITCHING)
def pitch_to_feature(featureId: str) -> Response:  # noqa: N803
    from tandem.services import pitch

    member = member_for_brand(bp.current_request)
    result = pitch.pitch(featureId, member.brand, member.user, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/pitch/{featureId}/checkout", methods=["POST"])
def feature_checkout(featureId: str) -> dict:  # noqa: N803
    from tandem.services import pitch

    member, account = _member()
    return pitch.checkout(featureId, member.brand, member.user, account, json_body(bp.current_request))


@route(bp, "/admin/features", methods=["GET"])
def admin_features() -> dict:
    from tandem.services import pitch

    admin_only(bp.current_request)
    return pitch.admin_list(_query("status"))


@route(bp, "/admin/features/{featureId}/approve", methods=["POST"])
def approve_feature(featureId: str) -> dict:  # noqa: N803
    from tandem.services import pitch

    admin = admin_only(bp.current_request)
    return pitch.approve(featureId, admin)


@route(bp, "/admin/features/{featureId}/refuse", methods=["POST"])
def refuse_feature(featureId: str) -> dict:  # noqa: N803
    from tandem.services import pitch

    admin = admin_only(bp.current_request)
    return pitch.refuse(featureId, admin, json_body(bp.current_request))
