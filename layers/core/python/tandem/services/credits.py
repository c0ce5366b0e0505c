"""The credit ledger on DynamoDB.

Every grant, hold, release, settle and spend is ONE transaction: the bucket changes under a
condition (never below zero, only while valid), the hold changes under a condition on its
status, and an immutable ledger entry is put under `attribute_not_exists`, keyed by the
operation id, so the same operation can never apply twice. The sum of a bucket's ledger
deltas always equals its `available`; `verify` proves it (the scheduler runs it).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable

from tandem.domain import credits as rules
from tandem.errors import Conflict, NotFound, PaymentRequired
from tandem.observability import count_event, logger
from tandem.store.connection import Transaction, transaction
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, CreditBucket, CreditHold, LedgerEntry

ATTEMPTS = 4  # a lost race on a bucket re-reads the buckets and tries again
SETTLED = "This request's credit was already settled."


def _entry(
    account_id: str, op_id: str, op: str, bucket_id: str, delta: int, ref: str, now: int
) -> LedgerEntry:
    return LedgerEntry(
        *LedgerEntry.key(account_id, op_id, bucket_id),
        op_id=op_id,
        op=op,
        bucket_id=bucket_id,
        delta=delta,
        ref=ref,
        created_at=now,
    )


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
        for b in CreditBucket.of_account(account_id)
    ]


def granted(held: Iterable[rules.Bucket], grant_op_ids: Iterable[str]) -> set[str]:
    """Which of these grants (by op id) made a bucket among `held` (the account's buckets):
    the billing sync's "granted already", named as `grant` names a grant's bucket."""
    have = {b.bucket_id for b in held}
    return {op_id for op_id in grant_op_ids if CreditBucket.id_of_grant(op_id) in have}


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
    bucket_id = CreditBucket.id_of_grant(op_id)
    now = int(time.time())
    bucket = CreditBucket.new(
        account_id,
        bucket_id,
        valid_to,
        kind=kind,
        product_name=product_name,
        total=amount,
        available=amount,
        valid_from=valid_from,
    )
    try:
        with transaction() as tx:
            tx.save(bucket, condition=CreditBucket.sk.does_not_exist())
            tx.save(
                _entry(account_id, op_id, "grant", bucket_id, amount, op_id, now),
                condition=LedgerEntry.unwritten(),
            )
            tx.update(
                Account.at(account_id),
                actions=[Account.credit_windows.set((Account.credit_windows | []).append([window(bucket)]))],
                condition=Account.pk.exists(),
            )
        count_event("CreditsGranted", amount)
    except ConditionFailed as exc:
        if Account.key(account_id) in exc.failed_keys:
            raise ValueError(f"no account {account_id} to grant credits to") from None
        # already granted: the same op id never applies twice
    return bucket_id


def window(bucket: CreditBucket) -> list:
    """What the account keeps of a grant (Account.credit_windows): its kind and when it is valid."""
    return [bucket.kind, int(bucket.valid_from), int(bucket.valid_to)]


def windows_of(account_id: str) -> list[list]:
    """Every grant's window, from the account's buckets (the backfill of Account.credit_windows)."""
    return [window(b) for b in CreditBucket.of_account(account_id)]


def revoke(account_id: str, grant_op_id: str, reason: str = "") -> int:
    """Take back the unspent credits of a grant (its payment was refunded in full, or a plan
    was refused, or a granted plan ended): the bucket's `available` goes to 0 with one ledger
    entry `revoke:<grant>`, and the bucket is marked revoked so that a credit held from it and
    released later (a cancel, a decline) comes back to nobody (add_release). Idempotent on the
    grant; credits already held or spent stay spent. Returns how many were taken back (0 when
    none were left or it was revoked already)."""
    bucket_id = CreditBucket.id_of_grant(grant_op_id)
    op_id = f"revoke:{grant_op_id}"
    now = int(time.time())
    for _ in range(ATTEMPTS):
        held = CreditBucket.find(account_id, bucket_id, consistent=True)
        if held is None or _applied(account_id, op_id):
            return 0
        left = int(held.available)
        try:
            with transaction() as tx:
                # one conditional write: a release racing it either lands first (and is taken
                # back here on the next look) or finds the bucket revoked
                tx.update(
                    CreditBucket.at(account_id, bucket_id),
                    actions=[CreditBucket.available.add(-left), CreditBucket.revoked_at.set(now)],
                    condition=CreditBucket.available == left,
                )
                tx.save(
                    _entry(account_id, op_id, "revoke", bucket_id, -left, reason or grant_op_id, now),
                    condition=LedgerEntry.unwritten(),
                )
            return left
        except ConditionFailed:
            continue  # a hold took a credit meanwhile, or another revoke won: look again
    raise Conflict("The credits could not be taken back; try again.")


def pick_for_hold(account_id: str, now: int) -> rules.Bucket:
    """The bucket a new hold takes its credit from (soonest-expiring); 402 when none is left."""
    plan = rules.pick(buckets(account_id), rules.REQUEST_HOLD, now)
    if not plan:
        raise PaymentRequired(rules.OUT_OF_CREDITS)
    ((bucket, _),) = plan
    return bucket


def add_hold(tx: Transaction, account_id: str, ref: str, bucket: rules.Bucket, now: int) -> None:
    """The writes of holding one credit for `ref`, added to a caller's transaction: the bucket
    loses it (only while valid and not below zero), the hold is created once, the entry once."""
    amount = rules.REQUEST_HOLD
    tx.update(
        CreditBucket.at(account_id, bucket.bucket_id),
        actions=[CreditBucket.available.add(-amount)],
        condition=(CreditBucket.available >= amount) & (CreditBucket.valid_to > now),
    )
    tx.save(
        CreditHold.new(
            account_id, ref, bucket.valid_to, bucket_id=bucket.bucket_id, status="held", created_at=now
        ),
        condition=CreditHold.sk.does_not_exist(),
    )
    tx.save(
        _entry(account_id, f"hold:{ref}", "hold", bucket.bucket_id, -amount, ref, now),
        condition=LedgerEntry.unwritten(),
    )


def _finish_hold(tx: Transaction, account_id: str, ref: str, status: str) -> None:
    tx.update(
        CreditHold.at(account_id, ref),
        actions=[CreditHold.status.set(status), CreditHold.gsi2pk.remove(), CreditHold.gsi2sk.remove()],
        condition=CreditHold.status == "held",
    )


def add_settle(tx: Transaction, account_id: str, ref: str, bucket_id: str, now: int) -> None:
    """The writes of a held credit becoming spent, added to a caller's transaction."""
    _finish_hold(tx, account_id, ref, "spent")
    tx.save(
        _entry(account_id, f"settle:{ref}", "settle", bucket_id, 0, ref, now),
        condition=LedgerEntry.unwritten(),
    )


def add_release(tx: Transaction, account_id: str, ref: str, bucket_id: str, now: int) -> str:
    """The writes of a held credit going back to its bucket, added to a caller's transaction.
    A bucket that was revoked meanwhile (refund, ended grant, refused plan) gets nothing back:
    the hold ends `revoked` and its ledger entry `release:<ref>` is a 0 marked 'revoked'.
    Either way the bucket's state is a condition of the transaction, so a revoke between this
    read and the commit fails it (the caller looks again). Returns the hold's status."""
    bucket = CreditBucket.find(account_id, bucket_id, consistent=True)
    if bucket is not None and bucket.revoked_at is not None:
        _finish_hold(tx, account_id, ref, "revoked")
        tx.condition_check(
            CreditBucket, *CreditBucket.key(account_id, bucket_id), condition=CreditBucket.revoked_at.exists()
        )
        tx.save(
            _entry(account_id, f"release:{ref}", "revoked", bucket_id, 0, ref, now),
            condition=LedgerEntry.unwritten(),
        )
        return "revoked"
    _finish_hold(tx, account_id, ref, "released")
    tx.update(
        CreditBucket.at(account_id, bucket_id),
        actions=[CreditBucket.available.add(1)],
        condition=CreditBucket.sk.exists() & CreditBucket.revoked_at.does_not_exist(),
    )
    tx.save(
        _entry(account_id, f"release:{ref}", "release", bucket_id, 1, ref, now),
        condition=LedgerEntry.unwritten(),
    )
    return "released"


def finish_for(now: int, release_until: int) -> str:
    """What ending a request does to its hold: 'release' within the month, else 'settle'."""
    return "release" if now < release_until else "settle"


def hold(account_id: str, ref: str, now: int | None = None) -> str:
    """Hold one credit for a request (`ref`); returns the hold id. 402 when none is left."""
    now = int(now if now is not None else time.time())
    for _ in range(ATTEMPTS):
        bucket = pick_for_hold(account_id, now)
        try:
            with transaction() as tx:
                add_hold(tx, account_id, ref, bucket, now)
            return ref
        except ConditionFailed:
            if _get_hold(account_id, ref) is not None:
                raise Conflict("A credit is already held for this request.") from None
            continue  # another request took that credit first: look again
    raise PaymentRequired(rules.OUT_OF_CREDITS)


def _get_hold(account_id: str, ref: str) -> CreditHold | None:
    return CreditHold.find(account_id, ref, consistent=True)


def release(account_id: str, ref: str, now: int | None = None) -> str:
    """Return a held credit (decline / cancel). After the bucket's month it is spent instead,
    and a revoked bucket gets nothing back. Returns the hold's final status: 'released',
    'spent' or 'revoked'."""
    now = int(now if now is not None else time.time())
    for _ in range(ATTEMPTS):
        held = _get_hold(account_id, ref)
        if held is None:
            raise NotFound("No credit is held for this request.")
        if held.status != "held":
            raise Conflict(SETTLED)
        if now >= held.release_until:
            settle(account_id, ref, now)
            return "spent"
        try:
            with transaction() as tx:
                status = add_release(tx, account_id, ref, held.bucket_id, now)
        except ConditionFailed:
            continue  # settled or released meanwhile (refused next look), or its bucket revoked
        return status
    raise Conflict("This request is busy. Please try again.")


def settle(account_id: str, ref: str, now: int | None = None) -> None:
    """A held credit becomes spent (request accepted, or its month is over)."""
    now = int(now if now is not None else time.time())
    held = _get_hold(account_id, ref)
    if held is None:
        raise NotFound("No credit is held for this request.")
    try:
        with transaction() as tx:
            add_settle(tx, account_id, ref, held.bucket_id, now)
    except ConditionFailed:
        raise Conflict(SETTLED) from None


def spend_plan(account_id: str, amount: int, now: int) -> list[tuple[rules.Bucket, int]]:
    """Which buckets pay `amount` now (soonest-expiring first); 402 when there is not enough."""
    plan = rules.pick(buckets(account_id), amount, now)
    if plan is None:
        raise PaymentRequired(rules.OUT_OF_CREDITS)
    return plan


def add_spend(
    tx: Transaction, account_id: str, plan: list[tuple[rules.Bucket, int]], ref: str, now: int
) -> None:
    """The writes of spending credits outright for `ref` (a pitch, a feature) by `plan`, added to
    a caller's transaction: each bucket loses its part (only while valid, never below zero) and
    one ledger entry per bucket is put once (`spend:<ref>`), so the same spend never applies twice."""
    op_id = f"spend:{ref}"
    for bucket, take in plan:
        tx.update(
            CreditBucket.at(account_id, bucket.bucket_id),
            actions=[CreditBucket.available.add(-take)],
            condition=(CreditBucket.available >= take) & (CreditBucket.valid_to > now),
        )
        tx.save(
            _entry(account_id, op_id, "spend", bucket.bucket_id, -take, ref, now),
            condition=LedgerEntry.unwritten(),
        )


def add_refund(tx: Transaction, account_id: str, spent: list[tuple[str, int]], ref: str, now: int) -> None:
    """The writes of giving back what `spend:<ref>` took ([(bucket id, credits)]), once
    (`refund:<ref>`), to a caller's transaction: e.g. a refused feature's 3 credits. A bucket
    revoked meanwhile (its payment refunded, its grant ended) gets nothing back: the entry is a
    0 marked 'revoked', under the same condition on the bucket as add_release."""
    op_id = f"refund:{ref}"
    for bucket_id, amount in spent:
        bucket = CreditBucket.find(account_id, bucket_id, consistent=True)
        if bucket is not None and bucket.revoked_at is not None:
            tx.condition_check(
                CreditBucket,
                *CreditBucket.key(account_id, bucket_id),
                condition=CreditBucket.revoked_at.exists(),
            )
            tx.save(
                _entry(account_id, op_id, "revoked", bucket_id, 0, ref, now),
                condition=LedgerEntry.unwritten(),
            )
            continue
        tx.update(
            CreditBucket.at(account_id, bucket_id),
            actions=[CreditBucket.available.add(amount)],
            condition=CreditBucket.sk.exists() & CreditBucket.revoked_at.does_not_exist(),
        )
        tx.save(
            _entry(account_id, op_id, "refund", bucket_id, amount, ref, now),
            condition=LedgerEntry.unwritten(),
        )


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
            with transaction() as tx:
                add_spend(tx, account_id, plan, ref, now)
            return
        except ConditionFailed:
            if _applied(account_id, op_id):
                raise Conflict("These credits were already spent.") from None
            continue
    raise PaymentRequired(rules.OUT_OF_CREDITS)


def _applied(account_id: str, op_id: str) -> bool:
    return LedgerEntry.count_of_op(account_id, op_id) > 0


def verify(account_id: str) -> dict[str, tuple[int, int]]:
    """Buckets whose `available` differs from the sum of their ledger: {bucket: (available, ledger)}."""
    sums: dict[str, int] = defaultdict(int)
    for entry in LedgerEntry.of_account(account_id):
        sums[entry.bucket_id] += int(entry.delta)
    mismatches = {}
    for bucket in buckets(account_id):
        if sums.get(bucket.bucket_id, 0) != bucket.available:
            mismatches[bucket.bucket_id] = (bucket.available, sums.get(bucket.bucket_id, 0))
    return mismatches


# ---------------------------------------------------------------- scheduler jobs

VERIFY_LOOKBACK = 40 * 24 * 3600  # buckets that ended within this window are still checked


def verify_all(now: int | None = None) -> dict:
    """Prove every recently active account's balance equals its ledger (scheduler job)."""
    now = int(now if now is not None else time.time())
    seen: set[str] = set()
    for bucket in CreditBucket.live_since(now - VERIFY_LOOKBACK):
        seen.add(bucket.account_id)
    mismatched = {}
    for account_id in sorted(seen):
        found = verify(account_id)
        if found:
            mismatched[account_id] = {b: list(pair) for b, pair in found.items()}
            logger.error("Credit ledger mismatch", extra={"account": account_id, "buckets": found})
    return {"accounts": len(seen), "mismatched": mismatched}


def settle_expired_holds(now: int | None = None) -> dict:
    """Holds whose month has ended become spent (a later decline or cancel returns nothing)."""
    now = int(now if now is not None else time.time())
    settled = 0
    for held in CreditHold.held_until_before(now):
        try:
            with transaction() as tx:
                add_settle(tx, held.account_id, held.hold_id, held.bucket_id, now)
            settled += 1
        except ConditionFailed:
            continue  # settled or released meanwhile: nothing left to do
    return {"settled": settled}
