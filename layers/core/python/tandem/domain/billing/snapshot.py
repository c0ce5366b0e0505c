"""Reading one customer's Stripe snapshot (plain dicts, API 2026-10-28.endive): its periods,
invoices, sessions, charges and refunds, into payments, feature purchases and what they paid for."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tandem.domain import catalogue
from tandem.domain.billing.results import Payment
from tandem.domain.catalogue import PriceInfo, classify

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
