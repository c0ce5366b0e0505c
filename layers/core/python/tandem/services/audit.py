"""The admin audit log: every admin action is recorded (who, when, what) and listed newest first.

`record(actor_user_id, action, target, details)` is the one way to write an entry; the admin
console and the Pitch Area's feature approval call it after the action succeeded.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from tandem.domain.formats import format_money
from tandem.errors import ValidationError
from tandem.observability import logger
from tandem.services import accounts
from tandem.store.admin import AuditEntry, BadCursor
from tandem.store.models import User

PAGE = 50
MAX_DETAILS = 4000  # characters of JSON kept per entry


def _jsonable(details: dict[str, Any] | None) -> dict[str, Any]:
    data = json.loads(json.dumps(details or {}, default=str))
    if len(json.dumps(data)) > MAX_DETAILS:
        return {"truncated": json.dumps(data)[:MAX_DETAILS]}
    return data


def record(
    actor_user_id: str, action: str, target: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Write one audit entry and return it as the list shows it."""
    if not actor_user_id or not action:
        raise ValueError("An audit entry needs who and what")
    actor = User.find(actor_user_id)
    now = datetime.now(UTC)
    entry = AuditEntry.new(
        uuid.uuid4().hex,
        now,
        actor_user_id=actor_user_id,
        actor_email=actor.email if actor else "",
        action=action,
        target=str(target or ""),
        details=_jsonable(details),
    )
    entry.save()
    logger.info("Admin action", extra={"action": action, "target": entry.target, "actor": actor_user_id})
    return entry_json(entry)


def entry_json(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.entry_id,
        "at": entry.created_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "actor": {"id": entry.actor_user_id, "email": entry.actor_email},
        "action": entry.action,
        "target": entry.target,
        "details": entry.details or {},
    }


def recent(cursor: str | None = None, limit: int = PAGE) -> dict[str, Any]:
    try:
        entries, next_cursor = AuditEntry.newest(limit, cursor)
    except BadCursor:
        raise ValidationError("This list has changed. Please reload it.") from None
    people = _People()
    return {
        "entries": [{**entry_json(e), **_described(e, people)} for e in entries],
        "nextCursor": next_cursor,
    }


# ---------------------------------------------------------------- what an entry is about, for people

ACCOUNT_ACTIONS = (
    "approval.required",
    "approval.approve",
    "approval.refuse",
    "refund.issue",
    "grant.trial",
    "grant.plan",
    "grant.end",
)
FEATURE_ACTIONS = ("feature.approve", "feature.refuse")
BRAND_ACTIONS = ("brand.dismiss", "brand.warn", "brand.suspend", "brand.lift")  # Reports queue
SETTINGS_PAGE = "/admin/message"


def users_page(email: str) -> str:
    """The admin Users list searched for one address (web: /admin/users?q=...)."""
    return f"/admin/users?q={quote(email, safe='')}"


class _People:
    """Who an account or an address is, looked up once per page of the log."""

    def __init__(self) -> None:
        self._accounts: dict[str, User | None] = {}
        self._emails: dict[str, User | None] = {}

    def of_account(self, account_id: str) -> User | None:
        if account_id not in self._accounts:
            users = User.of_account(account_id) if account_id else []
            self._accounts[account_id] = min(users, key=lambda u: u.user_id) if users else None
        return self._accounts[account_id]

    def with_email(self, email: str) -> User | None:
        if email not in self._emails:
            self._emails[email] = accounts.find_user_by_email(email) if email else None
        return self._emails[email]


def _person(user: User | None, fallback: str) -> dict[str, str | None]:
    if user is None:
        return {
            "label": fallback or "Unknown account",
            "href": users_page(fallback) if "@" in fallback else None,
        }
    label = f"{user.name} ({user.email})" if user.name else user.email
    return {"label": label, "href": users_page(user.email)}


def _money(amount: object, currency: object = "gbp") -> str | None:
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        return None
    return format_money(amount, currency if isinstance(currency, str) else "gbp")


