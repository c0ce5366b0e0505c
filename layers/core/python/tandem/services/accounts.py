"""Accounts and their users. (Sign-up, sign-in and codes arrive with the accounts issue.)"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from tandem.domain.passwords import hash_password
from tandem.errors import Conflict
from tandem.store import keys
from tandem.store.models import Account, User

ACCESS_LEVELS = ("member", "admin", "feature")


def find_user_by_email(email: str) -> User | None:
    return next(iter(User.by_email.query(keys.email_gsi(email))), None)


def create_account_with_user(
    *, email: str, name: str, password: str | None, access: str = "member", confirmed: bool = False
) -> tuple[Account, User]:
    if access not in ACCESS_LEVELS:
        raise ValueError(f"access must be one of {ACCESS_LEVELS}")
    if find_user_by_email(email):
        raise Conflict("An account with this email already exists")
    now = datetime.now(UTC)
    account_id = uuid.uuid4().hex
    user_id = uuid.uuid4().hex
    account = Account(
        keys.account_pk(account_id), keys.META, account_id=account_id, name=name, created_at=now
    )
    user = User(
        keys.user_pk(user_id),
        keys.META,
        user_id=user_id,
        account_id=account_id,
        email=email.strip().lower(),
        name=name,
        first_name=name.split()[0] if name.strip() else "",
        access=access,
        password_hash=hash_password(password) if password else None,
        email_confirmed=confirmed,
        created_at=now,
        gsi1pk=keys.email_gsi(email),
        gsi1sk=keys.EMAIL_SK,
        gsi2pk=keys.account_users_gsi(account_id),
        gsi2sk=keys.user_pk(user_id),
    )
    account.save()
    user.save()
    return account, user


def get_user(user_id: str) -> User:
    try:
        return User.get(keys.user_pk(user_id), keys.META)
    except User.DoesNotExist:
        from tandem.errors import Unauthorized

        raise Unauthorized("Please sign in to continue") from None


def get_account(account_id: str) -> Account | None:
    try:
        return Account.get(keys.account_pk(account_id), keys.META)
    except Account.DoesNotExist:
        return None


def list_users(limit: int = 200) -> list[User]:
    """Users for the admin list (a scan: admin-only and small; an index comes when it grows)."""
    found: list[User] = []
    for user in User.every():
        found.append(user)
        if len(found) == limit:
            break
    return found


def users_of_account(account_id: str) -> list[User]:
    """The account's users (who is emailed about its brands' requests)."""
    return list(User.by_account.query(keys.account_users_gsi(account_id)))
