"""pynamodb models. All entities live in one table; each model names its own key
(`Brand.key(7)` -> ("BRAND#7", "PROFILE"), built with keys.py) and its access patterns
(`Brand.of_account(...)`, `Match.of_brand(...)`), so nothing outside tandem/store spells a key.
`Model.at(*key args)` is an item with only its key, for updates and transactions.

Every model uses one connection over the process's one DynamoDB client (store/connection.py).
The table itself is created by CloudFormation (template.yaml) in AWS and from the same
template by the local stack and the tests, never by these classes.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    JSONAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

from tandem.config import settings
from tandem.domain import relations as relation_states
from tandem.domain import requests as request_rules
from tandem.store import keys

Key = tuple[str, str]
_M = TypeVar("_M", bound="TandemModel")


class _Gsi1(GlobalSecondaryIndex):
    class Meta:
        index_name = "gsi1"
        projection = AllProjection()

    gsi1pk = UnicodeAttribute(hash_key=True)
    gsi1sk = UnicodeAttribute(range_key=True)


class _Gsi2(GlobalSecondaryIndex):
    class Meta:
        index_name = "gsi2"
        projection = AllProjection()

    gsi2pk = UnicodeAttribute(hash_key=True)
    gsi2sk = UnicodeAttribute(range_key=True)


# What the admin lists show of a user (template.yaml projects these into gsi3).
USER_LIST_ATTRIBUTES = ["user_id", "account_id", "email", "name", "access"]


class _UserList(GlobalSecondaryIndex):
    """gsi3: every user by email (the admin Users and Members lists), only the listed fields."""

    class Meta:
        index_name = "gsi3"
        projection = IncludeProjection(USER_LIST_ATTRIBUTES)

    gsi3pk = UnicodeAttribute(hash_key=True)
    gsi3sk = UnicodeAttribute(range_key=True)


class TandemModel(Model):
    """Base for every entity: the table's key schema and the shared connection. The table name
    comes from the settings on first use (bind_models), so importing the models reads no
    environment; each function checks its settings when its own module is imported."""

    class Meta:
        table_name: str | None = None
        region: str | None = None
        host: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)

    @classmethod
    def _get_connection(cls) -> Any:
        """Every model shares one connection and client (store/connection.py)."""
        from tandem.store.connection import table

        shared = table()
        if cls.Meta.table_name != shared.table_name:
            bind_models()
        return shared

    @classmethod
    def key(cls, *args: Any) -> Key:
        raise NotImplementedError

    @classmethod
    def at(cls: type[_M], *args: Any) -> _M:
        """The item with only its key (to update or delete it without reading it)."""
        return cls(*cls.key(*args))

    @classmethod
    def find(cls: type[_M], *args: Any, consistent: bool = False) -> _M | None:
        """The item at `key(*args)`, or None."""
        try:
            return cls.get(*cls.key(*args), consistent_read=consistent)
        except cls.DoesNotExist:
            return None


ALL_MODELS: list[type[TandemModel]] = []


def _register(cls: type[TandemModel]) -> type[TandemModel]:
    ALL_MODELS.append(cls)
    return cls


def bind_models() -> None:
    """Point every model at the current settings' table (after the environment changed)."""
    from tandem.store.connection import reset_connection

    current = settings()
    reset_connection()
    for cls in [TandemModel, *ALL_MODELS]:
        cls.Meta.table_name = current.table_name
        cls.Meta.region = current.region
        cls.Meta.host = current.endpoint_url
        cls._connection = None


def transaction() -> TransactWrite:
    """A write transaction (TransactWriteItems) on the process's shared connection
    (store/connection.py). It made a pynamodb Connection of its own, so a botocore session
    and client, loading DynamoDB's JSON model, on every call: 0.3-0.4 s of CPU per sign-up."""
    from tandem.store.connection import transaction as shared_transaction

    return shared_transaction()


