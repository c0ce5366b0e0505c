"""GET dashboard and dashboard/{brand}. What the dashboard reads with the caller is declared in
tandem.services.viewer (DASHBOARD): the account, what is new to the brand, its Pitch Area
feature, and at the same time the account's brands and credit buckets."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.door import route
from tandem.services import dashboard
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/dashboard", methods=["GET"], reads=reads.DASHBOARD)
def get_dashboard(viewer: Viewer) -> dict:
    return dashboard.build(viewer)


@route(bp, "/dashboard/{brand}", methods=["GET"], reads=reads.DASHBOARD_OF_BRAND, brand_param="brand")
def get_brand_dashboard(viewer: Viewer, brand: str) -> dict:
    return dashboard.build(viewer)
