"""Accounts and their people: the account (its Stripe and Tandem parts), users, the address
each owns, refresh tokens, one-time codes, rate counters, and the issues they report."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from pynamodb.attributes import (
    BooleanAttribute,
    JSONAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection

from tandem.store import keys
from tandem.store.base import Condition, Key, TandemModel, _Gsi1, _Gsi2, _register

# What the admin lists show of a user (template.yaml projects these into gsi3).
USER_LIST_ATTRIBUTES = ["user_id", "account_id", "email", "name", "access"]


class _UserList(GlobalSecondaryIndex):
    """gsi3: every user by email (the admin Users and Members lists), only the listed fields."""

    class Meta:
        index_name = "gsi3"
        projection = IncludeProjection(USER_LIST_ATTRIBUTES)

    gsi3pk = UnicodeAttribute(hash_key=True)
    gsi3sk = UnicodeAttribute(range_key=True)


@_register
class Account(TandemModel):
    account_id = UnicodeAttribute()
    name = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()
    # none | pending_approval | active | trialling | cancelled | gifted | fixed_term
    # (billing sets it from Stripe; tandem.services.entitlements reads it)
    subscription_status = UnicodeAttribute(default="none")
    subscription_valid_to = NumberAttribute(null=True)  # epoch seconds; cancelled stays valid until then
    # Billing (tandem.services.billing): the account's Stripe customers, the billing record
    # sync_customer computed (tandem.domain.billing.BillingState.to_record() plus the checkout
    # sessions it has seen paid), when the snapshot it came from was read (a sync that read
    # Stripe earlier never overwrites a later one), and the admin's approval of a new plan.
    stripe_customers = ListAttribute(of=UnicodeAttribute, null=True)
    billing = JSONAttribute(null=True)
    billing_synced_at = NumberAttribute(null=True)  # epoch milliseconds the snapshot was read
    billing_approval = UnicodeAttribute(null=True)  # None | required | approved | refused
    # What Tandem grants itself (tandem.domain.entitlements.TandemPart): a plan or free trial an
    # admin granted, an imported member's plan, whether the free trial was had. A Stripe sync
    # never writes it.
    tandem_grants = JSONAttribute(null=True)
    # The account's one free trial through Checkout (tandem.services.billing.checkout): claimed
    # by a conditional write before its Checkout Session is opened, then the session's id.
    trial_claim = UnicodeAttribute(null=True)
    trial_claimed_at = NumberAttribute(null=True)
    trial_session_id = UnicodeAttribute(null=True)
    approval_email = UnicodeAttribute(null=True)  # whom the approval queue names (set with `required`)
    # Every credit grant's [kind, valid_from, valid_to], appended in the grant's own transaction
    # (tandem.services.credits.grant), so the admin lists tell gifted-credits-only from no plan
    # from the account they already read, without a Query of the ledger per member. None: an
    # account from before it (the `index-users` job fills it in).
    credit_windows = ListAttribute(null=True)
    gsi1pk = UnicodeAttribute(null=True)  # BILLING_DUE while a credit month is still to grant
    gsi1sk = UnicodeAttribute(null=True)
    billing_due = _Gsi1()
    gsi2pk = UnicodeAttribute(null=True)  # APPROVAL#pending while a plan awaits approval (store/admin.py)
    gsi2sk = UnicodeAttribute(null=True)
    approval_index = _Gsi2()

    @classmethod
    def key(cls, account_id: str) -> Key:
        return keys.account_pk(account_id), keys.META

    @classmethod
    def due_actions(cls, due_at: int | None, account_id: str) -> list:
        """List the account for the monthly grant job at `due_at` (None: nothing to grant)."""
        if due_at is None:
            return [cls.gsi1pk.remove(), cls.gsi1sk.remove()]
        return [cls.gsi1pk.set(keys.BILLING_DUE), cls.gsi1sk.set(keys.billing_due_sk(due_at, account_id))]

    @classmethod
    def due_by(cls, now: int) -> Iterator[Account]:
        """Accounts whose next credit month began by `now` (yearly plans, fixed terms)."""
        return cls.billing_due.query(keys.BILLING_DUE, cls.gsi1sk < keys.billing_due_sk(now + 1, ""))

    @classmethod
    def every(cls) -> Iterator[Account]:
        """Every account (a scan: scheduled jobs and backfills, never a screen)."""
        return cls.scan(cls.pk.startswith(keys.ACCOUNT_PREFIX) & (cls.sk == keys.META))


@_register
class User(TandemModel):
    user_id = UnicodeAttribute()
    account_id = UnicodeAttribute()
    email = UnicodeAttribute()
    name = UnicodeAttribute()
    first_name = UnicodeAttribute()
    access = UnicodeAttribute(default="member")  # member | admin | feature
    password_hash = UnicodeAttribute(null=True)
    email_confirmed = BooleanAttribute(default=False)
    welcome_done = BooleanAttribute(default=False)
    brand_visibility_popup_done = BooleanAttribute(default=False)
    instructions_done = BooleanAttribute(default=False)  # the tips tour, finished or skipped
    watched_videos = UnicodeSetAttribute(null=True)  # Video Guide slugs this user has played
    welcome_emails = BooleanAttribute(default=True)
    # Emails that bring the member back carry a one-click sign-in link, unless turned off in
    # Notifications (tandem.services.sign_in_links).
    sign_in_links = BooleanAttribute(default=True)
    last_webhook_update = MapAttribute(default=dict)  # event type -> ISO timestamp
    created_at = UTCDateTimeAttribute()
    # Access and refresh tokens carry the version they were issued under; a password reset or
    # change adds 1, which ends every earlier sign-in (checked where the user is read anyway).
    token_version = NumberAttribute(default=0)
    # The one reset / create-password link that still works (tandem.services.password_links):
    # SHA-256 of its secret, its purpose and expiry. Issuing a link replaces them, using it
    # removes them, so every earlier link is retired. `password_link_sent`: when the last went out.
    password_link = UnicodeAttribute(null=True)
    password_link_purpose = UnicodeAttribute(null=True)
    password_link_expires = NumberAttribute(null=True)
    password_link_sent = NumberAttribute(null=True)
    gsi1pk = UnicodeAttribute()  # EMAIL#<email>: users from before EmailOwner are found by it
    gsi1sk = UnicodeAttribute()
    by_email = _Gsi1()
    gsi2pk = UnicodeAttribute(null=True)  # ACCOUNT-USERS#<account>: who to email for a brand
    gsi2sk = UnicodeAttribute(null=True)
    by_account = _Gsi2()
    gsi3pk = UnicodeAttribute(null=True)  # USERS: the admin lists, by email (unset: not yet backfilled)
    gsi3sk = UnicodeAttribute(null=True)
    listed = _UserList()

    @classmethod
    def key(cls, user_id: str) -> Key:
        return keys.user_pk(user_id), keys.META

    @classmethod
    def new(cls, user_id: str, account_id: str, email: str, **fields: Any) -> User:
        """A user with its key and index keys (by email; by account, for who gets emails)."""
        return cls(
            *cls.key(user_id),
            user_id=user_id,
            account_id=account_id,
            email=email.strip().lower(),
            gsi1pk=keys.email_gsi(email),
            gsi1sk=keys.EMAIL_SK,
            gsi2pk=keys.account_users_gsi(account_id),
            gsi2sk=keys.user_pk(user_id),
            **cls.list_keys(email, user_id),
            **fields,
        )

    @staticmethod
    def list_keys(email: str, user_id: str) -> dict[str, str]:
        """Where the user stands in the admin lists (gsi3: every user, by email)."""
        return {"gsi3pk": keys.ALL_USERS, "gsi3sk": keys.user_list_sk(email, user_id)}

    @classmethod
    def email_actions(cls, email: str, user_id: str) -> list[Any]:
        """The update actions that move a user to a new (normalised) sign-in address, index keys
        included, and mark it unconfirmed."""
        listed = cls.list_keys(email, user_id)
        return [
            cls.email.set(email),
            cls.gsi1pk.set(keys.email_gsi(email)),
            cls.gsi3pk.set(listed["gsi3pk"]),
            cls.gsi3sk.set(listed["gsi3sk"]),
            cls.email_confirmed.set(False),
        ]

    @classmethod
    def with_email(cls, email: str) -> User | None:
        return next(iter(cls.by_email.query(keys.email_gsi(email))), None)

    @classmethod
    def of_account(cls, account_id: str) -> list[User]:
        return list(cls.by_account.query(keys.account_users_gsi(account_id)))

    @classmethod
    def every(cls) -> Iterator[User]:
        """Every user, whole (a scan: scheduled jobs and backfills, never a screen)."""
        return cls.scan(cls.pk.startswith(keys.USER_PREFIX) & (cls.sk == keys.META))


@_register
class EmailOwner(TandemModel):
    """The account an email address belongs to: one item per normalised address
    (pk=EMAIL#<address>, sk=OWNER), written in the sign-up transaction on the condition that it
    does not exist yet, so two sign-ups with one address can never both succeed."""

    user_id = UnicodeAttribute()
    account_id = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()

    SK = keys.EMAIL_OWNER_SK

    @staticmethod
    def normalise(email: str) -> str:
        return email.strip().lower()

    @classmethod
    def key(cls, email: str) -> tuple[str, str]:
        return keys.email_owner_pk(cls.normalise(email)), cls.SK

    @classmethod
    def lookup(cls, email: str) -> EmailOwner | None:
        try:
            return cls.get(*cls.key(email), consistent_read=True)
        except cls.DoesNotExist:
            return None

    @classmethod
    def user_id_of(cls, email: str) -> str | None:
        """Only the owner's user id: a hit answers as little as a miss (see the forgot-password
        decision: the answer must not take longer for an address that has an account)."""
        try:
            return cls.get(*cls.key(email), consistent_read=True, attributes_to_get=["user_id"]).user_id
        except cls.DoesNotExist:
            return None


@_register
class RefreshToken(TandemModel):
    """One refresh token of a sign-in (family). Only its hash is stored."""

    token_id = UnicodeAttribute()
    user_id = UnicodeAttribute()
    family_id = UnicodeAttribute()
    token_hash = UnicodeAttribute()
    used = BooleanAttribute(default=False)
    revoked = BooleanAttribute(default=False)
    expires_at = NumberAttribute()
    ttl = NumberAttribute()
    token_version = NumberAttribute(default=0)  # the user's token_version at sign-in

    @classmethod
    def key(cls, user_id: str, token_id: str) -> Key:
        return keys.user_pk(user_id), keys.refresh_sk(token_id)

    @classmethod
    def of_user(cls, user_id: str, filter_condition: Condition | None = None) -> Iterator[RefreshToken]:
        return cls.query(
            keys.user_pk(user_id), cls.sk.startswith(keys.REFRESH_PREFIX), filter_condition=filter_condition
        )


@_register
class OneTimeCode(TandemModel):
    """Single-use, expiring link code (confirm email, reset/create password, instant login).
    Addressed by the code's SHA-256, so the code itself is never stored."""

    purpose = UnicodeAttribute()
    user_id = UnicodeAttribute()
    used = BooleanAttribute(default=False)
    expires_at = NumberAttribute()
    ttl = NumberAttribute()
    # Instant login: what the link is bound to besides its user (the address it was sent to, the
    # user's token version then, so a password reset ends it) and the page it opens.
    email = UnicodeAttribute(null=True)
    token_version = NumberAttribute(null=True)
    destination = UnicodeAttribute(null=True)

    @classmethod
    def key(cls, code_hash: str) -> Key:
        return keys.code_pk(code_hash), keys.META