def _facts(action: str, details: dict[str, Any]) -> list[str]:
    """The details as sentences: amounts as money, no raw Stripe ids."""
    facts: list[str] = []
    if action == "refund.issue":
        amount = _money(details.get("amount"))
        if amount:
            facts.append(f"{amount} refunded")
        if details.get("cancelled"):
            facts.append("Plan cancelled")
    elif action == "approval.refuse":
        if details.get("reason"):
            facts.append(f"Reason: {details['reason']}")
        refund = details.get("refund")
        if isinstance(refund, dict) and _money(refund.get("amount"), refund.get("currency")):
            facts.append(f"{_money(refund.get('amount'), refund.get('currency'))} refunded")
        if details.get("cancelledRequests"):
            facts.append(f"{details['cancelledRequests']} requests cancelled")
    elif action == "approval.approve":
        if details.get("released"):
            n = int(details["released"])
            facts.append(
                f"{n} held request{'' if n == 1 else 's'} sent to {'its brand' if n == 1 else 'their brands'}"
            )
    elif action == "credits.grant":
        amount, days = details.get("amount"), details.get("days")
        kind = details.get("kind")
        text = f"{amount} credits" if amount is not None else "Credits"
        if kind:
            text += f" ({kind})"
        if days:
            text += f" for {days} days"
        facts.append(text)
    elif action in FEATURE_ACTIONS:
        if details.get("months"):
            facts.append(f"{details['months']} months")
        if details.get("reason"):
            facts.append(f"Reason: {details['reason']}")
        payment = details.get("payment")
        if isinstance(payment, dict) and _money(payment.get("amount"), payment.get("currency")):
            refunded = " refunded" if payment.get("refunded") else " to refund by hand"
            facts.append(f"{_money(payment.get('amount'), payment.get('currency'))}{refunded}")
        if details.get("creditsReturned"):
            facts.append(f"{details['creditsReturned']} credits returned")
    elif action in BRAND_ACTIONS:
        facts.append(_brand_fact(action, details))
    elif action.startswith("settings."):
        for key, value in details.items():
            if key == "globalMessage":
                facts.append(f"Message: {value}" if value else "Message removed")
            elif isinstance(value, bool):
                facts.append("On" if value else "Off")
    elif action == "approval.required" and details.get("email"):
        facts.append(str(details["email"]))
    elif action.startswith("grant."):
        facts.append(_grant_fact(action, details.get("grant")))
    return facts


def _brand_fact(action: str, details: dict[str, Any]) -> str:
    """A Reports queue action (tandem.services.trust_admin), in words."""
    reports = details.get("reports")
    about = f" ({reports} report{'s' if reports != 1 else ''})" if reports else ""
    if action == "brand.dismiss":
        return f"Reports dismissed{about}"
    if action == "brand.warn":
        return f"Owner warned{about}: {details.get('text', '')}"
    if action == "brand.suspend":
        # What the suspension ended with it (tandem.services.trust_admin.act): pending requests
        # and the collaborations that were not live yet.
        ended = []
        if cancelled := details.get("cancelledRequests"):
            ended.append(f"{cancelled} pending request{'' if cancelled == 1 else 's'} cancelled")
        if collabs := details.get("endedCollaborations"):
            ended.append(f"{collabs} collaboration{'' if collabs == 1 else 's'} not yet live ended")
        return (
            f"Brand suspended{about}"
            + "".join(f", {part}" for part in ended[:-1])
            + (f"{' and' if len(ended) > 1 else ','} {ended[-1]}" if ended else "")
        )
    return "Suspension lifted"


def _grant_fact(action: str, grant: Any) -> str:
    """A plan or free trial Tandem granted (tandem.services.tandem_grants), in words."""
    if not isinstance(grant, dict):
        return "Plan granted"
    until = grant.get("until")
    day = datetime.fromtimestamp(int(until), UTC).strftime("%-d %b %Y") if until else None
    if action == "grant.end":
        return f"{'Free trial' if grant.get('kind') == 'trial' else 'Granted plan'} ended"
    if grant.get("kind") == "trial":
        return f"Free trial until {day}" if day else "Free trial"
    return f"Plan granted until {day}" if day else "Plan granted"


def _described(entry: AuditEntry, people: _People) -> dict[str, Any]:
    """`subject` (whom or what the action was about: a name and the admin page that shows it)
    and `facts` (the details in words)."""
    action, target, details = entry.action, entry.target, entry.details or {}
    if action in ACCOUNT_ACTIONS:
        subject = _person(people.of_account(target), str(details.get("email") or target))
    elif action == "credits.grant":
        subject = _person(people.with_email(target), target)
    elif action in FEATURE_ACTIONS:
        brand, title = details.get("brand"), details.get("title")
        label = f"{brand}: {title}" if brand and title else str(title or brand or "Feature")
        subject = {"label": label, "href": f"/pitch/{target}"}
    elif action in BRAND_ACTIONS:
        label = str(details.get("brand") or f"Brand {target}")
        subject = {"label": label, "href": f"/admin/reports?brand={target}"}
    elif action.startswith("settings."):
        subject = {"label": "Site settings", "href": SETTINGS_PAGE}
    else:
        subject = {"label": target, "href": None}
    return {"subject": subject, "facts": _facts(action, details)}
