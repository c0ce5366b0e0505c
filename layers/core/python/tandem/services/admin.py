"""The admin console (issue 12): members, the approval queue, refunds under the 30-day
money-back guarantee, gifted credits, issue reports and the site settings. Every action is
recorded in the audit log (tandem.services.audit) once it succeeded.

Pending approval: an account whose `billing_approval` is `required` reads its paid plan as
`pending_approval` (tandem.domain.billing); its requests are held (`awaiting_approval`). What
makes an account `required`: the site setting `approveNewMembers` at sign-up (off by default),
or an admin ("Require approval") for an account without a live plan. Approving syncs the
plan (it reads active), releases the held requests and emails the member; refusing cancels the
held requests (their credits come back), refunds the plan's payment, cancels the subscription
in Stripe and emails the member the reason.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Any

from tandem.domain import billing as billing_rules
from tandem.domain import catalogue
from tandem.domain import credits as credit_rules
from tandem.domain.entitlements import Rights
from tandem.domain.times import iso
from tandem.errors import Conflict, FieldErrors, NotFound, ValidationError
from tandem.integrations import stripe_client
from tandem.services import (
    accounts,
    audit,
    billing,
    credits,
    entitlements,
    mailer,
    notify,
    requests,
    tandem_grants,
)
from tandem.store import admin as store
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.models import Account, User, update_only

PAGE = 25
REASON_MAX = 1000
MESSAGE_MAX = 300
NOT_WAITING = "This member's subscription is not waiting for approval."
HAS_PLAN = "This member already has a plan; approval applies to a new plan."
NO_APPROVAL = "This member's next plan already waits for approval, or they have no plan to approve."
NOTHING_PAID = "This member has not paid anything yet."
GONE_CURSOR = "This list has changed. Please reload it."
PLAN_NAMES = {"monthly": "monthly", "yearly": "yearly", "fixed_term": "3-month access"}


def _account(account_id: Any, consistent: bool = True) -> Account:
    if not isinstance(account_id, str) or not account_id.isalnum() or len(account_id) > 64:
        raise NotFound("Account not found")
    account = Account.find(account_id, consistent=consistent)
    if account is None:
        raise NotFound("Account not found")
    return account


def _cursor(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 2000:
        raise ValidationError(GONE_CURSOR)
    return value


def plan_json(account: Account | None, holding: Rights | None = None) -> dict[str, Any]:
    """The account's plan for the console. With `holding` (the account's rights, from
    entitlements.rights with its credits), the status is what the member holds: gifted credits
    without a plan, or a feature-only account, read as such instead of "none"."""
    record = (account.billing if account else None) or {}
    plan = entitlements.plan(account)
    return {
        "status": holding.state if holding is not None else plan.state,
        "plan": plan.kind if plan.in_force else record.get("plan"),
        "source": plan.source,
        "grant": (account.tandem_grants or {}).get("grant") if account else None,
        "approval": account.billing_approval if account else None,
        "validTo": iso(account.subscription_valid_to) if account else None,
    }


# ---------------------------------------------------------------- members


def members(query: dict[str, Any]) -> dict[str, Any]:
    """GET admin/members?q=&cursor=: users whose email or name contains q, a page at a time
    (server side), each with its account's plan (one BatchGet for the page's accounts)."""
    text = query.get("q") or ""
    if not isinstance(text, str) or len(text) > 100:
        raise ValidationError("Search for at most 100 characters")
    try:
        users, next_cursor = store.search_users(text.strip(), PAGE, _cursor(query.get("cursor")))
    except store.BadCursor:
        raise ValidationError(GONE_CURSOR) from None
    accounts = get_many([(Account, Account.key(u.account_id)) for u in users])
    users.sort(key=lambda u: u.email)
    return {
        "users": [
            {
                "id": u.user_id,
                "email": u.email,
                "name": u.name,
                "access": u.access,
                "accountId": u.account_id,
                "plan": plan_json(account, _holding(account, u)),
                "canRequireApproval": account is not None and entitlements.can_require_approval(account, u),
                "canGrantTrial": account is not None and entitlements.trial_refusal(account, u) is None,
            }
            for u in users
            for account in (accounts.get(Account.key(u.account_id)),)
        ],
        "nextCursor": next_cursor,
    }


def _holding(account: Account | None, user: User) -> Rights:
    """What the member holds (entitlements.rights, the one owner of the rules; only its `state`
    is read here). Without a plan in force the state turns on which credits the account holds
    and when they are valid (gifted credits only), which every grant also writes on the account
    (`credit_windows`), so the page costs no read beyond the accounts. An account from before
    that, not yet backfilled by `index-users`, has its buckets read."""
    if account is None:
        return None
    held: list[credit_rules.Bucket] = []
    if not (entitlements.plan(account).in_force or entitlements.feature_only(user, account)):
        if account.credit_windows is None:
            held = credits.buckets(account.account_id)
        else:  # kinds and windows decide the state; the amounts are not read by it
            held = [
                credit_rules.Bucket(
                    bucket_id="", kind=kind, total=0, available=0, valid_from=start, valid_to=end
                )
                for kind, start, end in account.credit_windows
            ]
    return entitlements.rights(account, held, user=user)


def _first_user(account: Account) -> User | None:
    """The account's first user: whose type (feature-only or not) the account's rights read."""
    users = sorted(User.of_account(account.account_id), key=lambda u: u.created_at)
    return users[0] if users else None


def require_approval(admin: User, account_id: str) -> dict[str, Any]:
    """The account's next plan waits for a team member's approval (refused while a plan runs)."""
    account = _account(account_id)
    if entitlements.status(account) != "none":
        raise Conflict(HAS_PLAN)
    user = _first_user(account)
    if not entitlements.can_require_approval(account, user):
        raise Conflict(NO_APPROVAL)
    email = user.email if user is not None else ""
    update_only(
        Account,
        Account.key(account.account_id),
        actions=[Account.billing_approval.set("required"), Account.approval_email.set(email)],
    )
    audit.record(admin.user_id, "approval.required", account.account_id, {"email": email})
    return {"plan": plan_json(_account(account.account_id))}


# ---------------------------------------------------------------- approval queue


def approval_queue(query: dict[str, Any]) -> dict[str, Any]:
    try:
        accounts, next_cursor = store.approval_queue(PAGE, _cursor(query.get("cursor")))
    except store.BadCursor:
        raise ValidationError(GONE_CURSOR) from None
    return {
        "accounts": [
            {
                "accountId": a.account_id,
                "name": a.name,
                "email": a.approval_email or "",
                "since": (a.gsi2sk or "").split("#", 1)[0] or None,
                "plan": plan_json(a),
            }
            for a in accounts
        ],
        "nextCursor": next_cursor,
    }


def _waiting(account: Account, action: str) -> None:
    """Approve/refuse only a plan that waits; a repeat after a failure half way finishes it."""
    done = {"approve": "approved", "refuse": "refused"}[action]
    status = account.subscription_status
    if account.billing_approval == "required" and status == "pending_approval":
        return
    if account.billing_approval == done and status == "pending_approval":
        return  # marked, but the sync did not finish: finish it
    raise Conflict(NOT_WAITING)


def _set_approval(account: Account, value: str) -> None:
    try:
        update_only(
            Account,
            Account.key(account.account_id),
            actions=[Account.billing_approval.set(value)],
            condition=Account.billing_approval.is_in("required", value),
        )
    except ConditionFailed:
        raise Conflict(NOT_WAITING) from None


def _plan_name(account: Account) -> str:
    plan = ((account.billing or {}).get("plan")) or "monthly"
    return PLAN_NAMES.get(plan, plan)


def approve(admin: User, account_id: str) -> dict[str, Any]:
    account = _account(account_id)
    _waiting(account, "approve")
    _set_approval(account, "approved")
    billing.sync_account(account.account_id)
    released = requests.release_awaiting(account.account_id)["released"]
    notify.notify(
        source="billing_account",
        template="subscription_approved",
        context={
            "plan": _plan_name(account),
            "credits": catalogue.MAIN_CREDITS,
            "matches_url": mailer.link("/matches"),
            "billing_url": mailer.link("/account/subscriptions/"),
        },
        push={"title": "Subscription approved", "body": "Your requests are on their way.", "url": "/"},
        account_id=account.account_id,
    )
    audit.record(admin.user_id, "approval.approve", account.account_id, {"released": released})
    fresh = _account(account.account_id)
    return {"approved": True, "released": released, "plan": plan_json(fresh)}


def _clean_reason(body: dict[str, Any]) -> str:
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError("Please give a reason")
    if len(reason.strip()) > REASON_MAX:
        raise ValidationError(f"Please keep the reason under {REASON_MAX} characters")
    return reason.strip()


def refuse(admin: User, account_id: str, body: dict[str, Any]) -> dict[str, Any]:
    reason = _clean_reason(body)
    account = _account(account_id)
    _waiting(account, "refuse")
    _set_approval(account, "refused")
    cancelled = requests.cancel_awaiting(account.account_id)["cancelled"]
    customers = billing.customers_of(account)
    refunded: dict[str, Any] | None = None
    if customers:
        try:
            refunded = billing.refund_latest_payment(customers, record={"approval": "refused"})
        except Conflict:
            refunded = None  # nothing paid (a free trial): the subscription is still cancelled
        subscription = (account.billing or {}).get("subscription_id")
        if subscription and (refunded is None or refunded.get("cancelled") != subscription):
            stripe_client.cancel_subscription_now(subscription, "Subscription not approved")
        billing.sync_account(account.account_id)
    notify.notify(
        source="billing_account",
        template="subscription_refused",
        context={
            "plan": _plan_name(account),
            "reason": reason,
            "billing_url": mailer.link("/account/subscriptions/"),
        },
        push={
            "title": "About your subscription",
            "body": "We couldn't approve your subscription.",
            "url": "/",
        },
        account_id=account.account_id,
    )
    audit.record(
        admin.user_id,
        "approval.refuse",
        account.account_id,
        {"reason": reason, "cancelledRequests": cancelled, "refund": refunded},
    )
    fresh = _account(account.account_id)
    return {"refused": True, "cancelledRequests": cancelled, "refund": refunded, "plan": plan_json(fresh)}


# ---------------------------------------------------------------- refunds


def _payment_json(payment: billing_rules.Payment, now: int) -> dict[str, Any]:
    return {
        "id": payment.id,
        "kind": payment.kind,
        "amount": payment.amount,
        "currency": payment.currency,
        "paidAt": iso(payment.paid_at),
        "refundedAmount": payment.refunded_amount,
        "withinGuarantee": billing_rules.within_guarantee(payment, now),
    }


def refund_preview(account_id: str, now: int | None = None) -> dict[str, Any]:
    """GET admin/accounts/{id}/refund: the payment a refund would return (the latest one not
    refunded yet), and whether it is within the 30-day guarantee."""
    account = _account(account_id)
    customers = billing.customers_of(account)
    if not customers:
        return {"payment": None, "message": NOTHING_PAID, "plan": plan_json(account)}
    now = int(now if now is not None else time.time())
    state = billing_rules.compute(
        stripe_client.fetch_customer_snapshot(customers), {"approval": account.billing_approval}, now
    )
    latest = next((p for p in reversed(state.payments) if p.amount > 0 and p.refunded_amount == 0), None)
    message = None
    if latest is None:
        message = "There is no payment to refund."
    elif not billing_rules.within_guarantee(latest, now):
        message = (
            f"The latest payment was made more than {billing_rules.GUARANTEE_DAYS} days ago: "
            "the money-back guarantee has ended."
        )
    return {
        "payment": _payment_json(latest, now) if latest else None,
        "message": message,
        "plan": plan_json(account),
    }


def refund(admin: User, account_id: str, now: int | None = None) -> dict[str, Any]:
    """POST admin/accounts/{id}/refund: the 30-day money-back guarantee. Refunds the latest
    payment, ends the plan and takes back the unspent credits it gave; refused (409) after 30 days."""
    account = _account(account_id)
    customers = billing.customers_of(account)
    if not customers:
        raise Conflict(NOTHING_PAID)
    try:
        done = billing.refund_latest_payment(
            customers, record={"approval": account.billing_approval}, now=now
        )
    except Conflict as exc:
        if "30 days" in exc.message:
            raise Conflict(
                f"There is no payment from the last {billing_rules.GUARANTEE_DAYS} days to refund: "
                "the money-back guarantee has ended."
            ) from None
        raise
    billing.sync_account(account.account_id, now)
    fresh = _account(account.account_id)
    notify.notify(
        source="billing_account",
        template="refund_issued",
        context={
            "amount": done["amount"],
            "currency": "gbp",
            "description": "your Tandem membership" if done.get("cancelled") else "your Tandem purchase",
            "billing_url": mailer.link("/account/subscriptions/"),
        },
        push={
            "title": "Refund issued",
            "body": "We've refunded your payment.",
            "url": "/account/subscriptions/",
        },
        account_id=account.account_id,
    )
    audit.record(admin.user_id, "refund.issue", account.account_id, done)
    return {
        "refund": done,
        "plan": plan_json(fresh),
        "credits": entitlements.credits_of(account.account_id, user=None),
    }


# ---------------------------------------------------------------- credits, reports, settings


def _grant_credits(body: dict) -> str:
    """POST admin/credits/grant {email, amount, kind, days}: credits for a member's account,
    valid from now for `days` (until billing grants them; also gifts). Returns the account id."""
    errors: dict[str, str] = {}
    email = body.get("email")
    user = accounts.find_user_by_email(email) if isinstance(email, str) and "@" in email else None
    if not isinstance(email, str) or not email.strip():
        errors["email"] = "This field is required"
    elif user is None:
        errors["email"] = "No member has this email"
    amount, days, kind = body.get("amount"), body.get("days"), body.get("kind")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 100:
        errors["amount"] = "Amount must be a whole number from 1 to 100"
    if kind not in credit_rules.KINDS:
        errors["kind"] = f"Kind must be one of: {', '.join(credit_rules.KINDS)}"
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 366:
        errors["days"] = "Days must be a whole number from 1 to 366"
    if errors:
        raise FieldErrors(errors)
    now = int(time.time())
    names = {"main": "Subscription credits", "gifted": "Gifted credits"}
    credits.grant(
        user.account_id,
        kind=kind,
        amount=amount,
        valid_from=now,
        valid_to=now + days * 86400,
        op_id=f"admin-grant:{uuid.uuid4().hex}",
        product_name=names.get(kind, "Add-on credits"),
    )
    return user.account_id


def grant_plan(admin: User, account_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST admin/accounts/{id}/grant {kind: trial | plan, months}: a free trial (no card) or a
    plan Tandem grants itself; no Stripe sync ever removes it."""
    account = _account(account_id)
    stored = tandem_grants.grant(account.account_id, body, by=admin.user_id, user=_first_user(account))
    audit.record(
        admin.user_id, f"grant.{stored['grant']['kind']}", account.account_id, {"grant": stored["grant"]}
    )
    return {
        "plan": plan_json(_account(account.account_id)),
        "credits": entitlements.credits_of(account.account_id, user=None),
    }