def update_only(model: type[TandemModel], key: tuple[str, str], actions: list, condition: Any = None) -> None:
    """UpdateItem that asks for nothing back (ReturnValues NONE): `Model.update` always reads
    the whole item back (ALL_NEW), which a write that needs no answer should not pay for.
    Raises pynamodb's UpdateError like `Model.update`."""
    model._get_connection().update_item(
        key[0], key[1], actions=actions, condition=condition, return_values="NONE"
    )


def update_returning_old(
    model: type[TandemModel], key: tuple[str, str], actions: list, condition: Any = None
) -> set[str]:
    """UpdateItem that answers with the names of the attributes the item had before (ReturnValues
    ALL_OLD): what a write needs to know about the item, in the same one call. Raises pynamodb's
    UpdateError like `Model.update`."""
    answer = model._get_connection().update_item(
        key[0], key[1], actions=actions, condition=condition, return_values="ALL_OLD"
    )
    return set((answer or {}).get("Attributes", {}))


def save_all(model: type[_M], items: Iterable[_M]) -> None:
    """Put every item unconditionally with BatchWriteItem (25 a call; pynamodb retries what
    DynamoDB leaves unprocessed). For new items whose keys nobody else can hold (fresh ids)."""
    with model.batch_write() as batch:
        for item in items:
            batch.save(item)


@_register
class Counter(TandemModel):
    value = NumberAttribute(default=0)

    @classmethod
    def key(cls, name: str) -> Key:
        return keys.COUNTER_PK, name


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
    approval_email = UnicodeAttribute(null=True)  # whom the approval queue names (set with `required`)
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


@_register
class StripeCustomer(TandemModel):
    """Which account a Stripe customer belongs to (written with the customer's creation, or
    when a payment link's checkout names a brand of the account)."""

    customer_id = UnicodeAttribute()
    account_id = UnicodeAttribute()
    created_at = NumberAttribute()

    @classmethod
    def key(cls, customer_id: str) -> Key:
        return keys.stripe_customer_pk(customer_id), keys.META


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

    SK = "OWNER"

    @staticmethod
    def normalise(email: str) -> str:
        return email.strip().lower()

    @classmethod
    def key(cls, email: str) -> tuple[str, str]:
        return f"EMAIL#{cls.normalise(email)}", cls.SK

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
    def of_user(cls, user_id: str, filter_condition: Any = None) -> Iterator[RefreshToken]:
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
        return f"RATE#{scope}#{subject.lower()}", str(bucket_start).zfill(12)


class Audience(MapAttribute):
    age_bands = UnicodeSetAttribute(null=True)
    genders = UnicodeSetAttribute(null=True)
    countries = UnicodeSetAttribute(null=True)


class SocialLinks(MapAttribute):
    instagram = UnicodeAttribute(null=True)
    tiktok = UnicodeAttribute(null=True)
    facebook = UnicodeAttribute(null=True)
    linkedin = UnicodeAttribute(null=True)
    x = UnicodeAttribute(null=True)
    youtube = UnicodeAttribute(null=True)


class Contact(MapAttribute):
    """Revealed only to connected brands (and the brand's own account)."""

    name = UnicodeAttribute(null=True)
    email = UnicodeAttribute(null=True)
    phone = UnicodeAttribute(null=True)


