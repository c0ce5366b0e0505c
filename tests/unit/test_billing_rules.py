"""Billing reconciliation: each account type, each credit rule, and order independence."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tandem.domain import billing
from tandem.domain.billing import (
    DAY,
    add_months,
    compute,
    due_main_grants,
    grants_to_make,
    next_grant_at,
    refundable_payment,
    revocations,
    within_guarantee,
)
from tests.unit.stripe_world import World, ts

T0 = ts(2026, 1, 20)


def keys(grants: list[billing.Grant]) -> list[str]:
    return [g.key for g in grants]


# ---------------------------------------------------------------- subscriptions


def test_a_monthly_subscription_is_active_with_six_credits_for_its_paid_month() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    state = compute(world.snapshot(), {}, T0 + 60)

    assert state.status == "active" and state.plan == "monthly" and not state.is_yearly
    assert state.subscription_id == sub["id"] and state.main_product_id == "tandem_main"
    assert (state.period_start, state.period_end) == (T0, add_months(T0, 1))
    assert state.valid_to == add_months(T0, 1) and state.cancel_at is None
    made = grants_to_make(state, [], T0 + 60)
    assert [(g.key, g.kind, g.amount, g.valid_from, g.valid_to) for g in made] == [
        (f"main:{sub['id']}:2026-01-20", "main", 6, T0, add_months(T0, 1))
    ]
    assert made[0].product_name == "Tandem membership" and made[0].payment == world.invoices[0]["id"]


def test_each_paid_renewal_gives_its_own_six_and_nothing_rolls_over() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    world.renew(sub)
    world.renew(sub)
    now = add_months(T0, 2) + DAY
    state = compute(world.snapshot(), {}, now)
    grants = billing.due_grants(state, now)
    assert keys(grants) == [
        f"main:{sub['id']}:2026-01-20",
        f"main:{sub['id']}:2026-02-20",
        f"main:{sub['id']}:2026-03-20",
    ]
    for earlier, later in zip(grants, grants[1:], strict=False):
        assert earlier.valid_to == later.valid_from  # back to back, each month its own 6
    assert [g.key for g in grants_to_make(state, [], now)] == [
        f"main:{sub['id']}:2026-03-20"
    ]  # older ones expired


def test_a_yearly_plan_grants_six_each_month_as_the_months_begin() -> None:
    world = World()
    sub = world.subscribe("tandem_main_yearly", T0)
    state = compute(world.snapshot(), {}, T0)
    assert state.status == "active" and state.plan == "yearly" and state.is_yearly
    assert state.period_end == add_months(T0, 12)
    assert len(state.grants) == 12 and sum(g.amount for g in state.grants) == 72
    assert [g.valid_from for g in state.grants] == [add_months(T0, k) for k in range(12)]
    assert state.grants[-1].valid_to == add_months(T0, 12)

    assert keys(due_main_grants(state, T0)) == [f"main:{sub['id']}:2026-01-20"]
    later = add_months(T0, 4) + DAY
    assert len(due_main_grants(state, later)) == 5
    made = {g.key for g in due_main_grants(state, add_months(T0, 3))}
    assert keys(grants_to_make(state, made, later)) == [f"main:{sub['id']}:2026-05-20"]
    assert next_grant_at(state, later) == add_months(T0, 5)


def test_a_yearly_plan_anchored_on_the_31st_follows_the_month_ends() -> None:
    world = World()
    start = ts(2026, 1, 31)
    world.subscribe("tandem_main_yearly", start)
    state = compute(world.snapshot(), {}, start)
    days = [g.key.rsplit(":", 1)[1] for g in state.grants[:4]]
    assert days == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]


def test_upgrading_to_yearly_in_the_same_month_gives_no_second_six() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    upgrade_at = T0 + 10 * DAY
    upgrade = world.change_price(sub, "tandem_main_yearly", upgrade_at)
    assert upgrade["billing_reason"] == "subscription_update"

    state = compute(world.snapshot(), {}, upgrade_at + 60)
    assert state.status == "active" and state.is_yearly and state.period_start == upgrade_at
    assert keys(grants_to_make(state, [], upgrade_at + 60)) == [f"main:{sub['id']}:2026-01-20"]
    monthly = state.grants[0]
    # The first yearly month would overlap the paid month's credits for most of its length:
    # it is folded into the second, which starts when the paid month's credits end (no gap).
    yearly = [g for g in state.grants if g.payment == upgrade["id"]]
    assert len(yearly) == 11
    assert (yearly[0].valid_from, yearly[0].valid_to) == (monthly.valid_to, add_months(upgrade_at, 2))
    assert yearly[0].key == f"main:{sub['id']}:2026-02-28"  # the 30 January anchor's second month
    assert all(g.valid_from >= monthly.valid_to for g in yearly)
    main_at_any_time = [
        sum(1 for g in state.grants if g.valid_from <= t < g.valid_to)
        for t in range(T0, add_months(T0, 13), DAY)
    ]
    assert max(main_at_any_time) == 1  # never two main grants at once


def test_an_upgrade_late_in_the_month_starts_the_yearly_credits_when_the_month_ends() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    upgrade_at = T0 + 25 * DAY
    upgrade = world.change_price(sub, "tandem_main_yearly", upgrade_at)
    state = compute(world.snapshot(), {}, upgrade_at)
    assert keys(due_main_grants(state, upgrade_at)) == [f"main:{sub['id']}:2026-01-20"]
    first_yearly = next(g for g in state.grants if g.payment == upgrade["id"])
    assert first_yearly.valid_from == add_months(T0, 1) and first_yearly.valid_to == add_months(upgrade_at, 1)
    assert first_yearly.key == f"main:{sub['id']}:2026-02-14"  # keyed by its own month's start
    assert len([g for g in state.grants if g.payment == upgrade["id"]]) == 12


def test_going_back_to_monthly_stops_the_rest_of_the_year() -> None:
    world = World()
    sub = world.subscribe("tandem_main_yearly", T0)
    switch = add_months(T0, 3) + 5 * DAY
    world.change_price(sub, "tandem_main_monthly", switch)
    state = compute(world.snapshot(), {}, switch)
    assert state.plan == "monthly"
    yearly = [g for g in state.grants if g.payment == world.invoices[0]["id"]]
    assert len(yearly) == 4  # January to April; May onwards was credited back as money
    monthly = [g for g in state.grants if g.payment == world.invoices[1]["id"]]
    assert monthly == []  # its month is mostly inside April's credits
    world.renew(sub)
    state = compute(world.snapshot(), {}, add_months(switch, 1))
    renewal = [g for g in state.grants if g.payment == world.invoices[2]["id"]]
    assert len(renewal) == 1 and renewal[0].valid_from == yearly[-1].valid_to  # no gap after April's credits


def test_a_free_trial_is_trialling_with_credits_and_the_first_paid_month_follows() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0, trial_days=14)
    state = compute(world.snapshot(), {}, T0 + DAY)
    assert state.status == "trialling" and state.trial_end == T0 + 14 * DAY
    assert [(g.valid_from, g.valid_to) for g in state.grants] == [(T0, T0 + 14 * DAY)]
    assert state.payments[0].amount == 0

    world.renew(sub)  # the trial ends and the first month is billed
    paid_at = T0 + 14 * DAY
    state = compute(world.snapshot(), {}, paid_at)
    assert state.status == "active"
    assert keys(grants_to_make(state, [state.grants[0].key], paid_at)) == [f"main:{sub['id']}:2026-02-03"]


def test_a_cancelled_plan_stays_valid_to_its_period_end_then_ends() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    world.cancel_at_period_end(sub, T0 + 5 * DAY)
    end = add_months(T0, 1)
    state = compute(world.snapshot(), {}, T0 + 6 * DAY)
    assert state.status == "cancelled" and state.valid_to == end
    assert state.cancel_at == end and state.cancelled_at == T0 + 5 * DAY
    assert info_of(state, T0 + 6 * DAY)["cancels"] == {
        "cancel_at": "2026-02-20T10:00:00Z",
        "cancelled_at": "2026-01-25T10:00:00Z",
    }
    assert info_of(state, T0 + 6 * DAY)["active"] is True
    assert info_of(state, T0 + 6 * DAY)["plan"]["endsOn"] == "2026-02-20T10:00:00Z"
    assert info_of(state, T0 + 6 * DAY)["plan"]["renews"] is False
    world.end(sub, end)
    state = compute(world.snapshot(), {}, end + 1)
    assert state.status == "none" and state.subscription_id is None
    assert len(state.grants) == 1  # the paid month's credits stay what they were


def test_a_failed_renewal_grants_nothing_until_it_is_paid() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    renewal = world.renew(sub, paid=False)
    at = add_months(T0, 1) + 60
    state = compute(world.snapshot(), {}, at)
    assert state.status == "active" and state.payment_failed
    assert state.open_invoice_url == renewal["hosted_invoice_url"]
    assert grants_to_make(state, [state.grants[0].key], at) == []

    world.pay(renewal, at + 3 * DAY)
    state = compute(world.snapshot(), {}, at + 3 * DAY)
    assert not state.payment_failed
    assert keys(grants_to_make(state, [state.grants[0].key], at + 3 * DAY)) == [
        f"main:{sub['id']}:2026-02-20"
    ]


# ---------------------------------------------------------------- one payment, one grant


def test_checkout_completed_and_invoice_paid_for_the_same_invoice_are_one_grant() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    snapshot = world.snapshot()
    assert snapshot["checkout_sessions"][0]["invoice"] == snapshot["invoices"][0]["id"]
    snapshot["invoices"].append(json.loads(json.dumps(snapshot["invoices"][0])))  # listed twice
    state = compute(snapshot, {}, T0)
    assert len(grants_to_make(state, [], T0)) == 1 and len(state.payments) == 1


def test_a_redelivered_event_makes_no_second_grant() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    world.buy("tandem_extra_3", T0 + DAY)
    first = compute(world.snapshot(), {}, T0 + DAY)
    made = grants_to_make(first, [], T0 + DAY)
    assert len(made) == 2
    again = compute(world.snapshot(), {}, T0 + DAY + 5)  # the same snapshot read again
    assert grants_to_make(again, [g.key for g in made], T0 + DAY + 5) == []


def test_an_unpaid_checkout_grants_nothing() -> None:
    world = World()
    world.open_session("tandem_extra_3", T0)
    state = compute(world.snapshot(), {}, T0)
    assert state.status == "none" and state.grants == () and state.payments == ()


# ---------------------------------------------------------------- add-ons, fixed term, features


def test_extra_credits_are_valid_thirty_days_from_payment() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    at = T0 + 3 * DAY
    first = world.buy("tandem_extra_3", at)
    second = world.buy("tandem_extra_6", at + 60, quantity=2)
    state = compute(world.snapshot(), {}, at + 60)
    extras = [g for g in state.grants if g.kind == "add-on-one-time"]
    assert [(g.key, g.amount, g.valid_from, g.valid_to) for g in extras] == [
        (f"extra:{first['id']}", 3, at, at + 30 * DAY),
        (f"extra:{second['id']}", 12, at + 60, at + 60 + 30 * DAY),
    ]
    assert extras[0].product_name == "Extra credits"


def test_recurring_add_on_credits_come_with_each_paid_period() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    addon = world.subscribe("tandem_addon_monthly_3", T0 + 2 * DAY)
    world.renew(addon)
    now = add_months(T0 + 2 * DAY, 1) + 60
    state = compute(world.snapshot(), {}, now)
    recurring = [g for g in state.grants if g.kind == "recurring"]
    assert [(g.key, g.amount) for g in recurring] == [
        (f"addon:{addon['id']}:2026-01-22", 3),
        (f"addon:{addon['id']}:2026-02-22", 3),
    ]
    assert state.subscription_id != addon["id"]  # an add-on is not the plan
    assert [(a.subscription, a.credits, a.product_name) for a in state.addons] == [
        (addon["id"], 3, "Monthly add-on credits")
    ]
    world.cancel_at_period_end(addon, now)
    state = compute(world.snapshot(), {}, now)
    assert state.addons[0].cancel_at == add_months(T0 + 2 * DAY, 2) and state.status == "active"


def test_three_month_access_is_a_fixed_term_of_ninety_days_with_monthly_credits() -> None:
    world = World()
    session = world.buy("tandem_access_3_months", T0)
    state = compute(world.snapshot(), {}, T0 + 60)
    assert state.status == "fixed_term" and state.plan == "fixed_term"
    assert (state.period_start, state.period_end, state.valid_to) == (T0, T0 + 90 * DAY, T0 + 90 * DAY)
    assert [(g.key, g.amount, g.valid_from, g.valid_to) for g in state.grants] == [
        (f"fixed:{session['id']}:{k}", 6, T0 + 30 * k * DAY, T0 + 30 * (k + 1) * DAY) for k in range(3)
    ]
    assert len(due_main_grants(state, T0 + 31 * DAY)) == 2
    fixed = info_of(state, T0 + 60)
    assert fixed["fixedTerm"] is True and fixed["plan"]["renews"] is False
    assert fixed["plan"]["endsOn"] == credit_iso(T0 + 90 * DAY)
    assert fixed["plan"]["nextCredits"] == {"on": credit_iso(T0 + 30 * DAY), "credits": 6}
    assert compute(world.snapshot(), {}, T0 + 90 * DAY).status == "none"


def test_a_second_three_month_access_follows_the_first() -> None:
    world = World()
    world.buy("tandem_access_3_months", T0)
    world.buy("tandem_access_3_months", T0 + 40 * DAY)
    state = compute(world.snapshot(), {}, T0 + 41 * DAY)
    assert state.valid_to == T0 + 180 * DAY
    assert len(state.grants) == 6
    assert [g.valid_from for g in state.grants] == [T0 + 30 * k * DAY for k in range(6)]
    assert compute(world.snapshot(), {}, T0 + 120 * DAY).status == "fixed_term"


def test_a_paid_feature_makes_a_feature_only_account_and_is_listed_for_the_pitch_area() -> None:
    world = World()
    session = world.buy("tandem_feature_6_months", T0, brand="31", metadata={"feature": "f_9"})
    state = compute(world.snapshot(), {}, T0)
    assert state.status == "feature_only" and state.grants == ()
    assert [(f.payment, f.months, f.amount, f.brand, f.feature, f.refunded) for f in state.features] == [
        (session["id"], 6, 24900, "31", "f_9", False)
    ]
    assert info_of(state, T0)["featureOnly"] is True
    assert compute({}, {"feature_only": True}, T0).status == "feature_only"


def test_the_stripe_state_never_speaks_of_gifts() -> None:
    """Gifts are Tandem's (the ledger's): the Stripe computation neither reads nor writes them
    (tandem.domain.entitlements combines the two)."""
    assert compute({}, {"gifted_until": T0 + DAY}, T0).status == "none"
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    assert compute(world.snapshot(), {"gifted_until": T0 + DAY}, T0).status == "active"


def test_no_payments_no_plan() -> None:
    state = compute({}, None, T0)
    assert state.status == "none" and state.grants == () and not state.has_new_payment
    info = info_of(state, T0)
    assert (
        info["productsAllowed"] is True
        and info["addonsAllowed"] is False
        and info["hasSubscription"] is False
    )


# ---------------------------------------------------------------- approval


def test_pending_approval_holds_the_plan_but_the_credits_are_granted() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    pending = compute(world.snapshot(), {"approval": "required"}, T0)
    assert pending.status == "pending_approval" and pending.plan == "monthly"
    assert len(grants_to_make(pending, [], T0)) == 1  # requests are held, so they need credits
    fields = info_of(pending, T0)
    assert fields["pendingApproval"] and fields["hasSubscription"] and not fields["active"]
    assert fields["productsAllowed"] is False

    assert compute(world.snapshot(), {"approval": "approved"}, T0).status == "active"
    refused = compute(world.snapshot(), {"approval": "refused"}, T0)
    assert refused.status == "none" and refused.approval == "refused"


def test_an_unknown_approval_value_is_refused() -> None:
    with pytest.raises(ValueError, match="approval must be one of"):
        compute({}, {"approval": "maybe"}, T0)


# ---------------------------------------------------------------- refunds


def test_a_refund_within_thirty_days_ends_the_plan_and_takes_back_its_credits() -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", T0)
    extra = world.buy("tandem_extra_3", T0 + DAY)
    before = compute(world.snapshot(), {}, T0 + 10 * DAY)
    made = [g.key for g in grants_to_make(before, [], T0 + 10 * DAY)]
    payment = refundable_payment(before, T0 + 10 * DAY)
    assert payment is not None and payment.id == extra["id"]  # the latest payment first
    plan_payment = before.payments[0]
    assert within_guarantee(plan_payment, T0 + 30 * DAY) and not within_guarantee(plan_payment, T0 + 31 * DAY)

    world.refund(world.intent_of(world.invoices[0]), T0 + 10 * DAY)
    after = compute(world.snapshot(), {}, T0 + 10 * DAY)
    assert after.status == "none" and after.subscription_id is None
    assert revocations(after, made) == [f"main:{sub['id']}:2026-01-20"]
    assert grants_to_make(after, [], T0 + 10 * DAY) == [
        g for g in after.grants if g.key == f"extra:{extra['id']}"
    ]  # the extra credits were paid for separately
    assert after.payments[0].fully_refunded and after.payments[0].refunded_at == T0 + 10 * DAY


def test_a_refunded_yearly_plan_grants_none_of_its_months() -> None:
    world = World()
    world.subscribe("tandem_main_yearly", T0)
    world.refund(world.intent_of(world.invoices[0]), T0 + 5 * DAY)
    state = compute(world.snapshot(), {}, add_months(T0, 3))
    assert state.status == "none" and state.grants == () and len(state.revoked) == 12
    assert next_grant_at(state, T0) is None


def test_a_partial_refund_changes_nothing_but_the_record() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    world.refund(world.intent_of(world.invoices[0]), T0 + DAY, amount=1000)
    state = compute(world.snapshot(), {}, T0 + DAY)
    assert state.status == "active" and state.revoked == () and state.payments[0].refunded_amount == 1000
    assert refundable_payment(state, T0 + DAY) is None  # already partly refunded: an admin decides


def test_nothing_is_refundable_after_the_guarantee_unless_asked() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    state = compute(world.snapshot(), {}, T0 + 31 * DAY)
    assert refundable_payment(state, T0 + 31 * DAY) is None
    assert refundable_payment(state, T0 + 31 * DAY, any_age=True) is not None


# ---------------------------------------------------------------- odd states


def test_two_live_plans_use_one_and_name_the_other() -> None:
    world = World()
    first = world.subscribe("tandem_main_monthly", T0)
    second = world.subscribe("tandem_main_monthly", T0 + 60)  # two checkout tabs, both paid
    state = compute(world.snapshot(), {}, T0 + 120)
    assert state.subscription_id == second["id"] and state.duplicate_subscriptions == (first["id"],)
    assert len(due_main_grants(state, T0 + 120)) == 1  # paid twice, still one month of credits


def test_a_new_payment_is_flagged_until_the_record_has_seen_it() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    state = compute(world.snapshot(), {}, T0)
    assert state.has_new_payment and state.latest_payment_id == world.invoices[0]["id"]
    seen = compute(world.snapshot(), {"last_payment_id": state.latest_payment_id}, T0)
    assert not seen.has_new_payment


def test_a_price_is_read_from_its_metadata_even_after_its_lookup_key_moved() -> None:
    world = World()
    old = world.price("tandem_main_monthly", amount=3900, current=False)
    assert old["lookup_key"] is None
    world.subscribe("tandem_main_monthly", T0, amount=3900)
    state = compute(world.snapshot(), {}, T0)
    assert state.status == "active" and state.main_price_id == old["id"] and len(state.grants) == 1


def test_prices_that_are_not_ours_are_ignored() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    snapshot = world.snapshot()
    everywhere = (  # each place a snapshot carries a price
        snapshot["prices"],
        [item["price"] for sub in snapshot["subscriptions"] for item in sub["items"]["data"]],
        [line["price"] for s in snapshot["checkout_sessions"] for line in s["line_items"]["data"]],
    )
    for collection in everywhere:
        for price in collection:
            price["metadata"] = {}
            price["lookup_key"] = "someone_else"
    state = compute(snapshot, {}, T0)
    assert state.status == "none" and state.grants == ()


def test_the_record_is_plain_json() -> None:
    world = World()
    world.subscribe("tandem_main_monthly", T0)
    world.buy("tandem_feature_3_months", T0, metadata={"feature": "f_1"})
    record = compute(world.snapshot(), {}, T0).to_record()
    assert json.loads(json.dumps(record)) == record
    assert record["status"] == "active" and record["features"][0]["months"] == 3
    assert "grants" not in record and "payments" not in record


# ---------------------------------------------------------------- order and duplication


def _history(seed: int) -> World:
    """A customer history chosen by `seed`: a plan (monthly, yearly or trial), renewals,
    maybe an upgrade, add-ons, extra packs, a fixed term, a feature, maybe refunds."""
    rng = random.Random(seed)
    world = World()
    plan = rng.choice(["tandem_main_monthly", "tandem_main_yearly", "trial", None])
    at = T0
    if plan == "trial":
        sub = world.subscribe("tandem_main_monthly", at, trial_days=7)
    elif plan:
        sub = world.subscribe(plan, at)
    if plan in ("tandem_main_monthly", "trial"):
        for _ in range(rng.randint(0, 3)):
            world.renew(sub, paid=rng.random() > 0.2)
        if rng.random() < 0.5:
            world.change_price(
                sub, "tandem_main_yearly", World.item(sub)["current_period_start"] + rng.randint(1, 27) * DAY
            )
    if plan and rng.random() < 0.3:
        world.cancel_at_period_end(sub, at + 2 * DAY)
    if rng.random() < 0.5:
        addon = world.subscribe("tandem_addon_monthly_3", at + DAY)
        if rng.random() < 0.5:
            world.renew(addon)
    for n in range(rng.randint(0, 3)):
        world.buy(
            rng.choice(["tandem_extra_3", "tandem_extra_6"]),
            at + (n + 1) * 3 * DAY,
            quantity=rng.randint(1, 2),
        )
    if rng.random() < 0.3:
        world.buy("tandem_access_3_months", at + 5 * DAY)
    if rng.random() < 0.3:
        world.buy("tandem_feature_3_months", at + 6 * DAY, metadata={"feature": "f_1"})
    for charge in list(world.charges):
        if rng.random() < 0.15:
            world.refund(charge["payment_intent"], charge["created"] + DAY, amount=rng.choice([None, 100]))
    return world


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), order=st.randoms(use_true_random=False), copies=st.integers(1, 3))
def test_shuffling_or_duplicating_the_snapshot_never_changes_the_result(
    seed: int, order: random.Random, copies: int
) -> None:
    snapshot = _history(seed).snapshot()
    now = add_months(T0, 5)
    expected = compute(snapshot, {}, now)

    mixed = json.loads(json.dumps(snapshot))
    for name, items in mixed.items():
        grown = [json.loads(json.dumps(item)) for item in items for _ in range(order.randint(1, copies))]
        order.shuffle(grown)
        mixed[name] = grown
    for invoice in mixed["invoices"]:
        order.shuffle(invoice["lines"]["data"])
    assert compute(mixed, {}, now) == expected
    assert grants_to_make(compute(mixed, {}, now), [], now) == grants_to_make(expected, [], now)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_never_two_main_grants_at_once_and_keys_are_unique(seed: int) -> None:
    state = compute(_history(seed).snapshot(), {}, add_months(T0, 14))
    main = sorted((g for g in state.grants if g.kind == "main"), key=lambda g: g.valid_from)
    for earlier, later in zip(main, main[1:], strict=False):
        assert earlier.valid_to <= later.valid_from
    assert len({g.key for g in state.grants}) == len(state.grants)
    assert not {g.key for g in state.grants} & set(state.revoked)
    assert all(g.valid_from < g.valid_to and g.amount > 0 for g in state.grants)


def info_of(state, now: int) -> dict:
    """The Credits info a member in this billing state reads (no credits held)."""
    from tandem.domain import entitlements
    from tandem.services.entitlements import cancels_of

    record = state.to_record()
    stripe = entitlements.StripePart.of(state.status, state.valid_to, record)
    rights = entitlements.rights(
        entitlements.plan_of(stripe, entitlements.TandemPart(), now), [], now, stripe=stripe
    )
    return entitlements.credits_info(rights, [], now, stripe=stripe, cancels=cancels_of(record))


def credit_iso(epoch: int) -> str:
    from tandem.domain.times import iso

    return iso(epoch)
