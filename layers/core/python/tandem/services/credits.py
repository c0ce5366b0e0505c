"""The credit ledger on DynamoDB.

Every grant, hold, release, settle and spend is ONE transaction: the bucket changes under a
condition (never below zero, only while valid), the hold changes under a condition on its
status, and an immutable ledger entry is put under `attribute_not_exists`, keyed by the
operation id, so the same operation can never apply twice. The sum of a bucket's ledger
deltas always equals its `available`; `verify` proves it (the scheduler runs it).
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict

from pynamodb.connection import Connection
from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

from tandem.config import settings
from tandem.domain import credits as rules
from tandem.errors import Conflict, NotFound, PaymentRequired
from tandem.store import keys
from tandem.store.models import CreditBucket, CreditHold, LedgerEntry

ATTEMPTS = 4  # a lost race on a bucket re-reads the buckets and tries again
SETTLED = "This request's credit was already settled."


def _tx() -> TransactWrite:
    current = settings()
    return TransactWrite(connection=Connection(region=current.region, host=current.endpoint_url))


def _entry(
    account_id: str, op_id: str, op: str, bucket_id: str, delta: int, ref: str, now: int
) -> LedgerEntry:
    return LedgerEntry(
        keys.account_pk(account_id),
        keys.ledger_sk(op_id, bucket_id),
        op_id=op_id,
        op=op,
        bucket_id=bucket_id,
        delta=delta,
        ref=ref,
        created_at=now,
    )


def _new_entry_condition():  # noqa: ANN202
    return LedgerEntry.sk.does_not_exist()


def buckets(account_id: str) -> list[rules.Bucket]:
    return [
        rules.Bucket(
            bucket_id=b.bucket_id,
            kind=b.kind,
            total=int(b.total),
            available=int(b.available),
            valid_from=int(b.valid_from),
            valid_to=int(b.valid_to),
            product_name=b.product_name,
        )
        for b in CreditBucket.query(
            keys.account_pk(account_id), CreditBucket.sk.startswith("BUCKET#"), consistent_read=True
        )
    ]


def grant(
    account_id: str,
    *,
    kind: str,
    amount: int,
    valid_from: int,
    valid_to: int,
    op_id: str,
    product_name: str = "",
) -> str:
    """Add a bucket of credits. Idempotent on op_id (e.g. the subscription id + month)."""
    if kind not in rules.KINDS or amount < 1 or valid_to <= valid_from:
        raise ValueError("invalid grant")
    bucket_id = hashlib.sha256(op_id.encode()).hexdigest()[:20]
    now = int(time.time())
    bucket = CreditBucket(
        keys.account_pk(account_id),
        keys.bucket_sk(bucket_id),
        bucket_id=bucket_id,
        account_id=account_id,
        kind=kind,
        product_name=product_name,
        total=amount,
        available=amount,
        valid_from=valid_from,
        valid_to=valid_to,
    )
    try:
        with _tx() as tx:
            tx.save(bucket, condition=CreditBucket.sk.does_not_exist())
            tx.save(
                _entry(account_id, op_id, "grant", bucket_id, amount, op_id, now),
                condition=_new_entry_condition(),
            )
    except TransactWriteError:
        pass  # already granted: the same op id never applies twice
    return bucket_id


def hold(account_id: str, ref: str, now: int | None = None) -> str:
    """Hold one credit for a request (`ref`); returns the hold id. 402 when none is left."""
    now = int(now if now is not None else time.time())
    op_id = f"hold:{ref}"
    for _ in range(ATTEMPTS):
        plan = rules.pick(buckets(account_id), rules.REQUEST_HOLD, now)
        if not plan:
            raise PaymentRequired(rules.OUT_OF_CREDITS)
        ((bucket, amount),) = plan
        held = CreditHold(
            keys.account_pk(account_id),
            keys.hold_sk(ref),
            hold_id=ref,
            bucket_id=bucket.bucket_id,
            status="held",
            release_until=bucket.valid_to,
            created_at=now,
        )
        try:
            with _tx() as tx:
                tx.update(
                    CreditBucket(keys.account_pk(account_id), keys.bucket_sk(bucket.bucket_id)),
                    actions=[CreditBucket.available.add(-amount)],
                    condition=(CreditBucket.available >= amount) & (CreditBucket.valid_to > now),
                )
                tx.save(held, condition=CreditHold.sk.does_not_exist())
                tx.save(
                    _entry(account_id, op_id, "hold", bucket.bucket_id, -amount, ref, now),
                    condition=_new_entry_condition(),
                )
            return ref
        except TransactWriteError:
            if _get_hold(account_id, ref) is not None:
                raise Conflict("A credit is already held for this request.") from None
            continue  # another request took that credit first: look again
    raise PaymentRequired(rules.OUT_OF_CREDITS)


def _get_hold(account_id: str, ref: str) -> CreditHold | None:
    try:
        return CreditHold.get(keys.account_pk(account_id), keys.hold_sk(ref), consistent_read=True)
    except CreditHold.DoesNotExist:
        return None


def release(account_id: str, ref: str, now: int | None = None) -> str:
    """Return a held credit (decline / cancel). After the bucket's month it is spent instead.
    Returns the hold's final status: 'released' or 'spent'."""
    now = int(now if now is not None else time.time())
    held = _get_hold(account_id, ref)
    if held is None:
        raise NotFound("No credit is held for this request.")
    if held.status != "held":
        raise Conflict(SETTLED)
    if now >= held.release_until:
        settle(account_id, ref, now)
        return "spent"
    try:
        with _tx() as tx:
            tx.update(
                held,
                actions=[CreditHold.status.set("released")],
                condition=CreditHold.status == "held",
            )
            tx.update(
                CreditBucket(keys.account_pk(account_id), keys.bucket_sk(held.bucket_id)),
                actions=[CreditBucket.available.add(1)],
                condition=CreditBucket.sk.exists(),
            )
            tx.save(
                _entry(account_id, f"release:{ref}", "release", held.bucket_id, 1, ref, now),
                condition=_new_entry_condition(),
            )
    except TransactWriteError:
        raise Conflict(SETTLED) from None
    return "released"