@_register
class RateCounter(TandemModel):
    """Attempts of one subject in one time bucket (pk=RATE#<scope>#<subject>, sk=<bucket start,
    epoch seconds, zero-padded>); tandem.services.rate_limit sums the buckets of a sliding window."""

    count = NumberAttribute(default=0)
    last = NumberAttribute(null=True)  # epoch seconds of the latest attempt counted here
    ttl = NumberAttribute()

    @staticmethod
    def key(scope: str, subject: str, bucket_start: int) -> Key:
        return keys.rate_pk(scope, subject), str(bucket_start).zfill(12)


@_register
class IssueReport(TandemModel):
    """A problem reported from the app's developer issue box (admins, or any user in dev)."""

    report_id = UnicodeAttribute()
    user_id = UnicodeAttribute()
    description = UnicodeAttribute()
    path = UnicodeAttribute(default="")
    created_at = UTCDateTimeAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    gsi1_index = _Gsi1()

    @classmethod
    def key(cls, report_id: str) -> Key:
        return keys.issue_pk(report_id), keys.META

    @classmethod
    def new(cls, report_id: str, created_at: datetime, **fields: Any) -> IssueReport:
        """A report, listed newest first in the issues index."""
        return cls(
            *cls.key(report_id),
            report_id=report_id,
            created_at=created_at,
            gsi1pk=keys.ALL_ISSUES,
            gsi1sk=created_at.isoformat(),
            **fields,
        )
