"""The admin console's Reports queue (issue 27): brands members reported, and suspended brands.

Actions on a brand, each recorded in the audit log: dismiss (the reports were not a problem),
warn (an email to the brand's owner with the admin's text), suspend (hidden everywhere, sends
nothing, out of the match index and the Pitch Area; its pending requests either way are
cancelled through the requests' cancel transition, the held credits going back to their
senders) and lift (the suspension ends). Dismiss, warn and suspend resolve the brand's reports:
each reporter is emailed and may report the brand again.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from typing import Any

from tandem.domain import requests as request_rules
from tandem.domain.ids import parse_id
from tandem.domain.times import iso, iso_ms
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.observability import logger
from tandem.services import audit, collaborations, mailer, match_index
from tandem.services.requests.transitions import transition
from tandem.services.trust import REASONS
from tandem.store import boxes
from tandem.store.items import get_many
from tandem.store.models import Brand, User
from tandem.store.safety import (
    ReportCase,
    ReportEntry,
    close_reports,
    sent_recently,
    set_case_status,
    set_suspended,
)

PAGE = 20
STATUSES = ("open", "suspended")
ACTIONS = ("dismiss", "warn", "suspend", "lift")
TEXT_MAX = 2000
WARN_TEXT_NEEDED = "Please write the warning the brand's owner will read"
CURSOR_GONE = "This list has changed. Please reload it."
NOT_REPORTED = "This brand has no open reports"
NOT_SUSPENDED = "This brand is not suspended"
ALREADY_SUSPENDED = "This brand is already suspended"


def _cursor_out(last_key: Any) -> str | None:
    if not last_key:
        return None
    return base64.urlsafe_b64encode(json.dumps(last_key, sort_keys=True).encode()).decode().rstrip("=")


def _cursor_in(cursor: Any, status: str) -> dict | None:
    if not cursor:
        return None
    try:
        raw = json.loads(base64.urlsafe_b64decode(str(cursor) + "=" * (-len(str(cursor)) % 4)))
    except (ValueError, binascii.Error):
        raise ValidationError(CURSOR_GONE) from None
    if not isinstance(raw, dict) or set(raw) != {"pk", "sk", "gsi1pk", "gsi1sk"}:
        raise ValidationError(CURSOR_GONE)
    if any(not isinstance(v, dict) or not isinstance(v.get("S"), str) for v in raw.values()):
        raise ValidationError(CURSOR_GONE)
    if not raw["gsi1pk"]["S"].endswith(f"#{status}"):
        raise ValidationError(CURSOR_GONE)
    return raw


def _report_json(entry: ReportEntry) -> dict[str, Any]:
    return {
        "reason": entry.reason,
        "reasonLabel": REASONS.get(entry.reason, entry.reason),
        "text": entry.text or "",
        "at": iso(entry.at),
        "reporter": {
            "email": entry.reporter_email or "",
            "brandId": int(entry.reporter_brand_id),
            "brandName": entry.reporter_brand_name or "",
        },
    }


def case_json(case: ReportCase) -> dict[str, Any]:
    reports = sorted(case.reports or [], key=lambda e: int(e.at), reverse=True)
    return {
        "brand": {"id": int(case.brand_id), "name": case.brand_name or ""},
        "status": case.status,
        "openedAt": case.opened_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "reports": [_report_json(e) for e in reports],
    }


def queue(query: dict[str, Any]) -> dict[str, Any]:
    """GET admin/reports?status=open|suspended: one Query, newest case first."""
    status = query.get("status") or "open"
    if status not in STATUSES:
        raise ValidationError("status must be open or suspended")
    cases, last = ReportCase.with_status(status, PAGE, _cursor_in(query.get("cursor"), status))
    return {"cases": [case_json(c) for c in cases], "nextCursor": _cursor_out(last)}


def _brand_id(raw: Any) -> int:
    brand_id = parse_id(raw)
    if brand_id is None:
        raise NotFound("Brand not found")
    return brand_id


def detail(raw_id: Any) -> dict[str, Any]:
    """GET admin/reports/{brandId}: the brand, its case (if any) and its recent requests sent
    with their outcome. Two calls: one BatchGetItem (brand, case), one Query (requests sent)."""
    brand_id = _brand_id(raw_id)
    found = get_many([(Brand, Brand.key(brand_id)), (ReportCase, ReportCase.key(brand_id))], consistent=True)
    brand = found.get(Brand.key(brand_id))
    if brand is None:
        raise NotFound("Brand not found")
    case = found.get(ReportCase.key(brand_id))
    return {
        "brand": {
            "id": brand_id,
            "name": brand.name,
            "category": brand.category or "",
            "accountId": brand.account_id,
            "suspended": bool(brand.suspended),
        },
        "case": case_json(case) if case is not None else None,
        "recentRequests": [
            {
                "id": r.request_id,
                "to": r.to_brand.name if r.to_brand is not None else "",
                "status": r.status,
                "at": iso_ms(r.updated_at),
                "isPitch": r.pitch is not None,
            }
            for r in sent_recently(brand_id)
        ],
    }


def _text(body: dict[str, Any], required: bool) -> str:
    text = body.get("text")
    if text is None or (isinstance(text, str) and not text.strip()):
        if required:
            raise ValidationError(WARN_TEXT_NEEDED, errors={"text": WARN_TEXT_NEEDED})
        return ""
    if not isinstance(text, str):
        raise ValidationError("text must be words", errors={"text": "Text only"})
    if len(text) > TEXT_MAX:
        message = f"Please keep the text under {TEXT_MAX:,} characters"
        raise ValidationError(message, errors={"text": message})
    return text.strip()


def _mail_reporters(case: ReportCase | None) -> int:
    """Each reporter hears that their report was looked at (without the brand's name: their
    own view of it may be masked)."""
    if case is None:
        return 0
    told = set()
    for entry in case.reports or []:
        if entry.reporter_account_id in told:
            continue
        told.add(entry.reporter_account_id)
        try:
            mailer.send_to_account(
                entry.reporter_account_id,
                "Your report on Tandem",
                "Thanks for your report. Our team has looked at the brand you reported and "
                "taken the action it needed. Thank you for helping keep Tandem a good place "
                "to find partners.",
            )
        except Exception:  # an email never undoes the action
            logger.exception("Could not queue a report-resolved email")
    return len(told)


def _mail_suspended(brand: Brand, text: str) -> None:
    why = f"\n\nOur team's note:\n\n{text}" if text else ""
    try:
        mailer.send_to_account(
            brand.account_id,
            "Your brand is suspended on Tandem",
            f"Hello,\n\nOur team has suspended {brand.name} on Tandem after members reported it. While it "
            f"is suspended, other members don't see it and it can't send requests or pitches.{why}\n\n"
            "You can reply to us from your dashboard.",
        )
    except Exception:  # an email never undoes the action
        logger.exception("Could not queue a suspension email")


def _cancel_pending(brand_id: int) -> int:
    """Every open request the brand sent or received is cancelled (credits back to senders).
    Neither side's sender waits to write again (the team's act, not theirs); the senders of its
    received requests see them as cancelled because the brand is no longer available."""
    open_statuses = (request_rules.PENDING, request_rules.AWAITING)
    found = [
        r
        for r in boxes.every(boxes.OUT, brand_id, request_rules.SENT_BOX[request_rules.PENDING])
        if r.status in open_statuses
    ]
    found += [
        r
        for r in boxes.every(boxes.IN, brand_id, request_rules.RECEIVED_BOX[request_rules.PENDING])
        if r.status in open_statuses
    ]
    cancelled = 0
    for req in {r.request_id: r for r in found}.values():
        try:
            own = int(req.from_brand_id) == brand_id
            transition(req, "cancel", cause=request_rules.SUSPENDED if own else request_rules.UNAVAILABLE)
        except (Conflict, NotFound):
            continue
        cancelled += 1
    return cancelled


def _end_collaborations(brand_id: int) -> int:
    """Every collaboration of the brand that is not live yet ends (its partners read that the
    brand is no longer available)."""
    return collaborations.end_unavailable(brand_id)


def act(admin: User, raw_id: Any, body: dict[str, Any]) -> dict[str, Any]:
    """POST admin/reports/{brandId}/action {action, text}."""
    action = body.get("action")
    if action not in ACTIONS:
        raise ValidationError("action must be dismiss, warn, suspend or lift")
    brand_id = _brand_id(raw_id)
    text = _text(body, required=action == "warn")
    found = get_many([(Brand, Brand.key(brand_id)), (ReportCase, ReportCase.key(brand_id))], consistent=True)
    brand = found.get(Brand.key(brand_id))
    if brand is None:
        raise NotFound("Brand not found")
    case = found.get(ReportCase.key(brand_id))
    now = datetime.now(UTC)
    details: dict[str, Any] = {"brand": brand.name}
    if action in ("dismiss", "warn") and (case is None or case.status != "open"):
        raise Conflict(NOT_REPORTED)
    if action == "suspend" and brand.suspended:
        raise Conflict(ALREADY_SUSPENDED)
    if action == "lift" and not brand.suspended:
        raise Conflict(NOT_SUSPENDED)
    if case is not None and case.status == "open":
        details["reports"] = len(case.reports or [])
    if action == "warn":
        mailer.send_to_account(
            brand.account_id,
            "A message from the Tandem team about your brand",
            f"Hello,\n\nMembers have reported {brand.name} on Tandem. Our team looked at the reports "
            f"and asks you to read this:\n\n{text}\n\nReply to this email if you have any questions.",
        )
        details["text"] = text
    if action == "suspend":
        set_suspended(brand_id, True)
        _mail_suspended(brand, text)
        details["cancelledRequests"] = _cancel_pending(brand_id)
        details["endedCollaborations"] = _end_collaborations(brand_id)
        try:
            match_index.remove(brand_id)
        except Exception:  # the nightly rebuild skips it too
            logger.exception("Could not take a suspended brand out of the match index")
        if text:
            details["text"] = text
    if action == "lift":
        set_suspended(brand_id, False)
        brand.suspended = False
        try:
            match_index.refresh(brand)
        except Exception:
            logger.exception("Could not put a brand back in the match index")
    if action in ("dismiss", "warn", "suspend") and case is not None:
        details["reportersTold"] = _mail_reporters(case if case.status == "open" else None)
        close_reports(case)
    if action == "suspend":
        set_case_status(brand_id, brand.name, "suspended", now)
    elif action in ("dismiss", "warn", "lift") and case is not None:
        set_case_status(brand_id, brand.name, None, now)
    entry = audit.record(admin.user_id, f"brand.{action}", str(brand_id), details)
    return {"done": action, "audit": entry}
