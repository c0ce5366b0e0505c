"""The credit ledger: buckets of credits, holds on them, and the ledger's entries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pynamodb.attributes import (
    NumberAttribute,
    UnicodeAttribute,
)
from pynamodb.expressions.condition import Condition

from tandem.store import keys
from tandem.store.base import Key, TandemModel, _Gsi1, _Gsi2, _register


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
    # set when its grant was taken back (refund, ended grant, refused plan): a hold released
    # later returns nothing to it (credits.add_release)
    revoked_at = NumberAttribute(null=True)
    gsi1pk = UnicodeAttribute(null=True)  # BUCKETS: the scheduler's ledger check finds accounts
    gsi1sk = UnicodeAttribute(null=True)
    live = _Gsi1()

    @classmethod
    def key(cls, account_id: str, bucket_id: str) -> Key:
        return keys.account_pk(account_id), keys.bucket_sk(bucket_id)

    @staticmethod
    def id_of_grant(grant_op_id: str) -> str:
        """The bucket a grant makes, named by the grant's op id (keys.grant_bucket_id): the one
        owner, for credits.grant, a revocation and the billing sync's "granted already"."""
        return keys.grant_bucket_id(grant_op_id)

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
    status = UnicodeAttribute()  # held | released | spent | revoked (released into a revoked bucket)
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
    def unwritten(cls) -> Condition:
        """An entry's put condition: the entry is not there yet (an operation applies once)."""
        return cls.sk.does_not_exist()

    @classmethod
    def count_of_op(cls, account_id: str, op_id: str) -> int:
        """Entries of one operation (0: it never applied)."""
        return cls.count(
            keys.account_pk(account_id), cls.sk.startswith(keys.ledger_op_prefix(op_id)), consistent_read=True
        )

    @classmethod
    def of_account(cls, account_id: str) -> Iterator[LedgerEntry]:
        return cls.query(keys.account_pk(account_id), cls.sk.startswith(keys.LEDGER_PREFIX))
