"""Billing reconciliation (no I/O, no stripe import): from one customer's whole Stripe state to
the account's billing state and the credit grants its payments earn.

`sync_customer` (the billing workflow, the payment-processing page) reads a snapshot of the
customer from Stripe (`tandem.integrations.stripe_client.fetch_customer_snapshot`), calls
`compute(snapshot, record, now)` and writes the result: the billing record on the account and
`grants_to_make(...)` / `revocations(...)` on the credit ledger. Nothing here trusts an event's
payload or order: the answer is a function of the snapshot, so duplicated, reordered or lost
webhooks cannot change it, and every grant has a deterministic key (the ledger's op id) so it
is made once whoever asks first.

Snapshot (plain dicts as the stripe library's `to_dict()` returns them, API 2026-10-28.endive):
    {"subscriptions": [...],      # status=all; items.data[].price (with metadata), periods on items
     "invoices": [...],           # lines, billing_reason, status, status_transitions, parent,
                                  # payments (expanded: payment.payment_intent)
     "checkout_sessions": [...],  # mode, status, payment_status, metadata, client_reference_id,
                                  # payment_intent, subscription, invoice, line_items (expanded)
     "charges": [...],            # payment_intent, created, amount, amount_refunded, refunded
     "refunds": [...],            # amount, status, payment_intent, charge, created
     "prices": [...]}             # prices met on invoice lines that items/sessions do not carry
Record (what the account already holds; every key optional):
    {"approval": None | "required" | "approved" | "refused",
     "feature_only": bool,        # the user type 'feature' (reduced menu)
     "last_payment_id": str | None}

Credit rules (SPEC sections 1 and 9, issue 12):
- Main plan: 6 credits a credit month, no rollover. A monthly invoice's period is one credit
  month; a yearly period is split into 12 months from its start (day-anchored, as Stripe
  bills); the scheduler grants each month when it begins (`due_main_grants`). A 3-month access
  is three 30-day months from payment. Keys: `main:<subscription>:<YYYY-MM-DD of the month's
  start>`, `fixed:<checkout session>:<0..2>`.
- Never two main grants at once: a credit month that begins while an earlier main grant is
  still valid starts when that grant ends; if less than half of it would be left it is skipped
  and the next month (when it follows on) starts when that grant ends instead, so there is no
  gap either. So a monthly -> yearly upgrade (its `subscription_update` invoice is a new paid
  period, not a renewal) gives no second 6 in the month of the upgrade; the yearly credits
  begin when the paid month's end. Months of a period cut short (an interval change, an ended
  plan) that begin after the cut are not granted.
- One-time extra credits: valid 30 days from payment, key `extra:<checkout session>`.
- Recurring add-on credits: each paid period, key `addon:<subscription>:<YYYY-MM-DD>`.
- Subscription grants come from paid invoices only and one-off grants from paid Checkout
  Sessions only, so checkout.session.completed and invoice.paid for the same payment are one.
- A payment refunded in full takes back the unspent credits of every grant it earned
  (`revocations`) and grants nothing more; when it is the plan's latest payment the plan ends
  (the money-back guarantee is 30 days: `within_guarantee`).
"""

from __future__ import annotations

import calendar
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from tandem.domain import catalogue
from tandem.domain.catalogue import PriceInfo, classify
from tandem.domain.entitlements import TRIAL_CREDITS

DAY = 86400
GUARANTEE_DAYS = 30
MIN_SHIFTED_SHARE = 0.5  # a credit month pushed back by an earlier grant keeps at least half of itself

STATUSES = (
    "none",
    "pending_approval",
    "active",
    "trialling",
    "cancelled",
    "gifted",  # only in records written before issue 21: gifts are the ledger's (entitlements)
    "fixed_term",
    "feature_only",
)
LIVE_SUB_STATUSES = ("active", "trialing", "past_due")
APPROVALS = (None, "required", "approved", "refused")
LEDGER_KIND = {"main": "main", "fixed_term": "main", "extra": "add-on-one-time", "addon": "recurring"}


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Grant:
    key: str  # the ledger op id: the same grant is never made twice
    kind: str  # ledger kind: main | add-on-one-time | recurring
    amount: int
    valid_from: int
    valid_to: int
    product_name: str
    payment: str  # the invoice or checkout session that earned it
    subscription: str | None = None


