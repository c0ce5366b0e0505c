"""Admin-only calls (the admin console, issue 12). Every route starts with `admin_only`; the
actions are recorded in the audit log by tandem.services.admin."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import admin_only
from chalicelib.http import json_body, route

bp = Blueprint(__name__)


def _query() -> dict:
    return dict(bp.current_request.query_params or {})


@route(bp, "/admin/users", methods=["GET"])
def list_users() -> dict:
    """Every user (the developer-mode impersonation field's list)."""
    from tandem.services import accounts

    admin_only(bp.current_request)
    return {
        "users": [
            {"id": u.user_id, "email": u.email, "name": u.name, "access": u.access}
            for u in sorted(accounts.list_users(), key=lambda u: u.email)
        ]
    }


@route(bp, "/admin/members", methods=["GET"])
def search_members() -> dict:
    from tandem.services import admin

    admin_only(bp.current_request)
    return admin.members(_query())


@route(bp, "/admin/accounts/{account_id}/require-approval", methods=["POST"])
def require_approval(account_id: str) -> dict:
    from tandem.services import admin

    return admin.require_approval(admin_only(bp.current_request), account_id)


@route(bp, "/admin/accounts/{account_id}/grant", methods=["POST"])
def grant_plan(account_id: str) -> dict:
    from tandem.services import admin

    return admin.grant_plan(admin_only(bp.current_request), account_id, json_body(bp.current_request))


@route(bp, "/admin/accounts/{account_id}/grant", methods=["DELETE"])
def end_granted_plan(account_id: str) -> dict:
    from tandem.services import admin

    return admin.end_granted_plan(admin_only(bp.current_request), account_id)


@route(bp, "/admin/approvals", methods=["GET"])
def approval_queue() -> dict:
    from tandem.services import admin

    admin_only(bp.current_request)
    return admin.approval_queue(_query())


@route(bp, "/admin/approvals/{account_id}/approve", methods=["POST"])
def approve(account_id: str) -> dict:
    from tandem.services import admin

    return admin.approve(admin_only(bp.current_request), account_id)


@route(bp, "/admin/approvals/{account_id}/refuse", methods=["POST"])
def refuse(account_id: str) -> dict:
    from tandem.services import admin

    user = admin_only(bp.current_request)
    return admin.refuse(user, account_id, json_body(bp.current_request))


@route(bp, "/admin/accounts/{account_id}/refund", methods=["GET"])
def refund_preview(account_id: str) -> dict:
    from tandem.services import admin

    admin_only(bp.current_request)
    return admin.refund_preview(account_id)


@route(bp, "/admin/accounts/{account_id}/refund", methods=["POST"])
def refund(account_id: str) -> dict:
    from tandem.services import admin

    return admin.refund(admin_only(bp.current_request), account_id)


@route(bp, "/admin/credits/grant", methods=["POST"])
def grant_credits() -> dict:
    from tandem.services import admin

    user = admin_only(bp.current_request)
    return admin.gift_credits(user, json_body(bp.current_request))


@route(bp, "/admin/issue-reports", methods=["GET"])
def issue_reports() -> dict:
    from tandem.services import admin

    admin_only(bp.current_request)
    return admin.issue_reports(_query())


@route(bp, "/admin/settings", methods=["GET"])
def site_settings() -> dict:
    from tandem.services import admin

    admin_only(bp.current_request)
    return admin.site_settings()


@route(bp, "/admin/settings", methods=["PUT"])
def update_settings() -> dict:
    from tandem.services import admin

    user = admin_only(bp.current_request)
    return admin.update_settings(user, json_body(bp.current_request))


@route(bp, "/admin/collaborations", methods=["GET"])
def collaboration_figures() -> dict:
    """Collaborations by status and this month's count (issue 41)."""
    from tandem.services import collaborations

    admin_only(bp.current_request)
    return collaborations.admin_figures()


@route(bp, "/admin/audit", methods=["GET"])
def audit_log() -> dict:
    from tandem.services import audit

    admin_only(bp.current_request)
    query = _query()
    return audit.recent(query.get("cursor"))


@route(bp, "/admin/reports", methods=["GET"])
def reports_queue() -> dict:
    """Brands members reported (status=open) and suspended brands (status=suspended)."""
    from tandem.services import trust_admin

    admin_only(bp.current_request)
    return trust_admin.queue(_query())


@route(bp, "/admin/reports/{brandId}", methods=["GET"])
def reported_brand(brandId: str) -> dict:  # noqa: N803
    from tandem.services import trust_admin

    admin_only(bp.current_request)
    return trust_admin.detail(brandId)


@route(bp, "/admin/reports/{brandId}/action", methods=["POST"])
def act_on_brand(brandId: str) -> dict:  # noqa: N803
    """dismiss | warn | suspend | lift, recorded in the audit log."""
    from tandem.services import trust_admin

    admin = admin_only(bp.current_request)
    return trust_admin.act(admin, brandId, json_body(bp.current_request))
