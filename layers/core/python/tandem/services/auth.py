"""Sign-up, sign-in and the link flows (confirm email, reset / create password, instant login).

Messages are what members read. Wrong email and wrong password get the same answer, and an
unknown email costs the same argon2 time as a known one.
"""

from __future__ import annotations

import re
from typing import Any

from tandem.domain import passwords
from tandem.errors import Conflict, ValidationError
from tandem.observability import count_event
from tandem.services import accounts, brands, codes, mailer, rate_limit, sessions, tokens
from tandem.store.models import Brand, User

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
WRONG_CREDENTIALS = "Wrong email or password"
NO_PASSWORD = "Your account doesn't have a password yet. We can email you a link to create one."
TOO_MANY = "Too many sign-in attempts. Please wait 15 minutes and try again."
LOGIN_WINDOW = 15 * 60
LOGIN_LIMIT_PER_EMAIL = 10
LOGIN_LIMIT_PER_CLIENT = 50
CHECK_EMAIL = "Thanks! Check your email for a link to confirm your address."
RESET_SENT = "If that email belongs to a Tandem account, we've sent a link to reset the password."
SETUP_SENT = "If that email belongs to a Tandem account without a password, we've sent a link to create one."


def _clean_email(raw: Any) -> str:
    email = str(raw or "").strip().lower()
    if not email:
        raise ValidationError("This field is required")
    if len(email) > 254 or not EMAIL.match(email):
        raise ValidationError("Invalid email")
    return email


def _require(body: dict[str, Any], field: str, max_length: int = 200) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise FieldErrors({field: "This field is required"})
    if len(value) > max_length:
        raise FieldErrors({field: f"Please use at most {max_length} characters"})
    return value.strip()


class FieldErrors(ValidationError):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


def _check_password(password: str, field: str = "password") -> None:
    problem = passwords.password_problem(password)
    if problem:
        raise FieldErrors({field: problem})


def initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


def login_response(user: User) -> dict[str, Any]:
    return {
        "access_token": tokens.issue_access_token(user.user_id, user.account_id, user.access),
        "refresh_token": sessions.start(user.user_id),
        "uid": user.user_id,
        "account": user.account_id,
        "initials": initials(user.name),
        "name": user.name,
        "firstName": user.first_name,
        "sessionInfo": {"access": user.access},
        "redirect": "/",
        "globalMessage": None if user.email_confirmed else "Please confirm your email address.",
    }


def login(body: dict[str, Any], client_ip: str) -> dict[str, Any]:
    email = _clean_email(body.get("email"))
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise ValidationError("This field is required")
    rate_limit.hit("login-client", client_ip, LOGIN_LIMIT_PER_CLIENT, LOGIN_WINDOW, TOO_MANY)
    rate_limit.hit("login-email", email, LOGIN_LIMIT_PER_EMAIL, LOGIN_WINDOW, TOO_MANY)
    user = accounts.find_user_by_email(email)
    if user is None:
        passwords.dummy_verify(password)
        raise WrongCredentials(WRONG_CREDENTIALS)
    if not user.password_hash:
        raise ValidationError(NO_PASSWORD)
    if not passwords.verify_password(user.password_hash, password):
        raise WrongCredentials(WRONG_CREDENTIALS)
    rate_limit.reset("login-email", email, LOGIN_WINDOW)
    if body.get("code"):
        _confirm(str(body["code"]), expected_user=user.user_id)
        user.refresh()
    return login_response(user)


class WrongCredentials(ValidationError):
    status = 401


def refresh(body: dict[str, Any]) -> dict[str, str]:
    user_id, next_token = sessions.rotate(str(body.get("refreshToken") or ""), body.get("uid") or None)
    user = accounts.get_user(user_id)
    return {
        "access_token": tokens.issue_access_token(user.user_id, user.account_id, user.access),
        "refresh_token": next_token,
    }


def logout(body: dict[str, Any]) -> None:
    sessions.end(str(body.get("refreshToken") or ""))


