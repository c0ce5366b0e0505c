"""The credits a customer's payments earn, and which of them to write (no I/O).

`earned(snapshot, refunded)` is the credit-month calendar: the grants the paid periods and
purchases earn, when each month starts (never two main grants at once), and the keys of those
whose payment was refunded in full; `compute` puts both on the BillingState (`grants`,
`revoked`). From that state the billing sync writes `grants_to_make` (due, not in the ledger
yet, still of use) and `revocations`, and the scheduler comes back at `next_grant_at`. Keys are
deterministic ledger op ids, so a grant is made once whoever asks first."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from tandem.domain import catalogue
from tandem.domain.billing.results import DAY, LEDGER_KIND, MIN_SHIFTED_SHARE, BillingState, Grant, Payment
from tandem.domain.billing.snapshot import _int, _Snapshot
from tandem.domain.catalogue import PriceInfo
from tandem.domain.months import add_months
from tandem.domain.trial import TRIAL_CREDITS


def _day(ts: int) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


# ---------------------------------------------------------------- what the payments earn


def earned(snap: _Snapshot, refunded: set[str]) -> tuple[tuple[Grant, ...], tuple[str, ...]]:
    """(every grant the payments earn, future months included, in time order; the keys of the
    grants whose payment was refunded in full)."""
    main, main_revoked = _main_grants(_main_candidates(snap, refunded))
    other, other_revoked = _other_grants(snap, refunded)
    grants = tuple(sorted(main + other, key=lambda g: (g.valid_from, g.key)))
    return grants, tuple(sorted(set(main_revoked + other_revoked)))


@dataclass
class _Candidate:
    key: str
    start: int
    end: int
    amount: int
    product_name: str
    payment: str
    subscription: str | None
    revoked: bool


def _sub_ends(snap: _Snapshot) -> dict[str, list[int]]:
    """Where each subscription's main periods were cut: the start of every later main period
    (an interval change restarts the period) and the plan's end."""
    cuts: dict[str, list[int]] = {}
    for period in snap.periods:
        if period.info.kind == "main":
            cuts.setdefault(period.subscription, []).append(period.start)
    for sub in snap.subscriptions:
        ended = _int(sub.get("ended_at"))
        if ended is not None:
            cuts.setdefault(sub["id"], []).append(ended)
    return cuts


def _month_base(anchor: int | None, start: int) -> tuple[int, int]:
    """(base, k) such that a period beginning at `start` has its credit months begin at
    add_months(base, k), add_months(base, k + 1), ...: the months of the subscription's billing
    cycle anchor when the period begins on one of them, as Stripe bills (an anchor of the 31st
    makes 28 February to 31 March one month, not a month and three days), else the period's own
    start (a period a change of plan began mid-cycle)."""
    if anchor is not None and anchor <= start:
        a, s = datetime.fromtimestamp(anchor, UTC), datetime.fromtimestamp(start, UTC)
        k = (s.year - a.year) * 12 + s.month - a.month
        if add_months(anchor, k) == start:
            return anchor, k
    return start, 0


def _main_candidates(snap: _Snapshot, refunded: set[str]) -> list[_Candidate]:
    cuts = _sub_ends(snap)
    anchors = {sub["id"]: _int(sub.get("billing_cycle_anchor")) for sub in snap.subscriptions}
    found: list[_Candidate] = []
    seen_periods: set[tuple[str, int, int]] = set()
    for period in sorted(snap.periods, key=lambda p: (p.start, p.end, p.invoice)):
        if period.info.kind != "main" or not period.paid:
            continue
        identity = (period.subscription, period.start, period.end)
        if identity in seen_periods:
            continue  # the same period billed twice (e.g. an invoice re-issued): one set of credits
        seen_periods.add(identity)
        cut = min([c for c in cuts.get(period.subscription, []) if c > period.start] or [period.end])
        base, k = _month_base(anchors.get(period.subscription), period.start)
        while True:
            start = max(add_months(base, k), period.start)
            if start >= min(cut, period.end):
                break
            end = min(add_months(base, k + 1), period.end)
            found.append(
                _Candidate(
                    key=f"{'trial' if period.trial else 'main'}:{period.subscription}:{_day(start)}",
                    start=start,
                    end=end,
                    amount=TRIAL_CREDITS if period.trial else period.info.credits,
                    product_name=period.info.name,
                    payment=period.invoice,
                    subscription=period.subscription,
                    revoked=period.invoice in refunded,
                )
            )
            k += 1
    for term in _fixed_terms(snap, refunded):
        payment, start, end, info = term
        month = catalogue.FIXED_TERM_MONTH_DAYS * DAY
        k = 0
        while start + k * month < end:
            found.append(
                _Candidate(
                    key=f"fixed:{payment.id}:{k}",
                    start=start + k * month,
                    end=min(start + (k + 1) * month, end),
                    amount=info.credits,
                    product_name=info.name,
                    payment=payment.id,
                    subscription=None,
                    revoked=payment.id in refunded,
                )
            )
            k += 1
    return found


