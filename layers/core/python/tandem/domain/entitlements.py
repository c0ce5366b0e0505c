"""Who may do what with their account: the one owner of every right SPEC sections 1, 4 and 6
give (issue 21). No I/O. Services read the account and ask here; the web reads the flags the
credits info carries and re-derives none of them.

An account's state has two sources, kept apart and combined only here:
- **Stripe** (`StripePart`): what the billing sync wrote from the customer's Stripe state:
  the plan status (tandem.domain.billing.STATUSES), its kind, dates, approval. A Stripe sync
  rewrites only this part.
- **Tandem** (`TandemPart`): what Tandem grants itself: a plan or a free trial an admin
  granted (or an imported member's plan), and whether the account has had its free trial.
  Gifts are credits in the ledger (kind `gifted`). No Stripe sync ever touches this part.

The plan in force (`plan_of`) is the live Stripe plan when there is one (it is paid for), else
a Tandem-granted plan or trial still running, else nothing. Then, from the plan and the
credits the account holds:
- names shown: a plan in force, awaiting approval included (the member has paid; names are
  masked or shown everywhere by this one rule); gifts and credits alone do not show names;
- may send a request or pitch (1 credit) or feature (3 credits): a plan in force, or any
  usable credits (gifted, or left after a plan ended); without either the answer is
  "You need to buy a subscription to continue."; with a plan and no credits, "You're out of
  credits. Buy more to continue.";
- products (a plan) offered when no plan is in force, or only a Tandem trial (buying converts
  it); add-ons on top of a plan in force; monthly add-ons only on a plan that renews;
- the free trial offered once per account, to a member with no plan who never had one;
- what renews and when: a Stripe monthly or yearly plan renews on its billing date (a yearly
  plan's monthly credits have their own date), a cancelled plan or a fixed term ends, a
  trial ends (and then bills, unless cancelled), a gift never renews.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tandem.domain import account_types
from tandem.domain import credits as credit_rules
from tandem.domain.catalogue import Viewer
from tandem.domain.months import add_months
from tandem.domain.pitch import feature_done
from tandem.domain.times import iso
from tandem.domain.trial import TRIAL_CREDITS, TRIAL_DAYS, TRIAL_TERMS

DAY = 86400

# Brand names are shown in Matches on this platform (SPEC section 1), to subscribers. Here, not
# in brand_profile, so the dashboard's showingBrandNamesGlobal does not load brand_profile.
NAMES_SHOWN_GLOBALLY = True

# the free trial's terms are one decision in domain/trial.py
# ---------------------------------------------------------------- states

NONE = "none"
PENDING = "pending_approval"
ACTIVE = "active"
TRIALLING = "trialling"
CANCELLED = "cancelled"
FIXED_TERM = "fixed_term"
GIFTED = "gifted"
FEATURE_ONLY = "feature_only"
STATES = (NONE, PENDING, ACTIVE, TRIALLING, CANCELLED, FIXED_TERM, GIFTED, FEATURE_ONLY)

# The Stripe statuses that are a plan in force (`cancelled` only until its paid period ends).
STRIPE_PLANS = frozenset({PENDING, ACTIVE, TRIALLING, CANCELLED, FIXED_TERM})
# A plan in force (either source): names shown, add-ons, no second plan on offer.
IN_FORCE = frozenset({PENDING, ACTIVE, TRIALLING, CANCELLED, FIXED_TERM})

NEEDS_SUBSCRIPTION = "You need to buy a subscription to continue."
OUT_OF_CREDITS = credit_rules.OUT_OF_CREDITS

GRANT_KINDS = ("plan", "trial")


@dataclass(frozen=True)
class StripePart:
    """The billing sync's part (Account.subscription_status / subscription_valid_to and the
    billing record it writes)."""

    status: str = NONE
    plan: str | None = None  # monthly | yearly | fixed_term
    valid_to: int | None = None
    period_start: int | None = None
    period_end: int | None = None
    cancel_at: int | None = None
    cancelled_at: int | None = None
    trial_end: int | None = None
    main_product_id: str | None = None
    payment_failed: bool = False
    trial_used: bool = False
    has_customer: bool = False
    feature_paid: bool = False  # a feature product paid (feature-only accounts)

    @classmethod
    def of(
        cls,
        status: str | None,
        valid_to: Any,
        record: Mapping[str, Any] | None,
        *,
        has_customer: bool = False,
    ) -> StripePart:
        record = record or {}

        def num(key: str) -> int | None:
            value = record.get(key)
            return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

        return cls(
            status=status or NONE,
            plan=record.get("plan"),
            valid_to=int(valid_to) if valid_to is not None else num("valid_to"),
            period_start=num("period_start"),
            period_end=num("period_end"),
            cancel_at=num("cancel_at"),
            cancelled_at=num("cancelled_at"),
            trial_end=num("trial_end"),
            main_product_id=record.get("main_product_id"),
            payment_failed=bool(record.get("payment_failed")),
            trial_used=bool(record.get("trial_used")),
            has_customer=has_customer,
            feature_paid=any(not f.get("refunded") for f in record.get("features") or []),
        )


@dataclass(frozen=True)
class Grant:
    """A plan or free trial Tandem granted (an admin, an import): from `since` until `until`
    (None: until an admin ends it), `credits` each month of it."""

    kind: str  # plan | trial
    since: int
    until: int | None
    by: str = ""
    credits: int = credit_rules.MAIN_CREDITS_PER_MONTH
    note: str = ""

    def running(self, now: int) -> bool:
        return self.since <= now and (self.until is None or now < self.until)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "since": self.since,
            "until": self.until,
            "by": self.by,
            "credits": self.credits,
            "note": self.note,
        }


@dataclass(frozen=True)
class TandemPart:
    """What Tandem grants itself (Account.tandem_grants); never written by a Stripe sync."""

    grant: Grant | None = None
    trial_used: bool = False

    @classmethod
    def of(cls, stored: Mapping[str, Any] | None) -> TandemPart:
        stored = stored or {}
        raw = stored.get("grant")
        grant = None
        if isinstance(raw, Mapping) and raw.get("kind") in GRANT_KINDS:
            grant = Grant(
                kind=raw["kind"],
                since=int(raw.get("since") or 0),
                until=int(raw["until"]) if raw.get("until") is not None else None,
                by=str(raw.get("by") or ""),
                credits=int(raw.get("credits") or credit_rules.MAIN_CREDITS_PER_MONTH),
                note=str(raw.get("note") or ""),
            )
        return cls(
            grant=grant,
            trial_used=bool(stored.get("trial_used")) or (grant is not None and grant.kind == "trial"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"grant": self.grant.to_json() if self.grant else None, "trial_used": self.trial_used}


@dataclass(frozen=True)
class Plan:
    """The plan in force, whichever source gave it."""

    state: str  # one of STATES except gifted / feature_only (those come from credits and access)
    kind: str | None = None  # monthly | yearly | fixed_term | trial | granted
    source: str | None = None  # stripe | tandem
    renews_on: int | None = None  # when it bills again (Stripe plans that renew)
    ends_on: int | None = None  # when access ends (cancelled, fixed term, a granted plan's end)
    trial_ends_on: int | None = None
    next_credits_on: int | None = None  # when the plan's next month of credits begins
    credits_per_month: int = credit_rules.MAIN_CREDITS_PER_MONTH

    @property
    def in_force(self) -> bool:
        return self.state in IN_FORCE


def _next_month(anchor: int | None, now: int, until: int | None) -> int | None:
    """The first whole-month step from `anchor` after `now` (before `until`)."""
    if anchor is None:
        return None
    k = 1
    while True:
        at = add_months(anchor, k)
        if until is not None and at >= until:
            return None
        if at > now:
            return at
        k += 1
        if k > 1200:
            return None


def plan_of(stripe: StripePart, tandem: TandemPart, now: int) -> Plan:
    """The plan in force at `now`: a live Stripe plan first, then a Tandem grant, else none."""
    status = stripe.status
    if status == CANCELLED and (stripe.valid_to is None or now >= stripe.valid_to):
        status = NONE  # a cancelled plan counts until its paid period ends
    if status in STRIPE_PLANS:
        return _stripe_plan(stripe, status, now)
    grant = tandem.grant
    if grant is not None and grant.running(now):
        if grant.kind == "trial":
            return Plan(
                state=TRIALLING,
                kind="trial",
                source="tandem",
                ends_on=grant.until,
                trial_ends_on=grant.until,
                credits_per_month=grant.credits,
            )
        return Plan(
            state=ACTIVE,
            kind="granted",
            source="tandem",
            ends_on=grant.until,
            next_credits_on=_next_month(grant.since, now, grant.until),
            credits_per_month=grant.credits,
        )
    return Plan(state=NONE)


def _stripe_plan(stripe: StripePart, status: str, now: int) -> Plan:
    kind = stripe.plan
    if status == FIXED_TERM or kind == "fixed_term":
        start = stripe.period_start
        step = 30 * DAY
        upcoming = None
        if start is not None and stripe.valid_to is not None:
            at = start + step
            while at <= now:
                at += step
            upcoming = at if at < stripe.valid_to else None
        return Plan(
            state=status,
            kind="fixed_term",
            source="stripe",
            ends_on=stripe.valid_to,
            next_credits_on=upcoming,
        )
    if status == TRIALLING or (stripe.trial_end is not None and now < stripe.trial_end):
        cancelled = stripe.cancel_at is not None
        return Plan(
            state=status,
            kind="trial",
            source="stripe",
            renews_on=None if cancelled else stripe.trial_end,
            ends_on=stripe.cancel_at if cancelled else None,
            trial_ends_on=stripe.trial_end,
            next_credits_on=None if cancelled else stripe.trial_end,
        )
    ends = stripe.valid_to if status == CANCELLED else None
    if kind == "yearly":
        next_credits = _next_month(stripe.period_start, now, ends or stripe.period_end)
        if next_credits is None and ends is None:
            next_credits = stripe.period_end
    else:
        next_credits = None if ends is not None else stripe.period_end
    return Plan(
        state=status,
        kind=kind or "monthly",
        source="stripe",
        renews_on=None if ends is not None else stripe.period_end,
        ends_on=ends,
        next_credits_on=next_credits,
    )


# ---------------------------------------------------------------- rights


@dataclass(frozen=True)
class Rights:
    """Every right of the account at one moment (SPEC sections 1, 4 and 6)."""

    state: str  # STATES: the account type as the member reads it
    plan: Plan
    feature_only: bool
    names_shown: bool
    can_send: bool  # send a connection request (holds 1) or pitch (1)
    can_feature: bool  # feature in the Pitch Area with credits (3)
    not_allowed_message: str | None
    products_allowed: bool  # the plan products (main, 3-month access)
    addons_allowed: bool  # one-time extra credits
    recurring_addons_allowed: bool
    feature_products_allowed: bool  # a feature-only account paying for its feature
    trial_offered: bool
    has_billing_account: bool  # a Stripe customer: the payment portal can open
    upgrade_to_yearly: bool
    areas: Mapping[str, bool]  # the menu areas this account includes

    def refusal(self, cost: int, available: int) -> str | None:
        """Why an action costing `cost` credits is refused, or None."""
        if not self.can_send:
            return self.not_allowed_message or NEEDS_SUBSCRIPTION
        if available < cost:
            return OUT_OF_CREDITS
        return None

    @property
    def awaits_approval(self) -> bool:
        return self.plan.state == PENDING

    def viewer(self) -> Viewer:
        """What the catalogue offers (tandem.domain.catalogue.Viewer): these rights, no others."""
        return Viewer(
            plans=self.products_allowed,
            extras=self.addons_allowed,
            recurring=self.recurring_addons_allowed,
            features=self.feature_products_allowed,
            trial=self.trial_offered,
        )


def names_shown(plan: Plan, feature_only: bool) -> bool:
    """Other brands' names in Matches, brand pages, the Pitch Area and requests sent (unless a
    brand hides its name): with a plan in force, awaiting approval included; never to a
    feature-only account (it has no Matches). The one definition: Rights.names_shown is it."""
    return NAMES_SHOWN_GLOBALLY and plan.in_force and not feature_only


def may_require_approval(plan: Plan, feature_only: bool, approval: str | None) -> bool:
    """An admin may make a member's next plan wait for a team member's approval: no plan in
    force, not asked already (or refused), and not a feature-only account (it buys features)."""
    return not plan.in_force and not feature_only and approval is None


PLAN_IN_FORCE = "This member already has a plan. End it before granting another."
TRIAL_HAD = "This member has already had their free trial."
TRIAL_FEATURE_ONLY = "A feature-only account buys features; it has no free trial."


def trial_refusal(plan: Plan, feature_only: bool, had_trial: bool) -> str | None:
    """Why the free trial may not be given to this member (an admin's "Grant free trial"; the
    trial Billing offers asks the same), or None: no plan in force, not a feature-only account
    (it buys features), and never a trial before, from either source."""
    if plan.in_force:
        return PLAN_IN_FORCE
    if feature_only:
        return TRIAL_FEATURE_ONLY
    if had_trial:
        return TRIAL_HAD
    return None


def is_admin(access: str | None) -> bool:
    """The caller may use the admin console (its user type): the right the door applies to the
    admin routes (tandem.services.viewer.ADMIN)."""
    return account_types.is_admin(access)


ADMINS_ONLY = "Only Tandem admins can do that"


def is_feature_only(access: str | None, stripe: StripePart) -> bool:
    """The account is feature-only: its user type says so, or billing's sync found only a paid
    feature product (tandem.domain.billing)."""
    return account_types.is_feature_only(access) or stripe.status == FEATURE_ONLY


def rights(
    plan: Plan,
    buckets: Sequence[credit_rules.Bucket],
    now: int,
    *,
    feature_only: bool = False,
    feature: Mapping[str, Any] | None = None,
    stripe: StripePart | None = None,
    tandem: TandemPart | None = None,
) -> Rights:
    """The account's rights from its plan in force, the credits it holds, its user type and
    (feature-only accounts) the brand's current feature (Credits info's featureDone)."""
    stripe = stripe or StripePart()
    tandem = tandem or TandemPart()
    live = [b for b in buckets if b.valid_from <= now < b.valid_to]
    usable = sum(b.available for b in live)
    gifted_only = bool(live) and all(b.kind == "gifted" for b in live)
    feature_only = feature_only or is_feature_only(None, stripe)
    in_force = plan.in_force
    if feature_only:
        state = FEATURE_ONLY
    elif in_force:
        state = plan.state
    elif live and gifted_only:
        state = GIFTED
    else:
        state = NONE
    can_send = not feature_only and (in_force or usable > 0)
    if feature_only:
        not_allowed = account_types.refusal(account_types.FEATURE_ONLY, account_types.SEND_REQUESTS)
    elif not can_send:
        not_allowed = NEEDS_SUBSCRIPTION
    elif usable < credit_rules.REQUEST_HOLD:
        not_allowed = OUT_OF_CREDITS
    else:
        not_allowed = None
    tandem_trial = plan.source == "tandem" and plan.kind == "trial"
    products = not feature_only and (not in_force or tandem_trial)
    renewing = in_force and plan.renews_on is not None and plan.source == "stripe"
    feature_unpaid = _feature_purchasable(feature, now)
    had_live = bool(feature and feature.get("hasHadLive"))
    access = account_types.FEATURE_ONLY if feature_only else "member"
    areas = {area: account_types.includes(access, area) for area in account_types.AREAS}
    # A feature-only member sees Requests (their Pitches Received) and Billing once a feature
    # of theirs has been live (SPEC section 2).
    areas["requests"] = not feature_only or had_live
    areas["billing"] = not feature_only or had_live or feature_unpaid or stripe.feature_paid
    return Rights(
        state=state,
        plan=plan,
        feature_only=feature_only,
        names_shown=names_shown(plan, feature_only),
        can_send=can_send,
        can_feature=not feature_only and (in_force or usable > 0),
        not_allowed_message=not_allowed,
        products_allowed=products,
        addons_allowed=not feature_only and in_force,
        recurring_addons_allowed=not feature_only
        and in_force
        and plan.state in (ACTIVE, TRIALLING, PENDING)
        and plan.source == "stripe"
        and plan.ends_on is None,
        feature_products_allowed=feature_only and feature_unpaid,
        trial_offered=(
            trial_refusal(plan, feature_only, stripe.trial_used or tandem.trial_used) is None
            and stripe.status not in STRIPE_PLANS
        ),
        has_billing_account=stripe.has_customer,
        upgrade_to_yearly=(
            renewing and plan.kind == "monthly" and plan.state == ACTIVE and not stripe.payment_failed
        ),
        areas=areas,
    )


def _feature_purchasable(feature: Mapping[str, Any] | None, now: int) -> bool:
    """SPEC section 6 (feature-only): purchase options show only when a feature exists, is
    unpaid and not expired. `feature`: Credits info's featureDone (expires ISO 8601 or None)."""
    if not feature or not feature.get("_id") or feature.get("paid"):
        return False
    expires = feature.get("expires")
    if isinstance(expires, str) and expires:
        try:
            at = int(datetime.fromisoformat(expires.replace("Z", "+00:00")).timestamp())
        except ValueError:
            return True
        return at > now
    return True


