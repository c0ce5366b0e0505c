"""Admin-only calls."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import admin_only
from chalicelib.http import json_body, lazy, route

accounts = lazy("tandem.services.accounts")
credits = lazy("tandem.services.credits")

bp = Blueprint(__name__)


@route(bp, "/admin/users", methods=["GET"])
def list_users() -> dict:
    admin_only(bp.current_request)
    return {
        "users": [
            {"id": u.user_id, "email": u.email, "name": u.name, "access": u.access}
            for u in sorted(accounts.list_users(), key=lambda u: u.email)
        ]
    }


@route(bp, "/admin/credits/grant", methods=["POST"])
def grant_credits() -> dict:
    admin_only(bp.current_request)
    return credits.admin_grant(json_body(bp.current_request))