def _fixed_terms(snap: _Snapshot, refunded: set[str]) -> list[tuple[Payment, int, int, PriceInfo]]:
    """Each paid 3-month access as (payment, start, end, price): back-to-back purchases follow
    one another instead of overlapping; a refunded one does not push the next back."""
    terms = []
    chain_end = 0
    for payment in snap.payments:
        lines = snap.session_lines.get(payment.id) or []
        info = next((i for i, _ in lines if i.kind == "fixed_term"), None)
        if info is None:
            continue
        days = (info.days or catalogue.FIXED_TERM_DAYS) * max(
            1, sum(q for i, q in lines if i.kind == "fixed_term")
        )
        if payment.id in refunded:
            terms.append((payment, payment.paid_at, payment.paid_at + days * DAY, info))
            continue
        start = max(payment.paid_at, chain_end)
        chain_end = start + days * DAY
        terms.append((payment, start, chain_end, info))
    return terms


def _main_grants(candidates: list[_Candidate]) -> tuple[list[Grant], list[str]]:
    """Apply 'never two main grants at once' in time order; returns (grants, revoked keys)."""
    grants: list[Grant] = []
    revoked: list[str] = []
    keys: set[str] = set()
    covered_until = 0
    skipped_end: int | None = None  # the end of a month just skipped as mostly covered
    for c in sorted(candidates, key=lambda c: (c.start, c.key)):
        if c.key in keys:
            continue
        keys.add(c.key)
        if c.revoked:
            revoked.append(c.key)
            continue
        if skipped_end is not None and c.start <= skipped_end and covered_until <= c.start:
            valid_from = covered_until  # the skipped month's rest is folded into this one: no gap
        else:
            valid_from = max(c.start, covered_until)
        skipped_end = None
        if c.end - valid_from < (c.end - c.start) * MIN_SHIFTED_SHARE:
            skipped_end = c.end  # most of this month is covered by an earlier grant
            continue
        grants.append(
            Grant(c.key, "main", c.amount, valid_from, c.end, c.product_name, c.payment, c.subscription)
        )
        covered_until = max(covered_until, c.end)
    return grants, revoked


def _other_grants(snap: _Snapshot, refunded: set[str]) -> tuple[list[Grant], list[str]]:
    grants: list[Grant] = []
    revoked: list[str] = []
    keys: set[str] = set()
    for period in sorted(snap.periods, key=lambda p: (p.start, p.invoice)):
        if period.info.kind != "addon" or not period.paid or period.info.credits < 1:
            continue
        key = f"addon:{period.subscription}:{_day(period.start)}"
        if key in keys:
            continue
        keys.add(key)
        if period.invoice in refunded:
            revoked.append(key)
            continue
        grants.append(
            Grant(
                key,
                LEDGER_KIND["addon"],
                period.info.credits * period.quantity,
                period.start,
                period.end,
                period.info.name,
                period.invoice,
                period.subscription,
            )
        )
    for payment in snap.payments:
        extras = [(i, q) for i, q in snap.session_lines.get(payment.id) or [] if i.kind == "extra"]
        amount = sum(i.credits * q for i, q in extras)
        if amount < 1:
            continue
        key = f"extra:{payment.id}"
        if payment.id in refunded:
            revoked.append(key)
            continue
        days = max(i.days or catalogue.EXTRA_VALID_DAYS for i, _ in extras)
        grants.append(
            Grant(
                key,
                LEDGER_KIND["extra"],
                amount,
                payment.paid_at,
                payment.paid_at + days * DAY,
                extras[0][0].name,
                payment.id,
            )
        )
    return grants, revoked


# ---------------------------------------------------------------- which to write


def due_grants(state: BillingState, now: int) -> list[Grant]:
    """Every grant that should exist by `now` (a month of a yearly plan is due when it begins)."""
    revoked = set(state.revoked)
    return [g for g in state.grants if g.valid_from <= now and g.key not in revoked]


def due_main_grants(state: BillingState, now: int) -> list[Grant]:
    """The plan's monthly 6 due by `now`: what the scheduler grants each month for yearly plans."""
    return [g for g in due_grants(state, now) if g.kind == "main"]


def grants_to_make(state: BillingState, existing_grant_ids: Iterable[str], now: int) -> list[Grant]:
    """Grants due by `now` that the ledger does not hold yet and that are still of use."""
    existing = set(existing_grant_ids)
    return [g for g in due_grants(state, now) if g.key not in existing and g.valid_to > now]


def revocations(state: BillingState, existing_grant_ids: Iterable[str]) -> list[str]:
    """Grants made for a payment since refunded in full: their unspent credits are taken back."""
    existing = set(existing_grant_ids)
    return [key for key in state.revoked if key in existing]


def next_grant_at(state: BillingState, now: int) -> int | None:
    """When the next grant falls due (the scheduler's next visit for this account)."""
    revoked = set(state.revoked)
    upcoming = [g.valid_from for g in state.grants if g.valid_from > now and g.key not in revoked]
    return min(upcoming) if upcoming else None