@dataclass(frozen=True)
class Payment:
    id: str  # invoice id (subscriptions) or checkout session id (one-off purchases)
    kind: str  # main | addon | extra | fixed_term | feature
    amount: int  # minor units actually paid
    currency: str
    paid_at: int
    payment_intents: tuple[str, ...]
    subscription: str | None = None
    billing_reason: str | None = None
    refunded_amount: int = 0
    refunded_at: int | None = None

    @property
    def fully_refunded(self) -> bool:
        return self.amount > 0 and self.refunded_amount >= self.amount


@dataclass(frozen=True)
class FeaturePurchase:
    payment: str
    months: int
    amount: int
    paid_at: int
    brand: str | None
    feature: str | None
    refunded: bool


@dataclass(frozen=True)
class AddonSubscription:
    subscription: str
    product_name: str
    credits: int
    status: str
    period_end: int | None
    cancel_at: int | None
    cancelled_at: int | None


@dataclass(frozen=True)
class BillingState:
    status: str  # one of STATUSES
    plan: str | None = None  # monthly | yearly | fixed_term
    is_yearly: bool = False
    subscription_id: str | None = None
    main_product_id: str | None = None
    main_price_id: str | None = None
    period_start: int | None = None
    period_end: int | None = None
    valid_to: int | None = None  # access is paid until then (a cancelled plan ends here)
    cancel_at: int | None = None
    cancelled_at: int | None = None
    trial_end: int | None = None
    payment_failed: bool = False  # a renewal or upgrade is unpaid (past_due): Stripe retries
    open_invoice_url: str | None = None  # the unpaid invoice to pay again
    approval: str | None = None
    latest_payment_id: str | None = None
    has_new_payment: bool = False
    duplicate_subscriptions: tuple[str, ...] = ()  # live main plans beyond the one in use
    trial_used: bool = False  # a subscription of this customer ever had a free trial
    payments: tuple[Payment, ...] = ()
    grants: tuple[Grant, ...] = ()  # every grant the payments earn, future months included
    revoked: tuple[str, ...] = ()  # keys of grants whose payment was refunded in full
    features: tuple[FeaturePurchase, ...] = ()
    addons: tuple[AddonSubscription, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """The JSON-able billing record to keep on the account (grants live in the ledger)."""
        data = asdict(self)
        for key in ("payments", "grants", "revoked"):
            data.pop(key)
        data["features"] = [asdict(f) for f in self.features]
        data["addons"] = [asdict(a) for a in self.addons]
        data["duplicate_subscriptions"] = list(self.duplicate_subscriptions)
        return data


# ---------------------------------------------------------------- small readers


def _get(obj: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def _data(listish: Any) -> list[Any]:
    """The elements of a Stripe list object ({"data": [...]}) or a plain list."""
    if isinstance(listish, Mapping):
        listish = listish.get("data")
    return [x for x in listish or [] if isinstance(x, Mapping)]


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


def _unique(items: Iterable[Any]) -> list[dict[str, Any]]:
    """One object per id, sorted by id. Copies of one id are the same object read twice (list
    pages overlapping); should they differ, the choice does not depend on their order."""
    best: dict[str, tuple[str, dict[str, Any]]] = {}
    for item in items or []:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            continue
        text = _canonical(item)
        held = best.get(item["id"])
        if held is None or text > held[0]:
            best[item["id"]] = (text, dict(item))
    return [best[key][1] for key in sorted(best)]


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def add_months(anchor: int, months: int) -> int:
    """`anchor` plus whole months, the day clamped to the month's last day (a 31 January anchor
    gives 28/29 February, then 31 March), as Stripe bills."""
    start = datetime.fromtimestamp(anchor, UTC)
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return int(start.replace(year=year, month=month, day=day).timestamp())


def _day(ts: int) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


# ---------------------------------------------------------------- reading the snapshot


@dataclass
class _Period:
    """One billed period of one subscription item price, from an invoice line."""

    subscription: str
    invoice: str
    info: PriceInfo
    quantity: int
    start: int
    end: int
    paid: bool
    trial: bool = False  # the free trial's period (charged 0): entitlements.TRIAL_CREDITS


@dataclass
class _Snapshot:
    subscriptions: list[dict[str, Any]]
    invoices: list[dict[str, Any]]
    sessions: list[dict[str, Any]]
    charges: list[dict[str, Any]]
    refunds: list[dict[str, Any]]
    prices: dict[str, dict[str, Any]]
    periods: list[_Period] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    session_lines: dict[str, list[tuple[PriceInfo, int]]] = field(default_factory=dict)


def _read(snapshot: Mapping[str, Any]) -> _Snapshot:
    subs = _unique(snapshot.get("subscriptions") or [])
    sessions = _unique(snapshot.get("checkout_sessions") or [])
    prices: dict[str, dict[str, Any]] = {p["id"]: p for p in _unique(snapshot.get("prices") or [])}
    for sub in subs:  # prices as items and line items carry them (at least as fresh)
        for item in _data(sub.get("items")):
            if isinstance(item.get("price"), Mapping) and item["price"].get("id"):
                prices[item["price"]["id"]] = dict(item["price"])
    for session in sessions:
        for line in _data(session.get("line_items")):
            if isinstance(line.get("price"), Mapping) and line["price"].get("id"):
                prices[line["price"]["id"]] = dict(line["price"])
    return _Snapshot(
        subscriptions=subs,
        invoices=_unique(snapshot.get("invoices") or []),
        sessions=sessions,
        charges=_unique(snapshot.get("charges") or []),
        refunds=_unique(
            list(snapshot.get("refunds") or [])
            + [r for c in snapshot.get("charges") or [] for r in _data(_get(c, "refunds"))]
        ),
        prices=prices,
    )


def _invoice_subscription(invoice: Mapping[str, Any]) -> str | None:
    sub = _get(invoice, "parent", "subscription_details", "subscription")
    if isinstance(sub, Mapping):
        sub = sub.get("id")
    if sub is None and isinstance(invoice.get("subscription"), str):  # older API versions
        sub = invoice["subscription"]
    return sub if isinstance(sub, str) else None


def _line_price(line: Mapping[str, Any], prices: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    ref = _get(line, "pricing", "price_details", "price")
    if isinstance(ref, Mapping):
        return ref
    if isinstance(ref, str):
        return prices.get(ref) or {"id": ref}
    legacy = line.get("price")  # older API versions put the price object on the line
    return legacy if isinstance(legacy, Mapping) else None


def _is_period_line(line: Mapping[str, Any]) -> bool:
    """A subscription item's charge for a period (not a proration, not an invoice item)."""
    parent = line.get("parent")
    if isinstance(parent, Mapping):
        if parent.get("type") != "subscription_item_details":
            return False
        return not _get(parent, "subscription_item_details", "proration")
    return line.get("type") == "subscription" and not line.get("proration")  # older API versions


def _invoice_intents(invoice: Mapping[str, Any]) -> tuple[str, ...]:
    intents = []
    for payment in _data(invoice.get("payments")):
        intent = _get(payment, "payment", "payment_intent")
        if isinstance(intent, Mapping):
            intent = intent.get("id")
        if isinstance(intent, str) and payment.get("status") in (None, "paid"):
            intents.append(intent)
    legacy = invoice.get("payment_intent")
    if isinstance(legacy, str):
        intents.append(legacy)
    return tuple(sorted(set(intents)))


def _is_trial_line(line: Mapping[str, Any], trial_end: int | None) -> bool:
    """A subscription's free-trial period: charged nothing, ending by the trial's end."""
    end = _int(_get(line, "period", "end"))
    return trial_end is not None and end is not None and end <= trial_end and not _int(line.get("amount"))


def _charge_times(charges: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    times: dict[str, int] = {}
    for charge in charges:
        intent = charge.get("payment_intent")
        created = _int(charge.get("created"))
        if isinstance(intent, str) and created is not None and charge.get("status") in (None, "succeeded"):
            times[intent] = min(times.get(intent, created), created)
    return times


def _refund_totals(snap: _Snapshot) -> dict[str, tuple[int, int]]:
    """payment intent -> (amount refunded, time of the latest refund)."""
    by_charge = {c["id"]: c.get("payment_intent") for c in snap.charges}
    totals: dict[str, tuple[int, int]] = {}
    for refund in snap.refunds:
        if refund.get("status") not in (None, "succeeded", "pending"):
            continue  # failed or canceled refunds return nothing
        intent = refund.get("payment_intent") or by_charge.get(refund.get("charge"))
        if not isinstance(intent, str):
            continue
        amount, at = totals.get(intent, (0, 0))
        totals[intent] = (amount + int(refund.get("amount") or 0), max(at, int(refund.get("created") or 0)))
    for charge in snap.charges:  # a charge marked refunded counts in full even if its refunds were not listed
        intent = charge.get("payment_intent")
        if charge.get("refunded") and isinstance(intent, str):
            amount, at = totals.get(intent, (0, 0))
            totals[intent] = (
                max(amount, int(charge.get("amount") or 0)),
                at or int(charge.get("created") or 0),
            )
    return totals


def _with_refunds(payment: Payment, totals: Mapping[str, tuple[int, int]]) -> Payment:
    refunded, at = 0, 0
    for intent in payment.payment_intents:
        amount, when = totals.get(intent, (0, 0))
        refunded += amount
        at = max(at, when)
    if not refunded:
        return payment
    return Payment(**{**asdict(payment), "refunded_amount": refunded, "refunded_at": at or None})


def _collect(snap: _Snapshot) -> None:
    """Periods from subscription invoices, payments from paid invoices and paid sessions."""
    totals = _refund_totals(snap)
    charge_times = _charge_times(snap.charges)
    trial_ends = {s["id"]: _int(s.get("trial_end")) for s in snap.subscriptions}
    for invoice in snap.invoices:
        sub_id = _invoice_subscription(invoice)
        if sub_id is None or invoice.get("status") in ("void", "draft"):
            continue  # one-off invoices (invoice_creation) are read from their checkout sessions
        paid = invoice.get("status") == "paid"
        kinds: list[str] = []
        for line in _data(invoice.get("lines")):
            if not _is_period_line(line):
                continue
            info = classify(_line_price(line, snap.prices))
            start, end = _int(_get(line, "period", "start")), _int(_get(line, "period", "end"))
            if info is None or info.kind not in ("main", "addon") or start is None or end is None:
                continue
            if end <= start:
                continue
            snap.periods.append(
                _Period(
                    sub_id,
                    invoice["id"],
                    info,
                    int(line.get("quantity") or 1),
                    start,
                    end,
                    paid,
                    trial=info.kind == "main" and _is_trial_line(line, trial_ends.get(sub_id)),
                )
            )
            kinds.append(info.kind)
        if not paid:
            continue
        if not kinds:  # a proration-only invoice: it pays for the plan it changes
            sub = next((s for s in snap.subscriptions if s["id"] == sub_id), None)
            infos = [classify(i.get("price")) for i in _data((sub or {}).get("items"))]
            kinds = [i.kind for i in infos if i is not None]
        if not kinds:
            continue
        snap.payments.append(
            _with_refunds(
                Payment(
                    id=invoice["id"],
                    kind="main" if "main" in kinds else kinds[0],
                    amount=int(invoice.get("amount_paid") or 0),
                    currency=str(invoice.get("currency") or catalogue.CURRENCY),
                    paid_at=_int(_get(invoice, "status_transitions", "paid_at"))
                    or int(invoice.get("created") or 0),
                    payment_intents=_invoice_intents(invoice),
                    subscription=sub_id,
                    billing_reason=invoice.get("billing_reason"),
                ),
                totals,
            )
        )
    for session in snap.sessions:
        if (
            session.get("mode") != "payment"
            or session.get("status") != "complete"
            or session.get("payment_status") != "paid"
        ):
            continue  # subscription sessions are paid through their invoices
        lines: list[tuple[PriceInfo, int]] = []
        for line in _data(session.get("line_items")):
            info = classify(line.get("price"))
            if info is not None:
                lines.append((info, int(line.get("quantity") or 1)))
        if not lines and session.get("line_items") is None:  # line items not expanded: metadata says
            spec = catalogue.BY_LOOKUP.get(_get(session, "metadata", "lookup_key") or "")
            if spec is not None:
                lines.append((_spec_info(spec), 1))
        if not lines:
            continue
        snap.session_lines[session["id"]] = lines
        intent = session.get("payment_intent")
        intent_id = intent.get("id") if isinstance(intent, Mapping) else intent
        intents = (intent_id,) if isinstance(intent_id, str) else ()
        kinds = [info.kind for info, _ in lines]
        snap.payments.append(
            _with_refunds(
                Payment(
                    id=session["id"],
                    kind=next((k for k in ("fixed_term", "feature", "extra") if k in kinds), kinds[0]),
                    amount=int(session.get("amount_total") or 0),
                    currency=str(session.get("currency") or catalogue.CURRENCY),
                    paid_at=charge_times.get(intent_id or "", 0) or int(session.get("created") or 0),
                    payment_intents=intents,
                ),
                totals,
            )
        )
    snap.payments.sort(key=lambda p: (p.paid_at, p.id))


def _spec_info(spec: catalogue.PriceSpec) -> PriceInfo:
    return PriceInfo(
        price_id="",
        product_id=spec.product,
        kind=spec.kind,
        credits=spec.credits,
        months=spec.months,
        days=spec.days,
        interval=spec.interval,
        unit_amount=spec.unit_amount,
        name=catalogue.BY_PRODUCT[spec.product].name,
    )


# ---------------------------------------------------------------- grants


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


def _main_candidates(snap: _Snapshot, refunded: set[str]) -> list[_Candidate]:
    cuts = _sub_ends(snap)
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
        k = 0
        while True:
            start = add_months(period.start, k)
            if start >= min(cut, period.end):
                break
            end = min(add_months(period.start, k + 1), period.end)
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


# ---------------------------------------------------------------- the account's state


def _main_item(sub: Mapping[str, Any]) -> tuple[Mapping[str, Any], PriceInfo] | None:
    for item in _data(sub.get("items")):
        info = classify(item.get("price"))
        if info is not None and info.kind == "main":
            return item, info
    return None


def _period_of(sub: Mapping[str, Any], item: Mapping[str, Any]) -> tuple[int | None, int | None]:
    start = _int(item.get("current_period_start"))
    end = _int(item.get("current_period_end"))
    if start is None:  # older API versions kept the period on the subscription
        start, end = _int(sub.get("current_period_start")), _int(sub.get("current_period_end"))
    return start, end


def _ended_by_refund(sub_id: str, payments: Sequence[Payment]) -> bool:
    """A plan whose latest paid main payment was refunded in full has ended (money back)."""
    own = [p for p in payments if p.subscription == sub_id and p.kind == "main" and p.amount > 0]
    return bool(own) and own[-1].fully_refunded


def compute(snapshot: Mapping[str, Any], record: Mapping[str, Any] | None, now: int) -> BillingState:
    """The account's billing state at `now` from the customer's whole Stripe snapshot."""
    record = record or {}
    approval = record.get("approval")
    if approval not in APPROVALS:
        raise ValueError(f"approval must be one of {APPROVALS}, not {approval!r}")
    snap = _read(snapshot)
    _collect(snap)
    refunded = {p.id for p in snap.payments if p.fully_refunded}
    main, main_revoked = _main_grants(_main_candidates(snap, refunded))
    other, other_revoked = _other_grants(snap, refunded)
    grants = tuple(sorted(main + other, key=lambda g: (g.valid_from, g.key)))
    revoked = tuple(sorted(set(main_revoked + other_revoked)))

    # The plan: the best live main subscription (active before past due, the latest period).
    live = []
    for sub in snap.subscriptions:
        found = _main_item(sub)
        if found is None or sub.get("status") not in LIVE_SUB_STATUSES:
            continue
        if _ended_by_refund(sub["id"], snap.payments):
            continue
        item, info = found
        start, end = _period_of(sub, item)
        live.append((0 if sub["status"] != "past_due" else 1, -(end or 0), sub["id"], sub, item, info))
    live.sort(key=lambda row: row[:3])

    features = tuple(
        FeaturePurchase(
            payment=p.id,
            months=next((i.months or 0 for i, _ in snap.session_lines[p.id] if i.kind == "feature"), 0),
            amount=p.amount,
            paid_at=p.paid_at,
            brand=_session_brand(snap, p.id),
            feature=_get(_session(snap, p.id), "metadata", "feature"),
            refunded=p.fully_refunded,
        )
        for p in snap.payments
        if any(i.kind == "feature" for i, _ in snap.session_lines.get(p.id) or [])
    )
    addons = _addons(snap)
    latest = snap.payments[-1].id if snap.payments else None
    common: dict[str, Any] = {
        "approval": approval,
        "latest_payment_id": latest,
        "has_new_payment": latest is not None and latest != record.get("last_payment_id"),
        "payments": tuple(snap.payments),
        "grants": grants,
        "revoked": revoked,
        "features": features,
        "addons": addons,
        "duplicate_subscriptions": tuple(row[2] for row in live[1:]),
        "trial_used": any(s.get("trial_start") or s.get("trial_end") for s in snap.subscriptions),
    }

    if live and approval != "refused":
        _, _, sub_id, sub, item, info = live[0]
        start, end = _period_of(sub, item)
        cancel_at = _int(sub.get("cancel_at")) or (end if sub.get("cancel_at_period_end") else None)
        if approval == "required":
            status = "pending_approval"
        elif cancel_at is not None:
            status = "cancelled"
        elif sub.get("status") == "trialing":
            status = "trialling"
        else:
            status = "active"
        open_invoice = _open_invoice(snap, sub_id)
        return BillingState(
            status=status,
            plan="yearly" if info.interval == "year" else "monthly",
            is_yearly=info.interval == "year",
            subscription_id=sub_id,
            main_product_id=info.product_id,
            main_price_id=info.price_id,
            period_start=start,
            period_end=end,
            valid_to=cancel_at or end,
            cancel_at=cancel_at,
            cancelled_at=_int(sub.get("canceled_at")) if cancel_at is not None else None,
            trial_end=_int(sub.get("trial_end")) if sub.get("status") == "trialing" else None,
            payment_failed=sub.get("status") == "past_due" or open_invoice is not None,
            open_invoice_url=(open_invoice or {}).get("hosted_invoice_url"),
            **common,
        )

    terms = [t for t in _fixed_terms(snap, refunded) if t[0].id not in refunded]
    current = next(((p, s, e, i) for p, s, e, i in terms if s <= now < e), None)
    if current is not None and approval != "refused":
        payment, start, end, info = current
        valid_to = end
        for _, later_start, later_end, _ in sorted(terms, key=lambda t: t[1]):
            if later_start <= valid_to:
                valid_to = max(valid_to, later_end)  # back-to-back terms run on
        return BillingState(
            status="pending_approval" if approval == "required" else "fixed_term",
            plan="fixed_term",
            main_product_id=info.product_id,
            main_price_id=info.price_id or None,
            period_start=start,
            period_end=end,
            valid_to=valid_to,
            **common,
        )
    if record.get("feature_only") or any(not f.refunded for f in features):
        return BillingState(status="feature_only", **common)
    return BillingState(status="none", **common)


def _session(snap: _Snapshot, session_id: str) -> Mapping[str, Any] | None:
    return next((s for s in snap.sessions if s["id"] == session_id), None)


def _session_brand(snap: _Snapshot, session_id: str) -> str | None:
    session = _session(snap, session_id) or {}
    brand = _get(session, "metadata", "brand") or session.get("client_reference_id")
    return str(brand) if brand else None


def _open_invoice(snap: _Snapshot, sub_id: str) -> Mapping[str, Any] | None:
    open_ones = [i for i in snap.invoices if _invoice_subscription(i) == sub_id and i.get("status") == "open"]
    return max(open_ones, key=lambda i: (int(i.get("created") or 0), i["id"])) if open_ones else None


def _addons(snap: _Snapshot) -> tuple[AddonSubscription, ...]:
    found = []
    for sub in snap.subscriptions:
        if sub.get("status") not in LIVE_SUB_STATUSES:
            continue
        for item in _data(sub.get("items")):
            info = classify(item.get("price"))
            if info is None or info.kind != "addon":
                continue
            _, end = _period_of(sub, item)
            cancel_at = _int(sub.get("cancel_at")) or (end if sub.get("cancel_at_period_end") else None)
            found.append(
                AddonSubscription(
                    subscription=sub["id"],
                    product_name=info.name,
                    credits=info.credits * int(item.get("quantity") or 1),
                    status=str(sub.get("status")),
                    period_end=end,
                    cancel_at=cancel_at,
                    cancelled_at=_int(sub.get("canceled_at")) if cancel_at is not None else None,
                )
            )
    return tuple(found)


# ---------------------------------------------------------------- what to write


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


def within_guarantee(payment: Payment, now: int) -> bool:
    """The 30-day money-back guarantee: a payment made at most 30 days ago."""
    return now - payment.paid_at <= GUARANTEE_DAYS * DAY


def refundable_payment(state: BillingState, now: int, *, any_age: bool = False) -> Payment | None:
    """The latest payment that can be refunded (paid, not refunded yet, within the guarantee
    unless `any_age`): what an admin's money-back refund returns."""
    for payment in reversed(state.payments):
        if payment.amount > 0 and payment.refunded_amount == 0:
            return payment if any_age or within_guarantee(payment, now) else None
    return None


def state_from_record(record: Mapping[str, Any] | None) -> BillingState:
    """The billing state kept on the account (`BillingState.to_record()`), read back for the
    Credits info: payments, grants and revocations live in Stripe and the ledger, not here."""
    record = dict(record or {})
    fields = {f for f in BillingState.__dataclass_fields__ if f not in ("payments", "grants", "revoked")}
    data = {k: v for k, v in record.items() if k in fields}
    data["features"] = tuple(FeaturePurchase(**f) for f in record.get("features") or [])
    data["addons"] = tuple(AddonSubscription(**a) for a in record.get("addons") or [])
    data["duplicate_subscriptions"] = tuple(record.get("duplicate_subscriptions") or ())
    data.setdefault("status", "none")
    return BillingState(**data)