def settle(account_id: str, ref: str, now: int | None = None) -> None:
    """A held credit becomes spent (request accepted, or its month is over)."""
    now = int(now if now is not None else time.time())
    held = _get_hold(account_id, ref)
    if held is None:
        raise NotFound("No credit is held for this request.")
    try:
        with _tx() as tx:
            tx.update(held, actions=[CreditHold.status.set("spent")], condition=CreditHold.status == "held")
            tx.save(
                _entry(account_id, f"settle:{ref}", "settle", held.bucket_id, 0, ref, now),
                condition=_new_entry_condition(),
            )
    except TransactWriteError:
        raise Conflict(SETTLED) from None


def spend(account_id: str, amount: int, ref: str, now: int | None = None) -> None:
    """Spend credits outright (pitch 1, feature 3), soonest-expiring buckets first."""
    now = int(now if now is not None else time.time())
    op_id = f"spend:{ref}"
    for _ in range(ATTEMPTS):
        plan = rules.pick(buckets(account_id), amount, now)
        if plan is None:
            if _applied(account_id, op_id):
                raise Conflict("These credits were already spent.")
            raise PaymentRequired(rules.OUT_OF_CREDITS)
        try:
            with _tx() as tx:
                for bucket, take in plan:
                    tx.update(
                        CreditBucket(keys.account_pk(account_id), keys.bucket_sk(bucket.bucket_id)),
                        actions=[CreditBucket.available.add(-take)],
                        condition=(CreditBucket.available >= take) & (CreditBucket.valid_to > now),
                    )
                    tx.save(
                        _entry(account_id, op_id, "spend", bucket.bucket_id, -take, ref, now),
                        condition=_new_entry_condition(),
                    )
            return
        except TransactWriteError:
            if _applied(account_id, op_id):
                raise Conflict("These credits were already spent.") from None
            continue
    raise PaymentRequired(rules.OUT_OF_CREDITS)


def _applied(account_id: str, op_id: str) -> bool:
    prefix = LedgerEntry.sk.startswith(f"LEDGER#{op_id}#")
    return LedgerEntry.count(keys.account_pk(account_id), prefix, consistent_read=True) > 0


def verify(account_id: str) -> dict[str, tuple[int, int]]:
    """Buckets whose `available` differs from the sum of their ledger: {bucket: (available, ledger)}."""
    sums: dict[str, int] = defaultdict(int)
    for entry in LedgerEntry.query(keys.account_pk(account_id), LedgerEntry.sk.startswith("LEDGER#")):
        sums[entry.bucket_id] += int(entry.delta)
    mismatches = {}
    for bucket in buckets(account_id):
        if sums.get(bucket.bucket_id, 0) != bucket.available:
            mismatches[bucket.bucket_id] = (bucket.available, sums.get(bucket.bucket_id, 0))
    return mismatches


def info(account_id: str, now: int | None = None) -> dict:
    return rules.summary(buckets(account_id), int(now if now is not None else time.time()))