# ---------------------------------------------------------------- the credits info


def plan_description(r: Rights) -> str:
    """One true sentence about the account's plan (the Billing page's lead line)."""
    plan = r.plan
    if r.feature_only:
        return "Your account features your brand in the Pitch Area."
    if plan.state == PENDING:
        return (
            "Your subscription is waiting for approval, normally within 24 hours. "
            "Requests you send meanwhile go out once it is approved."
        )
    if plan.kind == "trial":
        return "You're on a free trial."
    if plan.kind == "fixed_term":
        return "You have fixed-term access. It does not renew."
    if plan.kind == "granted":
        return "You have a membership granted by the Tandem team."
    if plan.state == CANCELLED:
        return "Your subscription is cancelled."
    if plan.in_force:
        return (
            "You have a yearly subscription." if plan.kind == "yearly" else "You have a monthly subscription."
        )
    if r.state == GIFTED:
        return "You have gifted credits, without a subscription. Gifted credits do not renew."
    if r.can_send:
        return "You have credits left to use, without a subscription."
    return "You don't have a subscription yet."


def credits_info(
    r: Rights,
    buckets: Sequence[credit_rules.Bucket],
    now: int,
    *,
    stripe: StripePart | None = None,
    feature: Mapping[str, Any] | None = None,
    products: Mapping[str, Any] | None = None,
    has_new_payment: bool = False,
    cancels: Mapping[str, Any] | None = None,
    main_product_id: str | None = None,
) -> dict[str, Any]:
    """SPEC section 3's Credits info, every field, plus the flags the web reads instead of
    re-deriving a rule (canSend, canFeature, namesShown, trialOffered, areas, plan)."""
    stripe = stripe or StripePart()
    ledger = credit_rules.summary(buckets, now)
    plan = r.plan
    upcoming = ledger["next"]
    return {
        "available": ledger["available"],
        "total": ledger["total"],
        "totalMain": ledger["totalMain"],
        "totalAddOns": ledger["totalAddOns"],
        "active": plan.in_force and plan.state != PENDING,
        "trialling": plan.kind == "trial" and plan.in_force,
        "pendingApproval": plan.state == PENDING,
        "giftedOnly": r.state == GIFTED,
        "fixedTerm": plan.kind == "fixed_term",
        "featureOnly": r.feature_only,
        "isYearly": plan.kind == "yearly",
        "hasSubscription": plan.in_force,
        "hasNewPayment": has_new_payment,
        "productsAllowed": r.products_allowed,
        "addonsAllowed": r.addons_allowed,
        "recurringAddonsAllowed": r.recurring_addons_allowed,
        "featureProductsAllowed": r.feature_products_allowed,
        "mainSubscripionProductId": main_product_id,  # sic: SPEC's field name
        "products": dict(products or {}),
        "cancels": dict(cancels) if cancels else None,
        "expires": {
            "subscription": iso(plan.ends_on or plan.renews_on),
            "period": iso(ledger["expires"]["period"]),
        },
        "next": {"to": iso(upcoming["to"]), "credits": upcoming["credits"]} if upcoming else None,
        "notAllowedMessage": r.not_allowed_message,
        "featureDone": dict(feature) if feature else _no_feature(now),
        "addOns": [{**a, "valid": {"to": iso(a["valid"]["to"])}} for a in ledger["addOns"]],
        # The flags the web reads (issue 21): one owner, no rule spelled twice.
        "canSend": r.can_send,
        "canPitch": r.can_send,
        "canFeature": r.can_feature,
        "namesShown": r.names_shown,
        "trialOffered": r.trial_offered,
        "trial": {"days": TRIAL_DAYS, "credits": TRIAL_CREDITS, "terms": list(TRIAL_TERMS)},
        "hasBillingAccount": r.has_billing_account,
        # The payment portal manages a subscription (renewing, or cancelled until its end);
        # otherwise it only shows payments and invoices (a fixed term, one-off packs).
        "canManageSubscription": r.has_billing_account
        and plan.source == "stripe"
        and plan.in_force
        and plan.kind in ("monthly", "yearly", "trial"),
        "canUpgradeToYearly": r.upgrade_to_yearly,
        "paymentFailed": stripe.payment_failed,
        "areas": dict(r.areas),
        "plan": {
            "state": r.state,
            "kind": plan.kind if plan.in_force else ("gifted" if r.state == GIFTED else None),
            "source": plan.source if plan.in_force else None,
            "description": plan_description(r),
            "renews": plan.renews_on is not None,
            "renewsOn": iso(plan.renews_on),
            "endsOn": iso(plan.ends_on),
            "trialEndsOn": iso(plan.trial_ends_on),
            "nextCredits": (
                {"on": iso(plan.next_credits_on), "credits": plan.credits_per_month}
                if plan.next_credits_on is not None
                else None
            ),
        },
    }


def _no_feature(now: int) -> dict[str, Any]:
    """featureDone for a brand with no Pitch Area feature (the domain's one shape of it)."""
    return feature_done(None, paid_by_product=False, has_had_live=False, now=now)
