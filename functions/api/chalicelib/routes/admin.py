"""Admin-only calls (the admin console, issue 12). Every route declares `reads.ADMIN`: the door
refuses a caller whose Viewer is not an admin (tandem.services.entitlements.is_admin); the
actions are recorded in the audit log by tandem.services.admin."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.door import route
from chalicelib.http import json_body
from tandem.services import accounts, admin, audit, collaborations, trust_admin
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


def _query() -> dict:
    return dict(bp.current_request.query_params or {})


@route(bp, "/admin/users", methods=["GET"], reads=reads.ADMIN)
def list_users(viewer: Viewer) -> dict:
    """Every user (the developer-mode impersonation field's list)."""
    return {
        "users": [
            {"id": u.user_id, "email": u.email, "name": u.name, "access": u.access}
            for u in sorted(accounts.list_users(), key=lambda u: u.email)
        ]
    }


@route(bp, "/admin/members", methods=["GET"], reads=reads.ADMIN)
def search_members(viewer: Viewer) -> dict:
    return admin.members(_query())


@route(bp, "/admin/accounts/{account_id}/require-approval", methods=["POST"], reads=reads.ADMIN)
def require_approval(viewer: Viewer, account_id: str) -> dict:
    return admin.require_approval(viewer.user, account_id)


@route(bp, "/admin/accounts/{account_id}/grant", methods=["POST"], reads=reads.ADMIN)
def grant_plan(viewer: Viewer, account_id: str) -> dict:
    return admin.grant_plan(viewer.user, account_id, json_body(bp.current_request))


@route(bp, "/admin/accounts/{account_id}/grant", methods=["DELETE"], reads=reads.ADMIN)
def end_granted_plan(viewer: Viewer, account_id: str) -> dict:
    return admin.end_granted_plan(viewer.user, account_id)


@route(bp, "/admin/approvals", methods=["GET"], reads=reads.ADMIN)
def approval_queue(viewer: Viewer) -> dict:
    return admin.approval_queue(_query())


@route(bp, "/admin/approvals/{account_id}/approve", methods=["POST"], reads=reads.ADMIN)
def approve(viewer: Viewer, account_id: str) -> dict:
    return admin.approve(viewer.user, account_id)


@route(bp, "/admin/approvals/{account_id}/refuse", methods=["POST"], reads=reads.ADMIN)
def refuse(viewer: Viewer, account_id: str) -> dict:
    user = viewer.user
    return admin.refuse(user, account_id, json_body(bp.current_request))


@route(bp, "/admin/accounts/{account_id}/refund", methods=["GET"], reads=reads.ADMIN)
def refund_preview(viewer: Viewer, account_id: str) -> dict:
    return admin.refund_preview(account_id)


@route(bp, "/admin/accounts/{account_id}/refund", methods=["POST"], reads=reads.ADMIN)
def refund(viewer: Viewer, account_id: str) -> dict:
    return admin.refund(viewer.user, account_id)


@route(bp, "/admin/credits/grant", methods=["POST"], reads=reads.ADMIN)
def grant_credits(viewer: Viewer) -> dict:
    user = viewer.user
    return admin.gift_credits(user, json_body(bp.current_request))


@route(bp, "/admin/issue-reports", methods=["GET"], reads=reads.ADMIN)
def issue_reports(viewer: Viewer) -> dict:
    return admin.issue_reports(_query())


@route(bp, "/admin/settings", methods=["GET"], reads=reads.ADMIN)
def site_settings(viewer: Viewer) -> dict:
    return admin.site_settings()


@route(bp, "/admin/settings", methods=["PUT"], reads=reads.ADMIN)
def update_settings(viewer: Viewer) -> dict:
    user = viewer.user
    return admin.update_settings(user, json_body(bp.current_request))


@route(bp, "/admin/collaborations", methods=["GET"], reads=reads.ADMIN)
def collaboration_figures(viewer: Viewer) -> dict:
    """Collaborations by status and this month's count (issue 41)."""
    return collaborations.admin_figures()


@route(bp, "/admin/audit", methods=["GET"], reads=reads.ADMIN)
def audit_log(viewer: Viewer) -> dict:
    query = _query()
    return audit.recent(query.get("cursor"))


@route(bp, "/admin/reports", methods=["GET"], reads=reads.ADMIN)
def reports_queue(viewer: Viewer) -> dict:
    """Brands members reported (status=open) and suspended brands (status=suspended)."""
    return trust_admin.queue(_query())


@route(bp, "/admin/reports/{brandId}", methods=["GET"], reads=reads.ADMIN)
def reported_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    return trust_admin.detail(brandId)


@route(bp, "/admin/reports/{brandId}/action", methods=["POST"], reads=reads.ADMIN)
def act_on_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    """dismiss | warn | suspend | lift, recorded in the audit log."""
    admin = viewer.user
    return trust_admin.act(admin, brandId, json_body(bp.current_request))
