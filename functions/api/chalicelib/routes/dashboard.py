"""GET dashboard and dashboard/{brand}."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import member_for_brand
from chalicelib.http import route
from tandem.services import dashboard

bp = Blueprint(__name__)


@route(bp, "/dashboard", methods=["GET"])
def get_dashboard() -> dict:
    member = member_for_brand(bp.current_request, need_brand=False)
    return dashboard.build(member.brand, member.brands)


@route(bp, "/dashboard/{brand}", methods=["GET"])
def get_brand_dashboard(brand: str) -> dict:
    member = member_for_brand(bp.current_request, path_brand=brand)
    return dashboard.build(member.brand, member.brands)