@_register
class Brand(TandemModel):
    brand_id = NumberAttribute()
    account_id = UnicodeAttribute()
    name = UnicodeAttribute()
    category = UnicodeAttribute(default="")
    description = UnicodeAttribute(default="")
    website = UnicodeAttribute(null=True)
    company_size = UnicodeAttribute(default="")
    values = UnicodeSetAttribute(null=True)
    collab_kinds = UnicodeSetAttribute(null=True)
    audience = Audience(null=True)
    hide_name = BooleanAttribute(default=False)
    logo_key = UnicodeAttribute(null=True)  # logos/<brand id>/<random>.<ext> in the assets bucket
    social = SocialLinks(null=True)
    contact = Contact(null=True)
    created_at = UTCDateTimeAttribute()
    updated_at = UTCDateTimeAttribute(null=True)
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    all_brands = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    by_account = _Gsi2()

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.PROFILE

    @classmethod
    def new(cls, brand_id: int, account_id: str, **fields: Any) -> Brand:
        """A brand with its key and index keys (every brand; an account's brands)."""
        return cls(
            *cls.key(brand_id),
            brand_id=brand_id,
            account_id=account_id,
            gsi1pk=keys.ALL_BRANDS,
            gsi1sk=keys.brand_list_sk(brand_id),
            gsi2pk=keys.account_pk(account_id),
            gsi2sk=keys.brand_list_sk(brand_id),
            **fields,
        )

    @classmethod
    def find_many(cls, brand_ids: Iterable[int]) -> list[Brand]:
        """The brands among `brand_ids` that exist (BatchGetItem, 100 keys a call)."""
        return list(cls.batch_get([cls.key(i) for i in dict.fromkeys(brand_ids)]))

    @classmethod
    def of_account(cls, account_id: str) -> list[Brand]:
        return list(cls.by_account.query(keys.account_pk(account_id)))

    @classmethod
    def every(cls, first: int | None = None, last: int | None = None) -> Iterator[Brand]:
        """Every brand (match candidates), or those with an id in first..last."""
        if first is None or last is None:
            return cls.all_brands.query(keys.ALL_BRANDS)
        return cls.all_brands.query(
            keys.ALL_BRANDS, cls.gsi1sk.between(keys.brand_list_sk(first), keys.brand_list_sk(last))
        )


@_register
class MatchRun(TandemModel):
    run_id = UnicodeAttribute()
    brand_id = NumberAttribute()
    status = UnicodeAttribute()  # queued | running | done | failed
    message = UnicodeAttribute(default="")
    trigger = UnicodeAttribute(default="on-demand")
    candidates = NumberAttribute(default=0)
    batches = NumberAttribute(default=0)
    matches = NumberAttribute(default=0)
    started_at = UTCDateTimeAttribute()
    finished_at = UTCDateTimeAttribute(null=True)
    gsi2pk = UnicodeAttribute(null=True)
    gsi2sk = UnicodeAttribute(null=True)
    by_status = _Gsi2()
    ttl = NumberAttribute(null=True)

    @classmethod
    def key(cls, brand_id: int, run_id: str) -> Key:
        return keys.brand_pk(brand_id), keys.match_run_sk(run_id)

    @classmethod
    def of_brand(cls, brand_id: int, filter_condition: Any = None) -> Iterator[MatchRun]:
        return cls.query(
            keys.brand_pk(brand_id),
            cls.sk.startswith(keys.MATCH_RUN_PREFIX),
            filter_condition=filter_condition,
        )

    @classmethod
    def status_key(cls, status: str) -> str:
        """gsi2pk of runs in `status` (the scheduler's sweep of runs still open)."""
        return keys.match_run_status_gsi(status)

    @classmethod
    def with_status(cls, status: str, started_before: str) -> Iterator[MatchRun]:
        return cls.by_status.query(keys.match_run_status_gsi(status), cls.gsi2sk < started_before)


