"""What Tandem grants itself (issue 21): a plan or a free trial an admin grants without a card,
or an imported member's plan. It lives on the account beside Stripe's part
(Account.tandem_grants, read by tandem.domain.entitlements) and no Stripe sync writes it.

A granted plan's credits are made when it is granted: one bucket a month (6 each, or the
trial's 3 for its 14 days), each usable from its month's start (the ledger never counts a
bucket before it begins), so no scheduler is needed and the ledger stays the one balance.
Ending a grant takes back the unspent credits of its months (credits already held or spent
stay so).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from tandem.domain import entitlements as rules
from tandem.domain.billing import add_months
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.services import credits, entitlements
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, User, update_only

MAX_MONTHS = 12
HAS_PLAN = rules.PLAN_IN_FORCE
NO_GRANT = "This member has no plan granted by Tandem."
KIND_CHOICES = "Choose a trial or a plan"
MONTHS_RANGE = f"Months must be a whole number from 1 to {MAX_MONTHS}"
MEMBERSHIP = "Tandem membership"


def _months(grant: rules.Grant) -> list[tuple[str, int, int, int]]:
    """(op id, valid from, valid to, credits) of each month of a grant."""
    if grant.kind == "trial":
        assert grant.until is not None
        return [(f"tandem-trial:{grant.by}:{grant.since}", grant.since, grant.until, rules.TRIAL_CREDITS)]
    months = []
    start, k = grant.since, 0
    end = grant.until
    while end is None or start < end:
        stop = add_months(grant.since, k + 1)
        if end is not None:
            stop = min(stop, end)
        months.append((f"tandem-plan:{grant.note}:{k}", start, stop, grant.credits))
        start, k = stop, k + 1
        if end is None or k >= MAX_MONTHS:
            break
    return months


def grant(
    account_id: str, body: dict[str, Any], by: str, now: int | None = None, *, user: User | None = None
) -> dict[str, Any]:
    """Grant a free trial (14 days, no card) or a plan of 1-12 months to an account that has no
    plan in force; the trial only where entitlements.trial_refusal allows it for the account's
    `user`. Returns the new Tandem part."""
    now = int(now if now is not None else time.time())
    body = body if isinstance(body, dict) else {}
    kind = body.get("kind")
    if kind not in rules.GRANT_KINDS:
        raise ValidationError(KIND_CHOICES)
    account = Account.find(account_id, consistent=True)
    if account is None:
        raise NotFound("Account not found")

    tandem = entitlements.tandem_part(account)
    if entitlements.plan(account, now).in_force:
        raise Conflict(HAS_PLAN)
    if kind == "trial":
        refusal = entitlements.trial_refusal(account, user, now)
        if refusal is not None:
            raise Conflict(refusal)
        new = rules.Grant(kind="trial", since=now, until=now + rules.TRIAL_DAYS * rules.DAY, by=by)
    else:
        months = body.get("months")
        if not isinstance(months, int) or isinstance(months, bool) or not 1 <= months <= MAX_MONTHS:
            raise ValidationError(MONTHS_RANGE)
        new = rules.Grant(
            kind="plan",
            since=now,
            until=add_months(now, months),
            by=by,
            note=secrets.token_hex(6),
        )
    stored = rules.TandemPart(grant=new, trial_used=tandem.trial_used or kind == "trial").to_json()
    previous = account.tandem_grants
    condition = (
        Account.tandem_grants.does_not_exist()
        if previous is None
        else Account.tandem_grants == previous  # nobody granted meanwhile
    )
    try:
        update_only(
            Account, Account.key(account_id), actions=[Account.tandem_grants.set(stored)], condition=condition
        )
    except ConditionFailed:
        raise Conflict(HAS_PLAN) from None
    for op_id, start, stop, amount in _months(new):
        credits.grant(
            account_id,
            kind="main",
            amount=amount,
            valid_from=start,
            valid_to=stop,
            op_id=op_id,
            product_name=f"{MEMBERSHIP} ({'free trial' if kind == 'trial' else 'granted'})",
        )
    return stored


def end(account_id: str, now: int | None = None) -> dict[str, Any]:
    """End a Tandem-granted plan or trial now: its unspent credits are taken back."""
    now = int(now if now is not None else time.time())
    account = Account.find(account_id, consistent=True)
    if account is None:
        raise NotFound("Account not found")

    tandem = entitlements.tandem_part(account)
    current = tandem.grant
    if current is None or not current.running(now):
        raise Conflict(NO_GRANT)
    ended = rules.Grant(
        kind=current.kind,
        since=current.since,
        until=now,
        by=current.by,
        credits=current.credits,
        note=current.note,
    )
    stored = rules.TandemPart(grant=ended, trial_used=tandem.trial_used).to_json()
    update_only(Account, Account.key(account_id), actions=[Account.tandem_grants.set(stored)])
    for op_id, *_ in _months(current):
        credits.revoke(account_id, op_id, "granted plan ended")
    return stored
