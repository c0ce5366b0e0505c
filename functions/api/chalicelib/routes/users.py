"""Sign-in, sign-up, link flows and the signed-in user's record (SPEC section 7)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, client_ip, json_body, path_text
from tandem.services import auth, onboarding, profile, trust
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


def _body() -> dict:
    return json_body(bp.current_request)


@route(bp, "/users/login", public=True, methods=["POST"])
def login() -> dict:
    return auth.login(_body(), client_ip(bp.current_request))


@route(bp, "/users/refresh-token", public=True, methods=["POST"])
def refresh_token() -> dict:
    return auth.refresh(_body())


@route(bp, "/users/logout", public=True, methods=["POST"])
def logout() -> dict:
    auth.logout(_body())
    return {"ok": True}


@route(bp, "/users/create-account", public=True, methods=["POST"])
def create_account() -> Response:
    body = auth.create_account(_body(), client_ip(bp.current_request))
    return Response(body=body, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/users/confirm-email", public=True, methods=["POST"])
def confirm_email() -> dict:
    return auth.confirm_email(_body())


@route(bp, "/users/forgot-password", public=True, methods=["POST"])
def forgot_password() -> dict:
    return auth.forgot_password(_body(), client_ip(bp.current_request))


@route(bp, "/users/reset-password", public=True, methods=["POST"])
def reset_password() -> dict:
    return auth.reset_password(_body())


@route(bp, "/users/reset-password/{code}", public=True, methods=["GET"])
def check_reset_link(code: str) -> dict:
    """Would this emailed link still work? Changes nothing (the page asks before its form)."""
    return auth.check_password_link("reset-password", code)


@route(bp, "/users/create-password", public=True, methods=["POST"])
def create_password() -> dict:
    return auth.create_password(_body())


@route(bp, "/users/create-password/{code}", public=True, methods=["GET"])
def check_create_link(code: str) -> dict:
    return auth.check_password_link("create-password", code)


@route(bp, "/users/setup-password", public=True, methods=["POST"])
def setup_password() -> dict:
    return auth.setup_password(_body(), client_ip(bp.current_request))


@route(bp, "/users/logout-everywhere", methods=["POST"], reads=reads.CALLER)
def logout_everywhere(viewer: Viewer) -> dict:
    return auth.sign_out_everywhere(viewer.user)


@route(bp, "/users/instant-login", public=True, methods=["POST"])
def instant_login() -> dict:
    return auth.instant_login(_body())


@route(bp, "/users", methods=["GET"], reads=reads.CALLER)
def login_check(viewer: Viewer) -> dict:
    return auth.login_check(viewer.user, viewer.brand)


@route(bp, "/users/check-brand/{brandId}", methods=["GET"], reads=reads.ACTING, brand_param="brandId")
def check_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    return auth.login_check(viewer.user, viewer.brand)


@route(bp, "/users/confirm-email/resend", methods=["GET"], reads=reads.CALLER)
def resend_confirmation(viewer: Viewer) -> dict:
    return auth.resend_confirmation(viewer.user)


@route(bp, "/users/profile", methods=["GET"], reads=reads.CALLER)
def my_profile(viewer: Viewer) -> dict:
    return profile.view(viewer.user)


@route(bp, "/users/profile", methods=["PUT"], reads=reads.CALLER)
def change_name(viewer: Viewer) -> dict:
    return profile.change_name(viewer.user, _body())


@route(bp, "/users/profile/email", methods=["PUT"], reads=reads.CALLER)
def change_email(viewer: Viewer) -> dict:
    return profile.change_email(viewer.user, _body())


@route(bp, "/users/change-password", methods=["POST"], reads=reads.CALLER)
def change_password(viewer: Viewer) -> dict:
    return profile.change_password(viewer.user, _body())


@route(bp, "/users/stop-welcome-emails/{email}", methods=["GET"], reads=reads.CALLER)
def stop_welcome_emails(viewer: Viewer, email: str) -> dict:
    return onboarding.stop_welcome_emails(viewer.user, path_text(email))


@route(bp, "/users/action/welcome", methods=["POST"], reads=reads.CALLER)
def welcome_done(viewer: Viewer) -> dict:
    return onboarding.finish(viewer.user, "welcome")


@route(bp, "/users/action/brand-visibility-pupup", methods=["POST"], reads=reads.CALLER)
def brand_visibility_popup_done(viewer: Viewer) -> dict:
    return onboarding.finish(viewer.user, "brand-visibility-popup")


@route(bp, "/users/blocked", methods=["GET"], reads=reads.SEES)
def blocked_brands(viewer: Viewer) -> dict:
    """The brands the selected brand (X-Brand-Id) blocked (/account/blocked)."""
    return trust.list_blocked(viewer)