def end_granted_plan(admin: User, account_id: str) -> dict[str, Any]:
    """DELETE admin/accounts/{id}/grant: the Tandem-granted plan or trial ends now."""
    account = _account(account_id)
    stored = tandem_grants.end(account.account_id)
    audit.record(admin.user_id, "grant.end", account.account_id, {"grant": stored["grant"]})
    return {
        "plan": plan_json(_account(account.account_id)),
        "credits": entitlements.credits_of(account.account_id, user=None),
    }


def gift_credits(admin: User, body: dict[str, Any]) -> dict[str, Any]:
    account_id = _grant_credits(body)
    answer = {"credits": entitlements.credits_of(account_id, user=None)}
    audit.record(
        admin.user_id,
        "credits.grant",
        str(body.get("email") or "").strip().lower(),
        {k: body.get(k) for k in ("amount", "kind", "days")},
    )
    return answer


def issue_reports(query: dict[str, Any]) -> dict[str, Any]:
    try:
        reports, next_cursor = store.issue_reports(PAGE, _cursor(query.get("cursor")))
    except store.BadCursor:
        raise ValidationError(GONE_CURSOR) from None
    users = get_many([(User, User.key(r.user_id)) for r in reports])
    return {
        "reports": [
            {
                "id": r.report_id,
                "at": r.created_at.isoformat().replace("+00:00", "Z"),
                "user": {
                    "id": r.user_id,
                    "email": getattr(users.get(User.key(r.user_id)), "email", ""),
                },
                "description": r.description,
                "path": r.path,
            }
            for r in reports
        ],
        "nextCursor": next_cursor,
    }


