"""The signed-in member's own profile (/account/profile/): name, email address, password.

- The name changes on its own.
- The email address and the password change only with the current password (someone at an
  unlocked screen cannot take the account over). A new address must be confirmed again: it
  becomes the sign-in address at once (its EmailOwner item moves in one transaction, so two
  members can never hold one address), is marked unconfirmed and gets a confirmation link; the
  old address is told (docs/decisions.md, "Changing the email address"). The account's Stripe
  customer made with the old address gets the new one (receipts, the portal).
- A new password follows the SPEC's rules (domain/passwords.py). Like a reset it ends every
  session (token version + 1, refresh tokens revoked); the member's own browser gets a new
  session in the answer, so only the other ones end.
Current-password checks are throttled per user as sign-in is (5 free in 15 minutes, then
waits doubling from 30 s; counted before the check, given back when it succeeds), so the form
cannot be used to guess the password.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tandem.domain import passwords
from tandem.domain.throttle import Policy, Window
from tandem.errors import Conflict, FieldErrors, ValidationError
from tandem.services import accounts, auth, billing, mailer, rate_limit, sessions
from tandem.store.errors import ConditionFailed
from tandem.store.models import EmailOwner, User, transaction

NAME_LIMIT = 100
WRONG_PASSWORD = "Your current password is not right"  # noqa: S105 (a message)
PASSWORD_GUESSES = Policy(Window("profile-password", 15 * 60, 60), free=5)
TOO_MANY_GUESSES = "Too many wrong passwords. Please wait {wait} and try again."
NAME_SAVED = "Your name is saved."
EMAIL_SAVED = "Your email address is changed. We've sent a link to {email} to confirm it."
PASSWORD_SAVED = "Your password is changed. You were signed out everywhere else."  # noqa: S105
SAME_EMAIL = "That is already your email address"


def view(user: User) -> dict[str, Any]:
    return {
        "name": user.name,
        "firstName": user.first_name,
        "initials": auth.initials(user.name),
        "email": user.email,
        "emailConfirmed": bool(user.email_confirmed),
        "hasPassword": bool(user.password_hash),
    }


def _name(body: dict[str, Any]) -> str:
    value = body.get("name")
    if not isinstance(value, str) or not value.strip():
        raise FieldErrors({"name": "This field is required"})
    name = " ".join(value.split())
    if len(name) > NAME_LIMIT:
        raise FieldErrors({"name": f"Please use at most {NAME_LIMIT} characters"})
    if auth._refused_text(value):
        raise FieldErrors({"name": auth.INVISIBLE})
    return name


def _check_current_password(user: User, body: dict[str, Any]) -> None:
    """The current password, or a FieldErrors on `currentPassword`; guesses are counted."""
    given = body.get("currentPassword")
    if not isinstance(given, str) or not given:
        raise FieldErrors({"currentPassword": "This field is required"})
    if not user.password_hash:
        passwords.dummy_verify(given)
        raise FieldErrors({"currentPassword": auth.NO_PASSWORD})
    attempt = rate_limit.reserve([(PASSWORD_GUESSES, user.user_id)], TOO_MANY_GUESSES)
    if not passwords.verify_password(user.password_hash, given):
        raise FieldErrors({"currentPassword": WRONG_PASSWORD})
    attempt.give_back()  # only wrong passwords count


def change_name(user: User, body: dict[str, Any]) -> dict[str, Any]:
    """PUT users/profile {name}."""
    name = _name(body)
    user.update(actions=[User.name.set(name), User.first_name.set(name.split()[0])])
    return {"message": NAME_SAVED, "profile": view(user)}


def change_email(user: User, body: dict[str, Any]) -> dict[str, Any]:
    """PUT users/profile/email {email, currentPassword}."""
    try:
        email = auth._clean_email(body.get("email"))
    except ValidationError as exc:  # the same messages as sign-up, on the field
        raise FieldErrors({"email": exc.message}) from None
    if email == user.email:
        raise FieldErrors({"email": SAME_EMAIL})
    _check_current_password(user, body)
    old = user.email
    try:
        with transaction() as tx:
            # the new address, only if nobody holds it
            tx.save(
                EmailOwner(
                    *EmailOwner.key(email),
                    user_id=user.user_id,
                    account_id=user.account_id,
                    created_at=datetime.now(UTC),
                ),
                condition=EmailOwner.pk.does_not_exist(),
            )
            tx.delete(EmailOwner(*EmailOwner.key(old)), condition=EmailOwner.user_id == user.user_id)
            tx.update(
                user,
                actions=User.email_actions(email, user.user_id),
                condition=User.email == old,  # a parallel change of the same user: one wins
            )
    except ConditionFailed as exc:
        if not exc.failed_keys:  # refused by a transaction in flight, not by a condition
            raise
        holder = EmailOwner.lookup(email)  # which condition failed (pynamodb orders the items)
        if holder is not None and holder.user_id != user.user_id:
            raise FieldErrors({"email": accounts.EMAIL_TAKEN}) from None
        raise Conflict("Your email address was just changed elsewhere. Please reload the page.") from None
    user.refresh(consistent_read=True)
    billing.member_email_changed(user.account_id, old, email)  # their Stripe customer's too
    auth.send_confirmation(user)
    mailer.send(
        old,
        "Your Tandem email address was changed",
        f"Hi {user.first_name},\n\nThe email address of your Tandem account was changed to {email}. "
        "From now on, sign in with that address.\n\nIf you didn't make this change, reply to this "
        "email straight away so we can secure your account.",
    )
    return {"message": EMAIL_SAVED.format(email=email), "profile": view(user)}


def change_password(user: User, body: dict[str, Any]) -> dict[str, Any]:
    """POST users/change-password {currentPassword, newPassword}: the answer carries a new
    session for this browser (the same fields as sign-in) and ends every other one."""
    new = body.get("newPassword")
    if not isinstance(new, str) or not new:
        raise FieldErrors({"newPassword": "This field is required"})
    _check_current_password(user, body)
    problem = passwords.password_problem(new, (user.name, user.email))
    if problem:
        raise FieldErrors({"newPassword": problem})
    if passwords.verify_password(user.password_hash, new):
        raise FieldErrors({"newPassword": "Please choose a password you don't use now"})
    user.update(
        actions=[
            User.password_hash.set(passwords.hash_password(new)),
            User.token_version.add(1),  # every access and refresh token issued so far stops working
        ]
    )
    sessions.revoke_all(user.user_id)
    return {"message": PASSWORD_SAVED, **auth.login_response(user)}