@_register
class Match(TandemModel):
    brand_id = NumberAttribute()
    candidate_id = NumberAttribute()
    score = NumberAttribute()
    reasons = ListAttribute(of=UnicodeAttribute, default=list)
    run_id = UnicodeAttribute()
    seen = BooleanAttribute(default=False)  # no longer written: BrandSeen.new_matches says what is new
    created_at = UTCDateTimeAttribute()
    rank = NumberAttribute(null=True)  # place in the diversified list (1 first): list matches by it

    @classmethod
    def key(cls, brand_id: int, candidate_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.match_sk(candidate_id)

    @classmethod
    def of_brand(cls, brand_id: int) -> dict[int, Match]:
        """The brand's matches by candidate id (one query)."""
        return {
            int(m.candidate_id): m
            for m in cls.query(keys.brand_pk(brand_id), cls.sk.startswith(keys.MATCH_PREFIX))
        }


@_register
class MatchIndexShard(TandemModel):
    """Packed match profiles of brands `n * size` .. `(n + 1) * size - 1` (pk=MATCHINDEX,
    sk=SHARD#n): fixed-width records (tandem.domain.matching.RECORD_FORMAT), slot = id % size.
    `version` guards read-modify-write refreshes (conditional put)."""

    records = BinaryAttribute(legacy_encoding=False)
    version = NumberAttribute(default=0)
    vocab = NumberAttribute(default=0)  # matching.VOCAB_VERSION the records were packed with
    slots = NumberAttribute(default=0)  # shard size when written
    updated_at = NumberAttribute(default=0)

    @classmethod
    def key(cls, shard: int) -> Key:
        return keys.MATCH_INDEX, keys.match_index_shard_sk(shard)

    @property
    def shard(self) -> int:
        return keys.shard_of_sk(self.sk)


@_register
class BrandRelation(TandemModel):
    """What brand `brand_id` has to do with brand `other_id` (one item per direction).

    Matches keep `saved` / `dismissed`; connection requests keep `request_state` and the
    request's id. The matcher reads one brand's relations in one query to exclude them.
    """

    brand_id = NumberAttribute()
    other_id = NumberAttribute()
    saved = BooleanAttribute(default=False)
    dismissed = BooleanAttribute(default=False)
    # "" | requested-out | requested-in | connected | declined-out | declined-in | cancelled
    request_state = UnicodeAttribute(default="")
    request_id = UnicodeAttribute(default="")
    updated_at = NumberAttribute(default=0)
    connected_at = NumberAttribute(null=True)  # epoch ms the request between them was accepted
    # On the sender's item: when it may send the other brand a new request after its last one
    # was cancelled or declined (tandem.domain.requests.resend_at); absent: no wait.
    resend_at = NumberAttribute(null=True)

    @classmethod
    def key(cls, brand_id: int, other_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.relation_sk(other_id)

    @classmethod
    def of_brand(cls, brand_id: int) -> dict[int, BrandRelation]:
        """Every relation of `brand_id`, keyed by the other brand's id (one query)."""
        return {
            int(r.other_id): r
            for r in cls.query(keys.brand_pk(brand_id), cls.sk.startswith(keys.RELATION_PREFIX))
        }

    @classmethod
    def set_flags(cls, brand_id: int, other_id: int, **flags: bool) -> None:
        """Set `saved` and/or `dismissed` (an upsert: the item is created when missing)."""
        actions = [cls.brand_id.set(brand_id), cls.other_id.set(other_id)]
        actions += [getattr(cls, name).set(bool(value)) for name, value in flags.items()]
        actions.append(cls.updated_at.set(int(time.time())))
        cls.at(brand_id, other_id).update(actions=actions)

    @classmethod
    def request_state_actions(cls, brand_id: int, other_id: int, state: str, request_id: str) -> list:
        """Update actions recording a request state (tandem.domain.relations), for a transaction."""
        if state not in relation_states.STATES:
            raise ValueError(f"unknown request state {state!r}")
        return [
            cls.brand_id.set(brand_id),
            cls.other_id.set(other_id),
            cls.request_state.set(state),
            cls.request_id.set(request_id),
            cls.updated_at.set(int(time.time())),
        ]


@_register
class StripeEvent(TandemModel):
    """One Stripe event: received (recorded) -> started (its execution began) -> done, or
    failed. A redelivery is ignored only while started or once done; received or failed is
    started again (tandem.services.stripe_events)."""

    event_id = UnicodeAttribute()
    event_type = UnicodeAttribute()
    object_id = UnicodeAttribute(default="")
    customer_id = UnicodeAttribute(null=True)
    status = UnicodeAttribute(default="received")  # received | started | done | failed | unusable
    message = UnicodeAttribute(default="")
    attempts = NumberAttribute(default=0)  # executions started for it (names <event>-<n>)
    failed_attempt = NumberAttribute(null=True)  # the attempt whose processing failed last
    received_at = UTCDateTimeAttribute()
    done_at = UTCDateTimeAttribute(null=True)
    gsi1pk = UnicodeAttribute(null=True)  # STRIPE_DONE#<customer> once done
    gsi1sk = UnicodeAttribute(null=True)
    done_of_customer = _Gsi1()
    gsi2pk = UnicodeAttribute(null=True)  # STRIPE_PENDING#<customer> until done
    gsi2sk = UnicodeAttribute(null=True)
    pending_of_customer = _Gsi2()

    @classmethod
    def key(cls, event_id: str) -> Key:
        return keys.stripe_event_pk(event_id), keys.META

    @classmethod
    def new(
        cls, event_id: str, event_type: str, object_id: str, customer_id: str | None, at: Any
    ) -> StripeEvent:
        item = cls(
            *cls.key(event_id),
            event_id=event_id,
            event_type=event_type,
            object_id=object_id,
            customer_id=customer_id,
            received_at=at,
        )
        if customer_id:
            item.gsi2pk = keys.stripe_pending_gsi(customer_id)
            item.gsi2sk = at.isoformat()
        return item

    @classmethod
    def done_actions(cls, customer_id: str | None, at: Any) -> list:
        """Mark done: out of the customer's in-progress list, into its processed list."""
        actions = [cls.status.set("done"), cls.done_at.set(at), cls.gsi2pk.remove(), cls.gsi2sk.remove()]
        if customer_id:
            actions += [cls.gsi1pk.set(keys.stripe_done_gsi(customer_id)), cls.gsi1sk.set(at.isoformat())]
        return actions

    @classmethod
    def pending_count(cls, customer_id: str) -> int:
        return cls.pending_of_customer.count(keys.stripe_pending_gsi(customer_id))

    @classmethod
    def recent_done(cls, customer_id: str, limit: int = 5) -> list[StripeEvent]:
        return list(
            cls.done_of_customer.query(
                keys.stripe_done_gsi(customer_id), scan_index_forward=False, limit=limit
            )
        )


@_register
class CreditBucket(TandemModel):
    """Credits granted together (a subscription month, an add-on, a gift), spendable from
    valid_from until valid_to (epoch seconds)."""

    bucket_id = UnicodeAttribute()
    account_id = UnicodeAttribute()
    kind = UnicodeAttribute()  # main | add-on-one-time | recurring | gifted
    product_name = UnicodeAttribute(default="")
    total = NumberAttribute()
    available = NumberAttribute()
    valid_from = NumberAttribute()
    valid_to = NumberAttribute()
    gsi1pk = UnicodeAttribute(null=True)  # BUCKETS: the scheduler's ledger check finds accounts
    gsi1sk = UnicodeAttribute(null=True)
    live = _Gsi1()

    @classmethod
    def key(cls, account_id: str, bucket_id: str) -> Key:
        return keys.account_pk(account_id), keys.bucket_sk(bucket_id)

    @classmethod
    def new(cls, account_id: str, bucket_id: str, valid_to: int, **fields: Any) -> CreditBucket:
        """A bucket with its key and its entry in the live-buckets index (ledger checks)."""
        return cls(
            *cls.key(account_id, bucket_id),
            bucket_id=bucket_id,
            account_id=account_id,
            valid_to=valid_to,
            gsi1pk=keys.LIVE_BUCKETS,
            gsi1sk=keys.bucket_gsi_sk(valid_to, account_id, bucket_id),
            **fields,
        )

    @classmethod
    def of_account(cls, account_id: str, consistent: bool = True) -> Iterator[CreditBucket]:
        return cls.query(
            keys.account_pk(account_id), cls.sk.startswith(keys.BUCKET_PREFIX), consistent_read=consistent
        )

    @classmethod
    def live_since(cls, valid_to_from: int) -> Iterator[CreditBucket]:
        """Buckets valid until `valid_to_from` or later, of every account."""
        return cls.live.query(keys.LIVE_BUCKETS, cls.gsi1sk >= keys.bucket_gsi_sk(valid_to_from, "", ""))


@_register
class CreditHold(TandemModel):
    """One credit held for a connection request until it is accepted (spent) or returned."""

    hold_id = UnicodeAttribute()
    bucket_id = UnicodeAttribute()
    status = UnicodeAttribute()  # held | released | spent
    release_until = NumberAttribute()  # the bucket's month end: after it a hold is spent
    created_at = NumberAttribute()
    account_id = UnicodeAttribute(null=True)
    gsi2pk = UnicodeAttribute(null=True)  # HOLDS#held while held (sparse): month-end settle
    gsi2sk = UnicodeAttribute(null=True)
    held = _Gsi2()

    @classmethod
    def key(cls, account_id: str, ref: str) -> Key:
        return keys.account_pk(account_id), keys.hold_sk(ref)

    @classmethod
    def new(cls, account_id: str, ref: str, release_until: int, **fields: Any) -> CreditHold:
        """A held credit, listed in the held-holds index until it is released or spent."""
        return cls(
            *cls.key(account_id, ref),
            hold_id=ref,
            account_id=account_id,
            release_until=release_until,
            gsi2pk=keys.HELD_HOLDS,
            gsi2sk=keys.held_hold_gsi_sk(release_until, account_id, ref),
            **fields,
        )

    @classmethod
    def held_until_before(cls, now: int) -> Iterator[CreditHold]:
        """Holds still held whose month ended before `now` (the month-end settle)."""
        return cls.held.query(keys.HELD_HOLDS, cls.gsi2sk < keys.held_hold_gsi_sk(now, "", ""))


@_register
class LedgerEntry(TandemModel):
    """Immutable record of one credit operation; the op id makes every operation apply once."""

    op_id = UnicodeAttribute()
    op = UnicodeAttribute()  # grant | hold | release | spend | settle | revoke
    bucket_id = UnicodeAttribute()
    delta = NumberAttribute()
    ref = UnicodeAttribute(default="")
    created_at = NumberAttribute()

    @classmethod
    def key(cls, account_id: str, op_id: str, bucket_id: str) -> Key:
        return keys.account_pk(account_id), keys.ledger_sk(op_id, bucket_id)

    @classmethod
    def count_of_op(cls, account_id: str, op_id: str) -> int:
        """Entries of one operation (0: it never applied)."""
        return cls.count(
            keys.account_pk(account_id), cls.sk.startswith(keys.ledger_op_prefix(op_id)), consistent_read=True
        )

    @classmethod
    def of_account(cls, account_id: str) -> Iterator[LedgerEntry]:
        return cls.query(keys.account_pk(account_id), cls.sk.startswith(keys.LEDGER_PREFIX))


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
    def new(cls, report_id: str, created_at: Any, **fields: Any) -> IssueReport:
        """A report, listed newest first in the issues index."""
        return cls(
            *cls.key(report_id),
            report_id=report_id,
            created_at=created_at,
            gsi1pk=keys.ALL_ISSUES,
            gsi1sk=created_at.isoformat(),
            **fields,
        )


class BrandSummaryMap(MapAttribute):
    """A brand as a request shows it (kept as it was when the request was sent)."""

    id = NumberAttribute()
    name = UnicodeAttribute()
    category = UnicodeAttribute(default="")
    logo_url = UnicodeAttribute(null=True)
    hide_name = BooleanAttribute(default=False)


@_register
class ConnectionRequest(TandemModel):
    """A connection request from one brand to another (pk=REQUEST#<id>, sk=META).

    gsi1 is the recipient's boxes and gsi2 the sender's (keys.box_sk): each list is one query.
    """

    request_id = UnicodeAttribute()
    from_brand_id = NumberAttribute()
    to_brand_id = NumberAttribute()
    from_account_id = UnicodeAttribute()
    to_account_id = UnicodeAttribute()
    from_brand = BrandSummaryMap()
    to_brand = BrandSummaryMap()
    message = UnicodeAttribute()
    reply = UnicodeAttribute(null=True)
    from_contact = MapAttribute(null=True)  # each side's contact details, kept on accept
    to_contact = MapAttribute(null=True)
    # awaiting_approval | pending | accepted | declined | cancelled
    status = UnicodeAttribute()
    hold_bucket_id = UnicodeAttribute(null=True)
    hold_release_until = NumberAttribute(null=True)
    pitch = MapAttribute(null=True)  # a pitch to a Pitch Area feature: {feature_id, title}
    created_at = NumberAttribute()  # epoch milliseconds
    updated_at = NumberAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    received = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    sent = _Gsi2()

    @classmethod
    def key(cls, request_id: str) -> Key:
        return keys.request_pk(request_id), keys.META

    @classmethod
    def new(
        cls,
        request_id: str,
        *,
        from_brand: BrandSummaryMap,
        to_brand: BrandSummaryMap,
        status: str,
        at_ms: int,
        **fields: Any,
    ) -> ConnectionRequest:
        """A request sent at `at_ms`, in its boxes on both sides (store/boxes.py)."""
        from_id, to_id = int(from_brand.id), int(to_brand.id)
        return cls(
            *cls.key(request_id),
            request_id=request_id,
            from_brand_id=from_id,
            to_brand_id=to_id,
            from_brand=from_brand,
            to_brand=to_brand,
            status=status,
            created_at=at_ms,
            updated_at=at_ms,
            gsi1pk=keys.requests_in_gsi(to_id),
            gsi1sk=keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, request_id),
            gsi2pk=keys.requests_out_gsi(from_id),
            gsi2sk=keys.box_sk(request_rules.SENT_BOX[status], at_ms, request_id),
            **fields,
        )

    def move_actions(self, status: str, at_ms: int) -> list:
        """Update actions moving the request to `status` at `at_ms` (both sides' boxes)."""
        cls = type(self)
        return [
            cls.status.set(status),
            cls.updated_at.set(at_ms),
            cls.gsi1sk.set(keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)),
            cls.gsi2sk.set(keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)),
        ]

    def moved(self, status: str, at_ms: int) -> None:
        """This object as the item reads after `move_actions` applied (no need to read it again)."""
        self.status, self.updated_at = status, at_ms
        self.gsi1sk = keys.box_sk(request_rules.RECEIVED_BOX[status], at_ms, self.request_id)
        self.gsi2sk = keys.box_sk(request_rules.SENT_BOX[status], at_ms, self.request_id)


@_register
class BrandSeen(TandemModel):
    """What is new for a brand (pk=BRAND#<id>, sk=SEEN): the dashboard's menu counts and the
    lists' isNew flags, read with the brand's other items (store/news.py). Each set holds the
    ids of the items not yet seen; the writes that make an item new add its id in the same
    transaction, and a list's first page removes the ids it showed (one UpdateItem)."""

    new_requests = UnicodeSetAttribute(null=True)  # pending requests it received
    new_connections = UnicodeSetAttribute(null=True)  # its requests the other brand accepted
    new_declines = UnicodeSetAttribute(null=True)  # its requests the other brand declined
    new_matches = UnicodeSetAttribute(null=True)  # candidate ids of matches not listed yet
    open_runs = UnicodeSetAttribute(null=True)  # "<started epoch s>:<run id>" of queued/running runs

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.SEEN