def site_settings() -> dict[str, Any]:
    current = store.SiteSettings.current(consistent=True)
    return {
        "globalMessage": current.global_message or "",
        "approveNewMembers": bool(current.approve_new_members),
    }


def update_settings(admin: User, body: dict[str, Any]) -> dict[str, Any]:
    """PUT admin/settings {globalMessage?, approveNewMembers?}: an empty message removes it."""
    changes: dict[str, Any] = {}
    if "globalMessage" in body:
        message = body["globalMessage"]
        if message is not None and not isinstance(message, str):
            raise ValidationError("The message must be text")
        message = " ".join((message or "").split())
        if len(message) > MESSAGE_MAX:
            raise ValidationError(f"Please keep the message under {MESSAGE_MAX} characters")
        changes["globalMessage"] = message
    if "approveNewMembers" in body:
        if not isinstance(body["approveNewMembers"], bool):
            raise ValidationError("approveNewMembers must be true or false")
        changes["approveNewMembers"] = body["approveNewMembers"]
    if not changes:
        raise ValidationError("Nothing to change")
    actions = [
        store.SiteSettings.updated_at.set(datetime.now(UTC)),
        store.SiteSettings.updated_by.set(admin.user_id),
    ]
    if "globalMessage" in changes:
        actions.append(
            store.SiteSettings.global_message.set(changes["globalMessage"])
            if changes["globalMessage"]
            else store.SiteSettings.global_message.remove()
        )
    if "approveNewMembers" in changes:
        actions.append(store.SiteSettings.approve_new_members.set(changes["approveNewMembers"]))
    update_only(store.SiteSettings, store.SiteSettings.key(), actions=actions)
    for name, value in changes.items():
        audit.record(admin.user_id, f"settings.{name}", "site", {name: value})
    return site_settings()
