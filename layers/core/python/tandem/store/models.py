"""pynamodb models. All entities live in one table; the key builders are in keys.py.

The table itself is created by CloudFormation (template.yaml) in AWS and from the same
template by the local stack and the tests, never by these classes.
"""

from __future__ import annotations

from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)
from pynamodb.connection import Connection
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

from tandem.config import settings


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


class TandemModel(Model):
    """Base for every entity: the table's key schema and connection settings."""

    class Meta:
        table_name = settings().table_name
        region = settings().region
        host = settings().endpoint_url

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)


ALL_MODELS: list[type[TandemModel]] = []


def _register(cls: type[TandemModel]) -> type[TandemModel]:
    ALL_MODELS.append(cls)
    return cls


def bind_models() -> None:
    """Point every model at the current settings' table (after the environment changed)."""
    current = settings()
    for cls in [TandemModel, *ALL_MODELS]:
        cls.Meta.table_name = current.table_name
        cls.Meta.region = current.region
        cls.Meta.host = current.endpoint_url
        cls._connection = None


def transaction() -> TransactWrite:
    """A write transaction (TransactWriteItems) on the current settings' endpoint."""
    current = settings()
    return TransactWrite(connection=Connection(region=current.region, host=current.endpoint_url))


def update_only(model: type[TandemModel], key: tuple[str, str], actions: list, condition: Any = None) -> None:
    """UpdateItem that asks for nothing back (ReturnValues NONE): `Model.update` always reads
    the whole item back (ALL_NEW), which a write that needs no answer should not pay for.
    Raises pynamodb's UpdateError like `Model.update`."""
    model._get_connection().update_item(
        key[0], key[1], actions=actions, condition=condition, return_values="NONE"
    )


@_register
class Counter(TandemModel):
    value = NumberAttribute(default=0)


@_register
class Account(TandemModel):
    account_id = UnicodeAttribute()
    name = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()
    # none | pending_approval | active | trialling | cancelled | gifted | fixed_term
    # (billing sets it from Stripe; tandem.services.subscriptions reads it)
    subscription_status = UnicodeAttribute(default="none")
    subscription_valid_to = NumberAttribute(null=True)  # epoch seconds; cancelled stays valid until then


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
    welcome_emails = BooleanAttribute(default=True)
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


@_register
class OneTimeCode(TandemModel):
    """Single-use, expiring link code (confirm email, reset/create password, instant login).
    Addressed by the code's SHA-256, so the code itself is never stored."""

    purpose = UnicodeAttribute()
    user_id = UnicodeAttribute()
    used = BooleanAttribute(default=False)
    expires_at = NumberAttribute()
    ttl = NumberAttribute()


@_register
class RateCounter(TandemModel):
    """Attempts of one subject in one time bucket (pk=RATE#<scope>#<subject>, sk=<bucket start,
    epoch seconds, zero-padded>); tandem.services.rate_limit sums the buckets of a sliding window."""

    count = NumberAttribute(default=0)
    last = NumberAttribute(null=True)  # epoch seconds of the latest attempt counted here
    ttl = NumberAttribute()

    @staticmethod
    def key(scope: str, subject: str, bucket_start: int) -> tuple[str, str]:
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


@_register
class Match(TandemModel):
    brand_id = NumberAttribute()
    candidate_id = NumberAttribute()
    score = NumberAttribute()
    reasons = ListAttribute(of=UnicodeAttribute, default=list)
    run_id = UnicodeAttribute()
    seen = BooleanAttribute(default=False)
    created_at = UTCDateTimeAttribute()
    rank = NumberAttribute(null=True)  # place in the diversified list (1 first): list matches by it


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
    # On the sender's item: when it may send the other brand a new request after its last one
    # was cancelled or declined (tandem.domain.requests.resend_at); absent: no wait.
    resend_at = NumberAttribute(null=True)


@_register
class StripeEvent(TandemModel):
    event_id = UnicodeAttribute()
    event_type = UnicodeAttribute()
    object_id = UnicodeAttribute(default="")
    status = UnicodeAttribute(default="received")  # received | processed | failed
    message = UnicodeAttribute(default="")
    received_at = UTCDateTimeAttribute()


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


@_register
class LedgerEntry(TandemModel):
    """Immutable record of one credit operation; the op id makes every operation apply once."""

    op_id = UnicodeAttribute()
    op = UnicodeAttribute()  # grant | hold | release | spend | settle
    bucket_id = UnicodeAttribute()
    delta = NumberAttribute()
    ref = UnicodeAttribute(default="")
    created_at = NumberAttribute()


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
    created_at = NumberAttribute()  # epoch milliseconds
    updated_at = NumberAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    received = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    sent = _Gsi2()


@_register
class BrandSeen(TandemModel):
    """Up to when (epoch ms) a brand has seen its received requests, connections and declines."""

    requests = NumberAttribute(default=0)
    connections = NumberAttribute(default=0)
    declines = NumberAttribute(default=0)
