"""Sign-in, sign-up, link flows and the signed-in user's record (SPEC section 7)."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.auth import member_for_brand
from chalicelib.http import JSON_HEADERS, client_ip, json_body, path_text, route

bp = Blueprint(__name__)


def _body() -> dict:
    return json_body(bp.current_request)


@route(bp, "/users/login", public=True, methods=["POST"])
def login() -> dict:
    from tandem.services import auth

    return auth.login(_body(), client_ip(bp.current_request))


@route(bp, "/users/refresh-token", public=True, methods=["POST"])
def refresh_token() -> dict:
    from tandem.services import auth

    return auth.refresh(_body())


@route(bp, "/users/logout", public=True, methods=["POST"])
def logout() -> dict:
    from tandem.services import auth

    auth.logout(_body())
    return {"ok": True}


@route(bp, "/users/create-account", public=True, methods=["POST"])
def create_account() -> Response:
    from tandem.services import auth

    body = auth.create_account(_body(), client_ip(bp.current_request))
    return Response(body=body, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/users/confirm-email", public=True, methods=["POST"])
def confirm_email() -> dict:
    from tandem.services import auth

    return auth.confirm_email(_body())


@route(bp, "/users/forgot-password", public=True, methods=["POST"])
def forgot_password() -> dict:
    from tandem.services import auth

    return auth.forgot_password(_body(), client_ip(bp.current_request))


@route(bp, "/users/reset-password", public=True, methods=["POST"])
def reset_password() -> dict:
    from tandem.services import auth

    return auth.reset_password(_body())


@route(bp, "/users/reset-password/{code}", public=True, methods=["GET"])
def check_reset_link(code: str) -> dict:
    """Would this emailed link still work? Changes nothing (the page asks before its form)."""
    from tandem.services import auth

    return auth.check_password_link("reset-password", code)


@route(bp, "/users/create-password", public=True, methods=["POST"])
def create_password() -> dict:
    from tandem.services import auth

    return auth.create_password(_body())


@route(bp, "/users/create-password/{code}", public=True, methods=["GET"])
def check_create_link(code: str) -> dict:
    from tandem.services import auth

    return auth.check_password_link("create-password", code)


@route(bp, "/users/setup-password", public=True, methods=["POST"])
def setup_password() -> dict:
    from tandem.services import auth

    return auth.setup_password(_body(), client_ip(bp.current_request))


@route(bp, "/users/logout-everywhere", methods=["POST"])
def logout_everywhere() -> dict:
    from tandem.services import auth

    return auth.sign_out_everywhere(member_for_brand(bp.current_request, need_brand=False).user)


@route(bp, "/users/instant-login", public=True, methods=["POST"])
def instant_login() -> dict:
    from tandem.services import auth

    return auth.instant_login(_body())


@route(bp, "/users", methods=["GET"])
def login_check() -> dict:
    from tandem.services import auth

    member = member_for_brand(bp.current_request, need_brand=False)
    return auth.login_check(member.user, member.brand)


@route(bp, "/users/check-brand/{brandId}", methods=["GET"])
def check_brand(brandId: str) -> dict:  # noqa: N803 (SPEC's parameter name)
    from tandem.services import auth

    member = member_for_brand(bp.current_request, path_brand=brandId)
    return auth.login_check(member.user, member.brand)


@route(bp, "/users/confirm-email/resend", methods=["GET"])
def resend_confirmation() -> dict:
    from tandem.services import auth

    member = member_for_brand(bp.current_request, need_brand=False)
    return auth.resend_confirmation(member.user)


@route(bp, "/users/profile", methods=["GET"])
def my_profile() -> dict:
    from tandem.services import profile

    member = member_for_brand(bp.current_request, need_brand=False)
    return profile.view(member.user)


@route(bp, "/users/profile", methods=["PUT"])
def change_name() -> dict:
    from tandem.services import profile

    member = member_for_brand(bp.current_request, need_brand=False)
    return profile.change_name(member.user, _body())


@route(bp, "/users/profile/email", methods=["PUT"])
def change_email() -> dict:
    from tandem.services import profile

    member = member_for_brand(bp.current_request, need_brand=False)
    return profile.change_email(member.user, _body())


@route(bp, "/users/change-password", methods=["POST"])
def change_password() -> dict:
    from tandem.services import profile

    member = member_for_brand(bp.current_request, need_brand=False)
    return profile.change_password(member.user, _body())


@route(bp, "/users/stop-welcome-emails/{email}", methods=["GET"])
def stop_welcome_emails(email: str) -> dict:
    from tandem.services import onboarding

    member = member_for_brand(bp.current_request, need_brand=False)
    return onboarding.stop_welcome_emails(member.user, path_text(email))


@route(bp, "/users/action/welcome", methods=["POST"])
def welcome_done() -> dict:
    from tandem.services import onboarding

    member = member_for_brand(bp.current_request, need_brand=False)
    return onboarding.finish(member.user, "welcome")


@route(bp, "/users/action/brand-visibility-pupup", methods=["POST"])
def brand_visibility_popup_done() -> dict:
    from tandem.services import onboarding

    member = member_for_brand(bp.current_request, need_brand=False)
    return onboarding.finish(member.user, "brand-visibility-popup")


@route(bp, "/users/blocked", methods=["GET"])
def blocked_brands() -> dict:
    """The brands the selected brand (X-Brand-Id) blocked (/account/blocked)."""
    from tandem.services import trust

    member = member_for_brand(bp.current_request, also=trust.with_blocks)
    return trust.list_blocked(member.brand, member.user, member.found)