def create_account(body: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    for field in ("name", "email", "password", "brandName"):
        value = body.get(field)
        if not isinstance(value, str) or not value.strip():
            errors[field] = "This field is required"
    if "email" not in errors:
        try:
            _clean_email(body["email"])
        except ValidationError as exc:
            errors["email"] = exc.message
    if "password" not in errors:
        problem = passwords.password_problem(body["password"])
        if problem:
            errors["password"] = problem
    for field, limit in (("name", 100), ("brandName", 100)):
        if field not in errors and len(body[field].strip()) > limit:
            errors[field] = f"Please use at most {limit} characters"
    if errors:
        raise FieldErrors(errors)
    email = _clean_email(body["email"])
    if accounts.find_user_by_email(email):
        raise Conflict("An account with this email already exists")
    account, user = accounts.create_account_with_user(
        email=email, name=body["name"].strip(), password=body["password"]
    )
    brands.create_brand(account_id=account.account_id, name=body["brandName"].strip())
    count_event("SignUp")
    send_confirmation(user)
    return {"message": CHECK_EMAIL}


def send_confirmation(user: User) -> None:
    code = codes.issue("confirm-email", user.user_id)
    mailer.send(
        user.email,
        "Confirm your email for Tandem",
        f"Hi {user.first_name},\n\nPlease confirm your email address so brands can reach you:\n"
        f"{mailer.link('/confirm-email/' + code)}\n\nThe link works once and expires in 7 days.",
    )


def resend_confirmation(user: User) -> dict[str, str]:
    if user.email_confirmed:
        return {"message": "Your email address is already confirmed."}
    rate_limit.hit("confirm-resend", user.user_id, 5, 3600, "Please wait a little before asking again.")
    send_confirmation(user)
    return {"message": f"We've sent a new confirmation link to {user.email}."}


def _confirm(code: str, expected_user: str | None = None) -> User:
    user_id = codes.consume("confirm-email", code)
    if expected_user and user_id != expected_user:
        raise ValidationError(codes.EXPIRED_OR_USED)
    user = accounts.get_user(user_id)
    user.update(actions=[User.email_confirmed.set(True)])
    return user


def confirm_email(body: dict[str, Any]) -> dict[str, str]:
    _confirm(_require(body, "code"))
    return {"message": "Thanks, your email address is confirmed."}


def forgot_password(body: dict[str, Any], client_ip: str) -> dict[str, str]:
    email = _clean_email(body.get("email"))
    rate_limit.hit("forgot", client_ip, 20, 3600, "Please wait a little before asking again.")
    user = accounts.find_user_by_email(email)
    if user is not None:
        code = codes.issue("reset-password", user.user_id)
        mailer.send(
            user.email,
            "Reset your Tandem password",
            f"Hi {user.first_name},\n\nUse this link to choose a new password:\n"
            f"{mailer.link('/reset-password/' + code)}\n\nIt works once and expires in an hour. "
            "If you didn't ask for this, you can ignore this email.",
        )
    return {"message": RESET_SENT}


def setup_password(body: dict[str, Any], client_ip: str) -> dict[str, str]:
    email = _clean_email(body.get("email"))
    rate_limit.hit("setup", client_ip, 20, 3600, "Please wait a little before asking again.")
    user = accounts.find_user_by_email(email)
    if user is not None and not user.password_hash:
        code = codes.issue("create-password", user.user_id)
        mailer.send(
            user.email,
            "Create your Tandem password",
            f"Hi {user.first_name},\n\nUse this link to create your password:\n"
            f"{mailer.link('/create-password/' + code)}\n\nIt works once and expires in 7 days.",
        )
    return {"message": SETUP_SENT}


def _set_password(purpose: str, body: dict[str, Any]) -> dict[str, str]:
    code = _require(body, "code")
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise FieldErrors({"password": "This field is required"})
    _check_password(password)
    user = accounts.get_user(codes.consume(purpose, code))
    user.update(
        actions=[
            User.password_hash.set(passwords.hash_password(password)),
            User.email_confirmed.set(True),  # the link proved the address
        ]
    )
    return {"message": "Your password is set. You can sign in now."}


def reset_password(body: dict[str, Any]) -> dict[str, str]:
    return _set_password("reset-password", body)


def create_password(body: dict[str, Any]) -> dict[str, str]:
    return _set_password("create-password", body)


def instant_login_link(user: User) -> str:
    return mailer.link(f"/login/{codes.issue('instant-login', user.user_id)}/{user.user_id}")


def instant_login(body: dict[str, Any]) -> dict[str, Any]:
    code, user_id = _require(body, "code"), _require(body, "id")
    if codes.consume("instant-login", code) != user_id:
        raise ValidationError(codes.EXPIRED_OR_USED)
    return login_response(accounts.get_user(user_id))


def login_check(user: User, brand: Brand | None) -> dict[str, Any]:
    return {
        "id": user.user_id,
        "email": user.email,
        "company_name": brand.name if brand else "",
        "brandId": int(brand.brand_id) if brand else None,
        "showWelcome": not user.welcome_done,
        "showWelcomeOpenerMessage": not user.welcome_done,
        "welcomeMessage": f"Welcome to Tandem, {user.first_name}!",
        "showNewbiePopup": not user.welcome_done,
        "showBrandVisibilityUpdatePupup": not user.brand_visibility_popup_done,
        "featureOnly": user.access == "feature",
        "emailConfirmed": bool(user.email_confirmed),
        "lastWebhookUpdate": dict(user.last_webhook_update or {}),
    }
