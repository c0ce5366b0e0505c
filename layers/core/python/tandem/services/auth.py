"""Sign-up, sign-in and the link flows (confirm email, reset / create password, instant login).

Messages are what members read. Wrong email and wrong password get the same answer, and an
unknown email costs the same argon2 time as a known one. Forgot / setup password only validate,
count and queue; the notifier looks the address up and mails it (`password_link_email`), with
the same work for every address (docs/decisions.md, "Forgot-password answers in equal time").
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from tandem.config import settings
from tandem.domain import account_types, passwords
from tandem.domain.throttle import Policy, Window
from tandem.errors import FieldErrors, Gone, ValidationError
from tandem.observability import count_event
from tandem.services import (
    accounts,
    codes,
    mailer,
    password_links,
    rate_limit,
    sessions,
    sign_in_links,
    tokens,
)
from tandem.store.admin import SiteSettings
from tandem.store.models import Brand, EmailOwner, User

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
WRONG_CREDENTIALS = "Wrong email or password"
NO_PASSWORD = "Your account doesn't have a password yet. We can email you a link to create one."
TOO_MANY = "Too many sign-in attempts. Please wait {wait} and try again."
TOO_MANY_SIGN_UPS = "Too many sign-up attempts from your network. Please wait a little and try again."
ASK_LATER = "Please wait a little before asking again."
CHECK_EMAIL = "Thanks! Check your email for a link to confirm your address."
RESET_SENT = "If that email belongs to a Tandem account, we've sent a link to reset the password."
SETUP_SENT = "If that email belongs to a Tandem account without a password, we've sent a link to create one."
INVISIBLE = "Please remove invisible or control characters"

# Sign-in throttle (docs/decisions.md, "Sign-in throttle"): failures of one address from one
# client get 5 free tries, then waits of 30 s doubling to 15 min; one client's failures over
# all addresses 20 free, then the same waits; one address over all clients at most 100 failures
# an hour. Sliding windows (1-minute and 5-minute buckets). Successful sign-ins are not counted.
LOGIN_PAIR = Policy(Window("login-pair", 15 * 60, 60), free=5)
LOGIN_CLIENT = Policy(Window("login-client", 15 * 60, 60), free=20)
LOGIN_ACCOUNT = Policy(Window("login-account", 60 * 60, 5 * 60), ceiling=100)
SIGN_UPS = Window("create-account", 3600, 60)
SIGN_UPS_PER_CLIENT = 20
LINK_REQUESTS = Window("password-link", 3600, 60)
LINK_REQUESTS_PER_CLIENT = 20
CONFIRM_RESENDS = Window("confirm-resend", 3600, 60)
CONFIRM_RESENDS_PER_USER = 5
TEXT_REFUSED = frozenset({"Cc", "Cs"})


def _clean_email(raw: Any) -> str:
    email = str(raw or "").strip().lower()
    if not email:
        raise ValidationError("This field is required")
    if len(email) > 254 or not EMAIL.match(email) or passwords.has_refused_characters(email):
        raise ValidationError("Invalid email")
    return email


def _require(body: dict[str, Any], field: str, max_length: int = 200) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise FieldErrors({field: "This field is required"})
    if len(value) > max_length:
        raise FieldErrors({field: f"Please use at most {max_length} characters"})
    return value.strip()


def _check_password(password: str, context: tuple[str, ...] = (), field: str = "password") -> None:
    problem = passwords.password_problem(password, context)
    if problem:
        raise FieldErrors({field: problem})


def initials(name: str) -> str:
    parts = [p for p in name.split() if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


def _access_token(user: User) -> str:
    return tokens.issue_access_token(
        user.user_id, user.account_id, user.access, version=int(user.token_version or 0)
    )


def login_response(user: User) -> dict[str, Any]:
    """The login response (SPEC section 3). Its sessionInfo names the brand the member acts for
    when no brand is named (the account's first), so the browser's first calls after signing in
    name it and need not wait for the dashboard to learn it (issue 39 item 11)."""
    first = next(iter(Brand.of_account(user.account_id)), None)
    return {
        "access_token": _access_token(user),
        "refresh_token": sessions.start(user),
        "uid": user.user_id,
        "account": user.account_id,
        "initials": initials(user.name),
        "name": user.name,
        "firstName": user.first_name,
        "sessionInfo": {
            "access": user.access,
            "brandId": int(first.brand_id) if first is not None else None,
        },
        "redirect": "/",
        "globalMessage": SiteSettings.message()
        or (None if user.email_confirmed else "Please confirm your email address."),
    }


def _pair(email: str, client_ip: str) -> str:
    return f"{email} {client_ip}"


def login(body: dict[str, Any], client_ip: str) -> dict[str, Any]:
    email = _clean_email(body.get("email"))
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise ValidationError("This field is required")
    attempt = rate_limit.reserve(
        [(LOGIN_PAIR, _pair(email, client_ip)), (LOGIN_CLIENT, client_ip), (LOGIN_ACCOUNT, email)],
        TOO_MANY,
    )
    user = accounts.find_user_by_email(email)
    if user is None:
        passwords.dummy_verify(password)
        raise WrongCredentials(WRONG_CREDENTIALS)
    if not user.password_hash:
        attempt.give_back()  # nothing was guessed
        raise ValidationError(NO_PASSWORD)
    if not passwords.verify_password(user.password_hash, password):
        raise WrongCredentials(WRONG_CREDENTIALS)
    rate_limit.forget(LOGIN_PAIR.window, _pair(email, client_ip), attempt.at)
    attempt.give_back(LOGIN_CLIENT.window, LOGIN_ACCOUNT.window)  # only failures count
    if body.get("code"):
        _confirm(str(body["code"]), expected_user=user.user_id)
        user.refresh()
    return login_response(user)


class WrongCredentials(ValidationError):
    status = 401


def refresh(body: dict[str, Any]) -> dict[str, str]:
    user, next_token = sessions.rotate(str(body.get("refreshToken") or ""), body.get("uid") or None)
    return {"access_token": _access_token(user), "refresh_token": next_token}


def logout(body: dict[str, Any]) -> None:
    sessions.end(str(body.get("refreshToken") or ""))


def _refused_text(value: str) -> bool:
    return any(unicodedata.category(c) in TEXT_REFUSED for c in value)


def create_account(body: dict[str, Any], client_ip: str) -> dict[str, str]:
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
    for field, limit in (("name", 100), ("brandName", 100)):
        if field not in errors and len(body[field].strip()) > limit:
            errors[field] = f"Please use at most {limit} characters"
        elif field not in errors and _refused_text(body[field]):
            errors[field] = INVISIBLE
    if "password" not in errors:
        context = tuple(body[f] for f in ("name", "email") if isinstance(body.get(f), str))
        problem = passwords.password_problem(body["password"], context)
        if problem:
            errors["password"] = problem
    if errors:
        raise FieldErrors(errors)

    limit = settings().sign_ups_per_hour or SIGN_UPS_PER_CLIENT  # a looser one on the local stage only
    rate_limit.hit(SIGN_UPS, client_ip, limit, TOO_MANY_SIGN_UPS)
    _, user = accounts.create_account_with_user(
        email=_clean_email(body["email"]),
        name=body["name"].strip(),
        password=body["password"],
        brand_name=body["brandName"].strip(),
        needs_approval=SiteSettings.current(consistent=True).approve_new_members,
    )
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
    rate_limit.hit(CONFIRM_RESENDS, user.user_id, CONFIRM_RESENDS_PER_USER, ASK_LATER)
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


def _queue_password_link(purpose: str, body: dict[str, Any], client_ip: str) -> None:
    """Validate, count and queue: the same work whether or not the address has an account."""
    email = _clean_email(body.get("email"))
    rate_limit.hit(LINK_REQUESTS, client_ip, LINK_REQUESTS_PER_CLIENT, ASK_LATER)
    mailer.enqueue({"channel": "password-link", "purpose": purpose, "email": email})


def forgot_password(body: dict[str, Any], client_ip: str) -> dict[str, str]:
    _queue_password_link("reset-password", body, client_ip)
    return {"message": RESET_SENT}


def setup_password(body: dict[str, Any], client_ip: str) -> dict[str, str]:
    _queue_password_link("create-password", body, client_ip)
    return {"message": SETUP_SENT}


def password_link_email(purpose: str, email: str) -> dict[str, str] | None:
    """The notifier's half of forgot / setup password: the email to send. The same work for
    every address (one GetItem, one conditional UpdateItem, one email): an address with an
    account gets a new link (retiring the earlier ones); one without is told so, which also
    helps a member who tried another address; asked to create a password, a member who has one
    is told so (the link's UpdateItem tells us, at no extra call). None (no email) within a
    minute of the previous one to that address. (Its greeting has no name: reading the name
    would be work only a known address costs.)"""
    if purpose not in password_links.LIFETIMES:
        raise ValueError(f"Not a password link: {purpose!r}")
    user_id = EmailOwner.user_id_of(email)
    if user_id is None:
        if not rate_limit.once_per("no-account-mail", email, password_links.RESEND_AFTER):
            return None
        return {"to": email, **_no_account_email(purpose)}
    if purpose == "create-password":
        issued = password_links.issue_create_link(user_id)
        if issued is None:
            return None
        code, had_password = issued
        if had_password:  # the same work as a new link: one UpdateItem, one email
            return {"to": email, **_has_password_email()}
    else:
        code = password_links.issue(purpose, user_id)
        if code is None:
            return None
    if purpose == "reset-password":
        subject = "Reset your Tandem password"
        text = (
            "Hi,\n\nUse this link to choose a new password for your Tandem account:\n"
            f"{mailer.link('/reset-password/' + code)}\n\nIt works once and expires in an hour. "
            "If you didn't ask for this, you can ignore this email."
        )
    else:
        subject = "Create your Tandem password"
        text = (
            "Hi,\n\nUse this link to create the password of your Tandem account:\n"
            f"{mailer.link('/create-password/' + code)}\n\nIt works once and expires in 7 days."
        )
    return {"to": email, "subject": subject, "text": text}


def _has_password_email() -> dict[str, str]:
    return {
        "subject": "Your Tandem password request",
        "text": (
            "Hi,\n\nSomeone, hopefully you, asked to create a password for the Tandem account of "
            "this email address, but it has a password already.\n\nIf you've forgotten it, you can "
            f"choose a new one: {mailer.link('/forgot-password')}\n\n"
            "If you didn't ask, you can ignore this email."
        ),
    }


def _no_account_email(purpose: str) -> dict[str, str]:
    asked = "reset the password of" if purpose == "reset-password" else "create a password for"
    return {
        "subject": "Your Tandem password request",
        "text": (
            f"Hi,\n\nSomeone, hopefully you, asked to {asked} the Tandem account of this email "
            "address, but no Tandem account uses it.\n\nIf you have an account, you may have "
            f"signed up with another address: {mailer.link('/forgot-password')}\n"
            f"To join Tandem: {mailer.link('/create-account')}\n\n"
            "If you didn't ask, you can ignore this email."
        ),
    }


def check_password_link(purpose: str, code: str) -> dict[str, bool]:
    """GET users/reset-password/{code} (and create-password): 200 while the link would work,
    410 once it is used, expired or replaced by a newer one. Changes nothing."""
    if password_links.open_link(purpose, code) is None:
        raise Gone(password_links.EXPIRED_OR_USED)
    return {"valid": True}


def _set_password(purpose: str, body: dict[str, Any]) -> dict[str, str]:
    code = _require(body, "code")
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise FieldErrors({"password": "This field is required"})
    user = password_links.open_link(purpose, code)
    if user is None:
        raise ValidationError(password_links.EXPIRED_OR_USED)
    _check_password(password, (user.name, user.email))
    password_links.use(
        purpose,
        code,
        user,
        [
            User.password_hash.set(passwords.hash_password(password)),
            User.email_confirmed.set(True),  # the link proved the address
            User.token_version.add(1),  # every earlier access and refresh token stops working
        ],
    )
    sessions.revoke_all(user.user_id)
    # The owner proved the mailbox: failures others piled on the address stop counting.
    rate_limit.forget(LOGIN_ACCOUNT.window, user.email, rate_limit.now())
    return {"message": "Your password is set. You can sign in now."}


def reset_password(body: dict[str, Any]) -> dict[str, str]:
    return _set_password("reset-password", body)


def create_password(body: dict[str, Any]) -> dict[str, str]:
    return _set_password("create-password", body)


SIGNED_OUT_EVERYWHERE = "You're signed out everywhere, this browser too."


def sign_out_everywhere(user: User) -> dict[str, str]:
    """POST users/logout-everywhere: every sign-in of the member ends (access and refresh
    tokens, on every device, this one too), as a password reset ends them."""
    user.update(actions=[User.token_version.add(1)])
    sessions.revoke_all(user.user_id)
    return {"message": SIGNED_OUT_EVERYWHERE}


def instant_login_link(user: User, destination: str = "/", status: str = "request-received") -> str:
    return sign_in_links.link(user, destination, status)


def instant_login(body: dict[str, Any]) -> dict[str, Any]:
    """POST users/instant-login {code, id, status?}: a sign-in link from an email. The answer is
    a sign-in like any other, its `redirect` the page the email is about."""
    code, user_id = _require(body, "code"), _require(body, "id")
    status = body.get("status")
    user, destination = sign_in_links.sign_in(code, user_id, status if isinstance(status, str) else None)
    return {**login_response(user), "redirect": destination}


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
        # The tips tour: non-admin members until they finish or skip it (SPEC section 6)
        "showInstructions": user.access != "admin" and not user.instructions_done,
        "featureOnly": account_types.is_feature_only(user.access),
        "emailConfirmed": bool(user.email_confirmed),
        "lastWebhookUpdate": _webhook_times(user),
        # The top bar's message for a member already signed in (SPEC section 7: any answer may
        # carry it); "" once the admin removed it, so the bar drops it too.
        "globalMessage": SiteSettings.message() or "",
    }


def _webhook_times(user: User) -> dict[str, str]:
    """lastWebhookUpdate: {event type: ISO time}. A raw MapAttribute (what DynamoDB gives back
    for a map with no declared fields) is not a dict: dict() of it fails."""
    held = user.last_webhook_update
    if held is None:
        return {}
    return dict(held.as_dict() if hasattr(held, "as_dict") else held)
