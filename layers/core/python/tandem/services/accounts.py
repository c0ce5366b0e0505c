"""Accounts and their users.

An email address belongs to one user: sign-up writes an EmailOwner item for the normalised
address, the account, the user and the first brand in one transaction, on the condition that
the EmailOwner item does not exist. Users are found by email through that item only (one
consistent GetItem, the same for every address). Users created before EmailOwner existed get
theirs from `claim_legacy_emails`, which `make deploy` and the local stack run (docs/decisions.md,
"One account per email address").
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from tandem.errors import Conflict, Unauthorized
from tandem.observability import logger
from tandem.services.credits import windows_of
from tandem.store import keys
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, Brand, EmailOwner, User, transaction, update_only

ACCESS_LEVELS = ("member", "admin", "feature")
EMAIL_TAKEN = "An account with this email already exists"
SESSION_ENDED = "Your session has ended. Please sign in again."


def _oldest_user_by_email(email: str) -> User | None:
    """By the email index (for the backfill): the oldest user, should an address have been
    used twice before sign-up became one transaction."""
    found = list(User.by_email.query(keys.email_gsi(email)))
    return min(found, key=lambda u: (u.created_at, u.user_id)) if found else None


def find_user_by_email(email: str) -> User | None:
    owner = EmailOwner.lookup(email)
    if owner is None:
        return None
    try:
        return User.get(keys.user_pk(owner.user_id), keys.META, consistent_read=True)
    except User.DoesNotExist:
        return None


def create_account_with_user(
    *,
    email: str,
    name: str,
    password: str | None,
    access: str = "member",
    confirmed: bool = False,
    brand_name: str | None = None,
    needs_approval: bool = False,
) -> tuple[Account, User]:
    """The account, its user and (with `brand_name`) its first brand, all or nothing. Conflict
    when the address already has an account; any other failure of the store leaves nothing."""
    # Sign-up alone needs the password rules and the brand's use cases (matching, search): every
    # request's caller check (chalicelib.auth) loads this module, and none of them.
    from tandem.domain.passwords import hash_password
    from tandem.services.brands import index_new, new_brand

    if access not in ACCESS_LEVELS:
        raise ValueError(f"access must be one of {ACCESS_LEVELS}")
    if _oldest_user_by_email(email):  # a user from before EmailOwner, not claimed yet
        raise Conflict(EMAIL_TAKEN)

    now = datetime.now(UTC)
    account_id = uuid.uuid4().hex
    user_id = uuid.uuid4().hex
    account = Account(
        keys.account_pk(account_id),
        keys.META,
        account_id=account_id,
        name=name,
        created_at=now,
        credit_windows=[],  # no credits granted yet (services.credits.grant appends)
    )
    if needs_approval:  # its first plan waits for a team member (tandem.services.admin)
        account.billing_approval = "required"
        account.approval_email = EmailOwner.normalise(email)
    user = User(
        keys.user_pk(user_id),
        keys.META,
        user_id=user_id,
        account_id=account_id,
        email=EmailOwner.normalise(email),
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
        **User.list_keys(email, user_id),
    )
    owner = EmailOwner(*EmailOwner.key(email), user_id=user_id, account_id=account_id, created_at=now)
    brand = new_brand(account_id=account_id, name=brand_name) if brand_name is not None else None
    try:
        with transaction() as tx:
            tx.save(owner, condition=EmailOwner.pk.does_not_exist())  # the address, once
            tx.save(account, condition=Account.pk.does_not_exist())
            tx.save(user, condition=User.pk.does_not_exist())
            if brand is not None:
                tx.save(brand, condition=Brand.pk.does_not_exist())
    except ConditionFailed as exc:
        if EmailOwner.key(email) in exc.failed_keys:  # the address was taken
            raise Conflict(EMAIL_TAKEN) from None
        raise
    if brand is not None:  # findable in search from the first minute, not the next night
        index_new(brand)
    return account, user


def claim_legacy_emails() -> dict[str, int]:
    """Backfill (scheduler job `claim-legacy-emails`, idempotent; run by `make deploy` and at
    local stack start): an EmailOwner item for every user created before sign-up wrote one.
    Where an address was used twice, the oldest user keeps it; the others are counted (and
    logged) for support to merge or remove: they can no longer sign in by email."""
    claimed = duplicates = 0
    for user in User.scan(User.pk.startswith(keys.user_pk("")) & (User.sk == keys.META)):
        owner = EmailOwner.lookup(user.email)
        if owner is not None:
            duplicates += owner.user_id != user.user_id
            continue
        oldest = _oldest_user_by_email(user.email) or user
        claimed += EmailOwner(  # not when claimed meanwhile by a sign-up or another run
            *EmailOwner.key(oldest.email),
            user_id=oldest.user_id,
            account_id=oldest.account_id,
            created_at=oldest.created_at,
        ).put_new()
        duplicates += oldest.user_id != user.user_id
    if duplicates:
        logger.warning("Users whose email address another user owns", extra={"count": duplicates})
    return {"claimed": claimed, "duplicates": duplicates}


def get_user(user_id: str) -> User:
    try:
        return User.get(keys.user_pk(user_id), keys.META)
    except User.DoesNotExist:
        raise Unauthorized("Please sign in to continue") from None


def user_for_token(user_id: str, token_version: int) -> User:
    """The signed-in user of an access token, refused when the token predates a password reset
    (the user item is read for every private call anyway: no extra DynamoDB call)."""
    return check_token_version(get_user(user_id), token_version)


def check_token_version(user: User, token_version: int) -> User:
    """`user`, unless the token (carrying `token_version`) was issued before their last
    password reset or change."""
    if int(user.token_version or 0) != token_version:
        raise Unauthorized(SESSION_ENDED)
    return user


def get_account(account_id: str) -> Account | None:
    try:
        return Account.get(keys.account_pk(account_id), keys.META)
    except Account.DoesNotExist:
        return None


def list_users(limit: int = 200) -> list[User]:
    """The admin Users list: the first `limit` users by email, from the users index (one Query)."""
    from tandem.store.admin import listed_users  # the admin console's models: not every caller check's

    return listed_users(limit)


def index_users() -> dict[str, int]:
    """Backfill (scheduler job `index-users`, idempotent; run by `make deploy` and at local
    stack start): every user saved before the users index (gsi3) is put in it, so the admin
    lists, which only query the index, show them. A user whose email changes meanwhile is
    left to that change, which writes its index keys too."""
    indexed = 0
    for user in User.every():
        if user.gsi3pk is not None:
            continue
        listed = User.list_keys(user.email, user.user_id)
        try:
            user.update(
                actions=[User.gsi3pk.set(listed["gsi3pk"]), User.gsi3sk.set(listed["gsi3sk"])],
                condition=(User.email == user.email) & User.gsi3pk.does_not_exist(),
            )
            indexed += 1
        except ConditionFailed:
            pass  # its email changed meanwhile: that change wrote its index keys
    return {"indexed": indexed, "creditWindows": _backfill_credit_windows()}


def _backfill_credit_windows() -> int:
    """Accounts from before `Account.credit_windows` get it from their credit buckets. A grant
    landing meanwhile appends to the attribute itself, so the write is conditional on the list
    as it was read and is computed again when it moved."""
    filled = 0
    for account in Account.every():
        seen = account.credit_windows
        if seen is not None:
            continue
        for _ in range(4):
            condition = (
                Account.credit_windows.does_not_exist() if seen is None else Account.credit_windows == seen
            )
            try:
                update_only(
                    Account,
                    Account.key(account.account_id),
                    actions=[Account.credit_windows.set(windows_of(account.account_id))],
                    condition=condition,
                )
                filled += 1
                break
            except ConditionFailed:
                fresh = Account.find(account.account_id, consistent=True)
                seen = fresh.credit_windows if fresh else None
    return filled


def users_of_account(account_id: str) -> list[User]:
    """The account's users (who is emailed about its brands' requests)."""
    return list(User.by_account.query(keys.account_users_gsi(account_id)))
