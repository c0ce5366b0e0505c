"""The one owner of every right (tandem.domain.entitlements, issue 21): each account type as a
member meets it, and random histories of Stripe states, Tandem grants, gifts and spends in
which the answers never contradict each other and credits are never made or lost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tandem.domain import entitlements as ent
from tandem.domain.billing import add_months
from tandem.domain.credits import Bucket, pick
from tandem.domain.times import iso

DAY = 86400
NOW = 1_795_000_000  # 2026-11-18
MONTH_END = add_months(NOW - 3 * DAY, 1)


def stripe(status: str, **kw) -> ent.StripePart:
    base = {
        "plan": "monthly",
        "period_start": NOW - 3 * DAY,
        "period_end": MONTH_END,
        "valid_to": MONTH_END,
        "has_customer": status != "none",
    }
    base.update(kw)
    return ent.StripePart(status=status, **base)


def info(part: ent.StripePart, tandem: ent.TandemPart | None = None, buckets=(), **kw) -> dict:
    tandem = tandem or ent.TandemPart()
    plan = ent.plan_of(part, tandem, NOW)
    rights = ent.rights(plan, list(buckets), NOW, stripe=part, tandem=tandem, **kw)
    return ent.credits_info(rights, list(buckets), NOW, stripe=part, feature=kw.get("feature"))


def six(kind: str = "main", available: int = 6) -> list[Bucket]:
    return [Bucket("b1", kind, 6 if kind != "gifted" else 3, available, NOW - 3 * DAY, NOW + 27 * DAY)]


def test_a_monthly_plan_renews_on_its_billing_date_with_its_credits() -> None:
    got = info(stripe("active"), buckets=six())
    assert got["plan"]["kind"] == "monthly" and got["plan"]["renews"] is True
    assert got["plan"]["renewsOn"] == iso(MONTH_END) and got["plan"]["nextCredits"] == {
        "on": iso(MONTH_END),
        "credits": 6,
    }
    assert (got["canSend"], got["namesShown"], got["productsAllowed"], got["addonsAllowed"]) == (
        True,
        True,
        False,
        True,
    )
    assert got["canUpgradeToYearly"] is True and got["notAllowedMessage"] is None


def test_a_yearly_plan_renews_on_its_yearly_date_and_its_credits_come_monthly() -> None:
    start = NOW - 40 * DAY
    year_end = add_months(start, 12)
    got = info(stripe("active", plan="yearly", period_start=start, period_end=year_end, valid_to=year_end))
    assert got["isYearly"] is True and got["plan"]["renewsOn"] == iso(year_end)
    assert got["plan"]["nextCredits"] == {"on": iso(add_months(start, 2)), "credits": 6}
    assert got["canUpgradeToYearly"] is False


def test_a_fixed_term_ends_and_says_so() -> None:
    start = NOW - 10 * DAY
    got = info(stripe("fixed_term", plan="fixed_term", period_start=start, valid_to=start + 90 * DAY))
    assert got["plan"]["renews"] is False and got["plan"]["endsOn"] == iso(start + 90 * DAY)
    assert got["plan"]["nextCredits"] == {"on": iso(start + 30 * DAY), "credits": 6}
    assert "does not renew" in got["plan"]["description"]
    assert got["productsAllowed"] is False and got["recurringAddonsAllowed"] is False


def test_gifted_credits_can_be_spent_show_no_names_and_never_renew() -> None:
    got = info(stripe("none"), buckets=six("gifted", 3))
    assert got["giftedOnly"] is True and got["plan"]["state"] == "gifted"
    assert got["canSend"] is True and got["canPitch"] is True and got["notAllowedMessage"] is None
    assert got["namesShown"] is False
    assert got["plan"]["renews"] is False and got["plan"]["nextCredits"] is None
    assert got["productsAllowed"] is True and got["addonsAllowed"] is False
    assert got["trialOffered"] is True


def test_credits_left_after_a_plan_ended_stay_spendable() -> None:
    got = info(stripe("none"), buckets=six("add-on-one-time", 9))
    assert got["canSend"] is True and got["giftedOnly"] is False and got["namesShown"] is False


def test_no_plan_and_no_credits_needs_a_subscription() -> None:
    got = info(stripe("none"))
    assert (
        got["canSend"] is False and got["notAllowedMessage"] == "You need to buy a subscription to continue."
    )
    assert got["plan"]["description"] == "You don't have a subscription yet."


def test_a_plan_with_no_credits_left_is_out_of_credits() -> None:
    got = info(stripe("active"), buckets=six(available=0))
    assert (
        got["canSend"] is True and got["notAllowedMessage"] == "You're out of credits. Buy more to continue."
    )


def test_pending_approval_reads_as_one_story() -> None:
    """The named case: billing and credits once answered differently for a pending member."""
    got = info(stripe("pending_approval"), buckets=six())
    assert got["pendingApproval"] is True and got["active"] is False and got["hasSubscription"] is True
    assert got["productsAllowed"] is False  # never offered a second plan
    assert got["addonsAllowed"] is True
    assert got["namesShown"] is True and got["canSend"] is True
    assert "waiting for approval" in got["plan"]["description"]


def test_feature_only_reads_as_one_story() -> None:
    feature = {"_id": "f1", "paid": False, "expires": None, "hasHadLive": False}
    got = info(stripe("none"), feature_only=True, feature=feature)
    assert got["featureOnly"] is True and got["plan"]["state"] == "feature_only"
    assert got["canSend"] is False and got["productsAllowed"] is False and got["addonsAllowed"] is False
    assert got["featureProductsAllowed"] is True and got["trialOffered"] is False
    assert (
        got["notAllowedMessage"] == "Sending connection requests is not included in a feature-only account."
    )
    assert got["areas"]["matches"] is False and got["areas"]["requests"] is False
    live = info(stripe("none"), feature_only=True, feature={**feature, "paid": True, "hasHadLive": True})
    assert live["areas"]["requests"] is True and live["areas"]["billing"] is True
    assert live["featureProductsAllowed"] is False


def test_a_stripe_trial_ends_then_bills_unless_cancelled() -> None:
    trial_end = NOW + 10 * DAY
    got = info(stripe("trialling", trial_end=trial_end, period_end=trial_end, valid_to=trial_end))
    assert got["trialling"] is True and got["plan"]["kind"] == "trial"
    assert got["plan"]["trialEndsOn"] == iso(trial_end) and got["plan"]["renewsOn"] == iso(trial_end)
    assert got["productsAllowed"] is False and got["trialOffered"] is False
    cancelled = info(
        stripe(
            "cancelled", trial_end=trial_end, cancel_at=trial_end, valid_to=trial_end, period_end=trial_end
        )
    )
    assert cancelled["plan"]["renews"] is False and cancelled["plan"]["endsOn"] == iso(trial_end)
    assert cancelled["plan"]["kind"] == "trial"


def test_an_admin_trial_is_a_plan_without_a_card_and_buying_converts_it() -> None:
    trial = ent.TandemPart(grant=ent.Grant("trial", NOW - DAY, NOW + 13 * DAY, by="admin"), trial_used=True)
    got = info(stripe("none"), trial, buckets=six("main", 3))
    assert got["trialling"] is True and got["plan"]["source"] == "tandem"
    assert got["namesShown"] is True and got["canSend"] is True
    assert got["productsAllowed"] is True and got["trialOffered"] is False  # buy the plan to keep it
    ended = info(
        stripe("none"), ent.TandemPart(grant=ent.Grant("trial", NOW - 20 * DAY, NOW - DAY), trial_used=True)
    )
    assert ended["plan"]["state"] == "none" and ended["trialOffered"] is False


def test_a_stripe_plan_takes_over_a_granted_one_and_a_granted_one_survives_a_stripe_none() -> None:
    granted = ent.TandemPart(grant=ent.Grant("plan", NOW - DAY, None, by="import"))
    assert info(stripe("none"), granted)["plan"]["source"] == "tandem"
    assert info(stripe("none"), granted)["namesShown"] is True
    assert info(stripe("active"), granted)["plan"]["source"] == "stripe"


# ---------------------------------------------------------------- random histories

STATUSES = ["none", "pending_approval", "active", "trialling", "cancelled", "fixed_term", "feature_only"]
stripe_parts = st.builds(
    lambda status, plan, ends, trial, used: ent.StripePart(
        status=status,
        plan="fixed_term" if status == "fixed_term" else plan,
        period_start=NOW - 5 * DAY,
        period_end=NOW + ends * DAY,
        valid_to=NOW + ends * DAY,
        cancel_at=NOW + ends * DAY if status == "cancelled" else None,
        trial_end=NOW + ends * DAY if trial else None,
        trial_used=used or trial,
        has_customer=status != "none",
    ),
    st.sampled_from(STATUSES),
    st.sampled_from(["monthly", "yearly"]),
    st.integers(-30, 400),
    st.booleans(),
    st.booleans(),
)
grants = st.one_of(
    st.none(),
    st.builds(
        lambda kind, start, length: ent.Grant(
            kind, NOW + start * DAY, None if length is None else NOW + length * DAY
        ),
        st.sampled_from(["plan", "trial"]),
        st.integers(-60, 5),
        st.one_of(st.none(), st.integers(-30, 60)),
    ),
)
actions = st.lists(
    st.one_of(
        st.tuples(st.just("gift"), st.integers(1, 5)),
        st.tuples(st.just("spend"), st.sampled_from([1, 3])),
        st.tuples(st.just("stripe"), stripe_parts),
        st.tuples(st.just("grant"), grants),
    ),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(first=stripe_parts, grant=grants, steps=actions, feature_only=st.booleans())
def test_random_histories_never_contradict_and_never_make_or_lose_credits(first, grant, steps, feature_only):
    part, tandem = first, ent.TandemPart(grant=grant, trial_used=grant is not None and grant.kind == "trial")
    buckets: list[Bucket] = []
    given_total, spent_total = 0, 0
    for n, (kind, value) in enumerate(steps):
        if kind == "gift":
            buckets.append(Bucket(f"g{n}", "gifted", value, value, NOW - DAY, NOW + 30 * DAY))
            given_total += value
        elif kind == "stripe":
            before = tandem
            part = value
            assert tandem == before  # a Stripe sync writes the Stripe part only
        elif kind == "grant":
            tandem = ent.TandemPart(
                grant=value, trial_used=tandem.trial_used or (value is not None and value.kind == "trial")
            )
        plan = ent.plan_of(part, tandem, NOW)
        rights = ent.rights(plan, buckets, NOW, feature_only=feature_only, stripe=part, tandem=tandem)
        available = sum(b.available for b in buckets)
        if kind == "spend":
            refusal = rights.refusal(value, available)
            chosen = pick(buckets, value, NOW)
            if refusal is None and chosen is not None:
                taken = {b.bucket_id: t for b, t in chosen}
                buckets = [
                    Bucket(
                        b.bucket_id,
                        b.kind,
                        b.total,
                        b.available - taken.get(b.bucket_id, 0),
                        b.valid_from,
                        b.valid_to,
                    )
                    for b in buckets
                ]
                spent_total += value
            else:
                assert refusal is not None or chosen is None
        rights = ent.rights(plan, buckets, NOW, feature_only=feature_only, stripe=part, tandem=tandem)
        got = ent.credits_info(rights, buckets, NOW, stripe=part)
        # credits are never made or lost: what is left is what was given less what was spent
        assert got["available"] == given_total - spent_total >= 0
        # the answers never contradict each other
        assert got["namesShown"] <= got["hasSubscription"]  # names only with a plan in force
        assert not (got["pendingApproval"] and got["productsAllowed"])  # the named case
        assert not (got["pendingApproval"] and got["active"])
        assert got["hasSubscription"] or not got["addonsAllowed"]
        assert not got["recurringAddonsAllowed"] or got["addonsAllowed"]
        assert not got["trialOffered"] or (got["productsAllowed"] and not got["hasSubscription"])
        assert not (got["giftedOnly"] and got["plan"]["renews"])  # gifts never renew
        assert got["canPitch"] == got["canSend"]
        if not got["canSend"]:
            assert got["notAllowedMessage"] in (
                ent.NEEDS_SUBSCRIPTION,
                "Sending connection requests is not included in a feature-only account.",
            )
        elif got["available"] < 1:
            assert got["notAllowedMessage"] == ent.OUT_OF_CREDITS
        if feature_only:
            assert not (got["canSend"] or got["productsAllowed"] or got["addonsAllowed"] or got["namesShown"])
        if got["canUpgradeToYearly"]:
            assert got["plan"]["kind"] == "monthly" and got["plan"]["renews"] and got["active"]
        if got["plan"]["renews"]:
            assert got["plan"]["renewsOn"] is not None and got["plan"]["source"] == "stripe"
