"""Collaborations between two connected brands (issue 41): plan, agree, run, record results.

Only the two brands (and their account's members) ever see a collaboration: every route reads
the caller's own copy at the door (`COLLAB`: the caller's brand, its blocks and the suspended
brands, and its copy of the collaboration in one BatchGetItem); a brand with no copy, or whose
partner it must not see, gets the 404 an unknown id gets. The rules are in
tandem.domain.collaborations, the layout in tandem.store.collaborations.

Calls: a collaboration's screen is the door's BatchGetItem, one Query of its partition (both
copies and the thread) and one GetItem of the partner brand; the list is the door's, one Query
of the brand's index and one BatchGetItem of the partners. A message is one transaction (the
message, the brand's hourly count, a check the collaboration is open); a tick is one
transaction (both copies).
"""

from __future__ import annotations

import csv
import io
import re
import secrets
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any

from tandem.content import calendar, collab_ideas
from tandem.domain import collaborations as rules
from tandem.domain import relations as rel
from tandem.domain.ids import parse_id
from tandem.domain.matching.format_grade import add_outcome
from tandem.domain.times import iso_ms
from tandem.errors import Conflict, Forbidden, NotFound, TooManyRequests, ValidationError
from tandem.observability import logger
from tandem.services import mailer, match_index, match_learning, notify
from tandem.services.requests.present import live_brand_json
from tandem.services.viewer import Reads, Viewer, Wanted
from tandem.store import collaborations as store
from tandem.store.collaborations import CollabMessage, Collaboration
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.models import Brand, BrandRelation, RateCounter

ID = re.compile(r"^[0-9a-f]{16}$")  # a collaboration's id (both brands' copies share it)


def _copy_of_caller(brand_id: int, params: Mapping[str, str]) -> Wanted:
    """The caller's own copy of the path's collaboration: a brand with none is a stranger to it."""
    collab_id = params.get("collabId") or ""
    return [(Collaboration, Collaboration.key(collab_id, brand_id))] if ID.match(collab_id) else []


# What a route on one collaboration reads with its caller (the door's one BatchGetItem).
COLLAB = Reads(account=False, hidden=True, more=_copy_of_caller)
MESSAGE_WINDOW = "collab-message"
HOUR = 3600


def now_s() -> float:
    """The clock of every collaboration rule (one place, so tests can move it)."""
    return time.time()


def _on(offset: str | None) -> date:
    return rules.today(rules.parse_offset(offset), now_s())


def _visible(copy: Collaboration, viewer: Viewer) -> bool:
    """A collaboration with a brand hidden from the viewer is as unknown, except the one a block
    or suspension ended, which its other side keeps reading (silently for the blocker)."""
    if int(copy.other_id) not in viewer.hidden:
        return True
    return copy.ended_cause == rules.UNAVAILABLE and int(copy.ended_by or 0) != viewer.brand_id


def _mine(viewer: Viewer, collab_id: str) -> Collaboration:
    """The caller's copy, read at the door; anything else is the 404 of an unknown id."""
    copy = viewer.item(Collaboration, collab_id, viewer.brand_id) if ID.match(collab_id) else None
    if copy is None or not _visible(copy, viewer):
        raise NotFound(rules.NOT_FOUND)
    return copy


def _dates(copy: Collaboration) -> tuple[date, date]:
    return date.fromisoformat(copy.start), date.fromisoformat(copy.end)


def _phase(copy: Collaboration, on: date) -> str:
    start, end = _dates(copy)
    return rules.phase(copy.status, start, end, on, bool(copy.results_a and copy.results_b))


def _side(copy: Collaboration, brand_id: int, role: str) -> str:
    """An owner role (a | b | both) as the caller reads it (mine | theirs | both)."""
    if role == "both":
        return "both"
    return "mine" if role == copy.role(brand_id) else "theirs"


def _role(copy: Collaboration, brand_id: int, side: str) -> str:
    if side == "both":
        return "both"
    mine = copy.role(brand_id)
    return mine if side == "mine" else ("b" if mine == "a" else "a")


def _plain(value: Any) -> Any:
    return value.as_dict() if hasattr(value, "as_dict") else value


def _checklist(copy: Collaboration) -> list[dict[str, Any]]:
    return [dict(_plain(item)) for item in (copy.checklist or [])]


def _moment_json(slug: str | None) -> dict[str, Any] | None:
    if not slug:
        return None
    found = next((m for m in calendar.moments() if m.slug == slug), None)
    return {
        "slug": slug,
        "name": found.name if found else slug,
        "leadWeeks": found.lead_weeks if found else None,
    }


def _results_json(copy: Collaboration, brand_id: int, on: date) -> dict[str, Any]:
    mine = copy.results_of(brand_id)
    theirs = copy.results_of(int(copy.other_id))
    _, end = _dates(copy)
    visible = rules.results_visible(bool(mine and theirs), end, on)
    return {
        "mine": mine,
        "theirs": theirs if visible else None,
        "theirsRecorded": theirs is not None,
        "visibleFrom": (end.fromordinal(end.toordinal() + rules.RESULTS_REVEAL_DAYS + 1)).isoformat(),
    }


def _plan_fields(copy: Collaboration, brand_id: int) -> dict[str, Any]:
    mine_role = copy.role(brand_id)
    return {
        "format": copy.format,
        "title": copy.title,
        "goal": copy.goal,
        "start": copy.start,
        "end": copy.end,
        "bringsMine": copy.brings_a if mine_role == "a" else copy.brings_b,
        "bringsTheirs": copy.brings_b if mine_role == "a" else copy.brings_a,
        "moment": copy.moment,
    }


def _change_json(change: dict[str, Any], copy: Collaboration, brand_id: int) -> dict[str, Any]:
    by = int(change.get("by") or 0)
    fields = {}
    mine_role = copy.role(brand_id)
    for name, pair in (change.get("fields") or {}).items():
        if name in ("brings_a", "brings_b"):
            name = "bringsMine" if name == f"brings_{mine_role}" else "bringsTheirs"
        fields[name] = list(pair)
    return {
        "byYou": by == brand_id,
        "at": iso_ms(change.get("at")),
        "kind": change.get("kind"),
        "fields": fields,
    }


def summary_json(copy: Collaboration, viewer: Viewer, partner: Brand | None, on: date) -> dict[str, Any]:
    """A collaboration as the caller's list shows it."""
    brand_id = viewer.brand_id
    phase = _phase(copy, on)
    checklist = _checklist(copy)
    hidden = int(copy.other_id) in viewer.hidden
    return {
        "id": copy.collab_id,
        "version": int(copy.version),
        "phase": phase,
        "phaseLabel": rules.PHASE_LABELS[phase],
        "title": copy.title,
        "format": copy.format,
        "goal": copy.goal,
        "start": copy.start,
        "end": copy.end,
        "moment": _moment_json(copy.moment),
        "partner": live_brand_json(partner)
        if partner is not None and not hidden
        else {"id": None, "name": "A brand no longer on Tandem"},
        "proposedByYou": int(copy.a_id) == brand_id,
        "yourTurn": copy.status == rules.PROPOSED and int(copy.turn or 0) == brand_id,
        "checklistDone": sum(1 for item in checklist if item.get("done_at")),
        "checklistTotal": len(checklist),
        "results": _results_json(copy, brand_id, on),
        "endedReason": copy.ended_reason,
        "endedCause": copy.ended_cause,
        "endedByYou": copy.ended_by is not None and int(copy.ended_by) == brand_id,
        "createdAt": iso_ms(copy.created_at),
        "updatedAt": iso_ms(copy.updated_at),
    }


def detail_json(
    copy: Collaboration, viewer: Viewer, partner: Brand | None, messages: Iterable[CollabMessage], on: date
) -> dict[str, Any]:
    brand_id = viewer.brand_id
    answer = summary_json(copy, viewer, partner, on)
    phase = answer["phase"]
    open_ = copy.status in rules.OPEN
    start, end = _dates(copy)
    idea = collab_ideas.get(copy.idea) if copy.idea else None
    answer |= {
        "bringsMine": _plan_fields(copy, brand_id)["bringsMine"],
        "bringsTheirs": _plan_fields(copy, brand_id)["bringsTheirs"],
        "idea": {"slug": idea.slug, "title": idea.title} if idea else None,
        "brief": copy.brief,
        "checklist": [
            {
                "id": item["id"],
                "text": item["text"],
                "owner": _side(copy, brand_id, item.get("owner") or "both"),
                "due": item.get("due"),
                "done": bool(item.get("done_at")),
                "doneAt": iso_ms(item.get("done_at")),
                "doneByYou": item.get("done_by") is not None and int(item["done_by"]) == brand_id,
            }
            for item in _checklist(copy)
        ],
        "changes": [_change_json(dict(_plain(c)), copy, brand_id) for c in (copy.changes or [])],
        "messages": [
            {
                "id": m.message_id,
                "byYou": int(m.brand_id) == brand_id,
                "author": m.author,
                "text": m.text,
                "at": iso_ms(m.at),
            }
            for m in messages
        ],
        "can": {
            "accept": answer["yourTurn"],
            "change": answer["yourTurn"],
            "decline": answer["yourTurn"],
            "cancel": open_ and on < start,
            "message": open_,
            "tick": open_ and phase not in (rules.ENDED, rules.RESULTS_IN),
            "addItem": open_ and phase not in (rules.ENDED, rules.RESULTS_IN),
            "recordResults": copy.status == rules.AGREED and on > end,
        },
    }
    return answer


# ---- reading


def list_mine(viewer: Viewer, offset: str | None) -> dict[str, Any]:
    """GET collaborations: the brand's collaborations by phase, with totals, per partner and per
    format and by month (what the performance page draws). Three calls: the door's, one Query of
    the brand's index, one BatchGetItem of the partners."""
    on = _on(offset)
    copies = [c for c in store.of_brand(viewer.brand_id) if _visible(c, viewer)]
    partners = (
        {int(b.brand_id): b for b in Brand.find_many({int(c.other_id) for c in copies})} if copies else {}
    )
    items = [summary_json(c, viewer, partners.get(int(c.other_id)), on) for c in copies]
    return {
        "items": items,
        "totals": performance(items),
        "formats": list(rules.FORMATS),
        "goals": list(rules.GOALS),
    }


def _figures(results: dict[str, Any] | None) -> dict[str, Any]:
    found: dict[str, Any] = {name: int((results or {}).get(name) or 0) for name in rules.RESULT_COUNTS}
    found["revenue"] = {}
    if results and results.get("revenueMinor") is not None:
        found["revenue"][results.get("currency")] = int(results["revenueMinor"])
    return found


def _add(into: dict[str, Any], figures: dict[str, Any]) -> None:
    for name in rules.RESULT_COUNTS:
        into[name] = into.get(name, 0) + figures[name]
    revenue = into.setdefault("revenue", {})
    for currency, amount in figures["revenue"].items():
        revenue[currency] = revenue.get(currency, 0) + amount


def performance(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals of the brand's own recorded results: overall, per partner, per format, per month."""
    by_phase: dict[str, int] = {phase: 0 for phase in rules.PHASES}
    overall: dict[str, Any] = {"collaborations": 0, "withResults": 0, "again": 0}
    per_partner: dict[str, dict[str, Any]] = defaultdict(lambda: {"collaborations": 0, "withResults": 0})
    per_format: dict[str, dict[str, Any]] = defaultdict(lambda: {"collaborations": 0, "withResults": 0})
    per_month: dict[str, dict[str, Any]] = defaultdict(lambda: {"collaborations": 0, "withResults": 0})
    for item in items:
        by_phase[item["phase"]] += 1
        if item["phase"] in (rules.DECLINED, rules.CANCELLED):
            continue
        partner = item["partner"].get("name") or "?"
        month = item["start"][:7]
        mine = item["results"]["mine"]
        for into in (overall, per_partner[partner], per_format[item["format"]], per_month[month]):
            into["collaborations"] += 1
            if mine:
                into["withResults"] += 1
                _add(into, _figures(mine))
        if mine and mine.get("again"):
            overall["again"] += 1
    for into in (overall, *per_partner.values(), *per_format.values(), *per_month.values()):
        into.setdefault("revenue", {})
        for name in rules.RESULT_COUNTS:
            into.setdefault(name, 0)
    return {
        "byPhase": by_phase,
        "overall": overall,
        "byPartner": [{"partner": k, **v} for k, v in sorted(per_partner.items())],
        "byFormat": [{"format": k, **v} for k, v in sorted(per_format.items())],
        "byMonth": [{"month": k, **v} for k, v in sorted(per_month.items())],
    }


CSV_COLUMNS = (
    "id",
    "title",
    "partner",
    "format",
    "goal",
    "state",
    "start",
    "end",
    "reach",
    "followers",
    "clicks",
    "orders",
    "revenue",
    "currency",
    "partner_again",
    "rating",
    "their_reach",
    "their_followers",
    "their_clicks",
    "their_orders",
    "their_revenue",
    "their_currency",
)


def _money(minor: Any) -> str:
    if minor is None:
        return ""
    whole, cents = divmod(int(minor), 100)
    return f"{whole}.{cents:02d}"


def _cell(value: Any) -> str:
    """A CSV cell that a spreadsheet will not run as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(viewer: Viewer, offset: str | None) -> str:
    """GET collaborations/export: the list as CSV, one row per collaboration, the caller's figures
    and the partner's where the caller may see them."""
    listed = list_mine(viewer, offset)["items"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for item in listed:
        mine = item["results"]["mine"] or {}
        theirs = item["results"]["theirs"] or {}
        again = mine.get("again")
        writer.writerow(
            [
                _cell(v)
                for v in (
                    item["id"],
                    item["title"],
                    item["partner"].get("name"),
                    item["format"],
                    item["goal"],
                    item["phaseLabel"],
                    item["start"],
                    item["end"],
                    *(mine.get(n, "") for n in rules.RESULT_COUNTS),
                    _money(mine.get("revenueMinor")),
                    mine.get("currency", ""),
                    "" if again is None else ("yes" if again else "no"),
                    mine.get("rating", ""),
                    *(theirs.get(n, "") for n in rules.RESULT_COUNTS),
                    _money(theirs.get("revenueMinor")),
                    theirs.get("currency", ""),
                )
            ]
        )
    return out.getvalue()


def view(viewer: Viewer, collab_id: str, offset: str | None) -> dict[str, Any]:
    """GET collaborations/{id}: the plan, the checklist, the changes, the thread and the results.
    Three calls: the door's (the caller's copy among it), the partition's Query, the partner."""
    _mine(viewer, collab_id)
    found = store.everything(collab_id)
    copy = found.sides.get(viewer.brand_id)
    if copy is None:
        raise NotFound(rules.NOT_FOUND)
    partner = Brand.find(int(copy.other_id))
    return {"collaboration": detail_json(copy, viewer, partner, found.messages, _on(offset))}


def _answer(
    viewer: Viewer, collab_id: str, offset: str | None, tell: str | None = None, text: str = ""
) -> dict[str, Any]:
    """What a change answers: the collaboration as it is now (read again, consistently). `tell`:
    what the other side is told (their notification preferences, the Collaborations source)."""
    found = store.everything(collab_id)
    copy = found.sides[viewer.brand_id]
    partner = Brand.find(int(copy.other_id))
    if tell is not None and partner is not None and viewer.brand is not None:
        tell_other(viewer.brand, partner, copy, tell, text)
    return {"collaboration": detail_json(copy, viewer, partner, found.messages, _on(offset))}


TOLD = {
    "proposed": "proposed a collaboration",
    "changed": "proposed changes to",
    "accepted": "accepted the plan of",
    "declined": "declined",
    "cancelled": "cancelled",
    "ticked": "ticked a checklist item of",
    "message": "wrote about",
    "results": "recorded results for",
}


def tell_other(sender: Brand, partner: Brand, copy: Collaboration, kind: str, text: str = "") -> None:
    """Queue the other side's notification (email, push, Slack, as they chose); a notification
    that cannot be queued never undoes the change."""
    what = TOLD[kind]
    path = f"/collaborations/{copy.collab_id}"
    try:
        notify.notify(
            account_id=partner.account_id,
            source="collaborations",
            template="collaboration_update",
            context={
                "brand": partner.name,
                "other_brand": sender.name,
                "what": what,
                "title": copy.title,
                "message": text[:500],
                "collab_url": mailer.link(path),
            },
            push={"title": f"{sender.name} {what}", "body": copy.title, "url": path},
            subject=copy.collab_id,
        )
    except Exception:  # a notification never undoes the change
        logger.exception("Could not queue a collaboration notification", extra={"kind": kind})


# ---- planning


def _moments() -> frozenset[str]:
    return frozenset(m.slug for m in calendar.moments())


def _other_id(body: Any) -> int:
    other = parse_id(body.get("otherBrandId")) if isinstance(body, dict) else None
    if other is None:
        raise ValidationError(rules.CHECK_FIELDS, errors={"otherBrandId": "Choose a connected brand"})
    return other


def propose(viewer: Viewer, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations {otherBrandId, format, title, bringsMine, bringsTheirs, goal, start,
    end, moment?, idea?}: a plan proposed to a connected brand (any other brand: the 404 of a
    brand it is not connected with). Its checklist is the idea's, when planned from one."""
    on = _on(offset)
    other_id = _other_id(body)
    plan = rules.clean_plan(body, on, _moments())
    idea_slug = body.get("idea") or None
    idea = collab_ideas.get(idea_slug) if isinstance(idea_slug, str) else None
    if idea_slug is not None and idea is None:
        raise ValidationError(
            rules.CHECK_FIELDS, errors={"idea": "Choose the Collab Idea from the list, or none"}
        )
    brand_id = viewer.brand_id
    if other_id in viewer.hidden or other_id == brand_id:
        raise NotFound("You are not connected with this brand")
    found = get_many([(BrandRelation, BrandRelation.key(brand_id, other_id)), (Brand, Brand.key(other_id))])
    relation = found.get(BrandRelation.key(brand_id, other_id))
    if relation is None or relation.request_state != rel.CONNECTED or found.get(Brand.key(other_id)) is None:
        raise NotFound("You are not connected with this brand")
    waiting = sum(
        1 for c in store.of_brand(brand_id) if c.status == rules.PROPOSED and int(c.a_id) == brand_id
    )
    if waiting >= rules.OPEN_PROPOSALS_MAX:
        raise Conflict(rules.TOO_MANY_OPEN)
    now_ms = int(now_s() * 1000)
    collab_id = secrets.token_hex(8)
    checklist: list[dict[str, Any]] = []
    if idea is not None:
        texts = rules.template_checklist(idea.template_info)
        lead = next((m.lead_weeks for m in calendar.moments() if m.slug == plan.moment), None)
        dues = rules.first_due_dates(len(texts), on, plan.start, lead)
        checklist = [
            {
                "id": secrets.token_hex(4),
                "text": text,
                "owner": "both",
                "due": due.isoformat() if due else None,
            }
            for text, due in zip(texts, dues, strict=True)
        ]
    shared = {
        "collab_id": collab_id,
        "a_id": brand_id,
        "b_id": other_id,
        "status": rules.PROPOSED,
        "turn": other_id,
        "format": plan.format,
        "title": plan.title,
        "brings_a": plan.brings_mine,
        "brings_b": plan.brings_theirs,
        "goal": plan.goal,
        "start": plan.start.isoformat(),
        "end": plan.end.isoformat(),
        "moment": plan.moment,
        "idea": idea.slug if idea else None,
        "brief": idea.template_info.strip() if idea else None,
        "checklist": checklist,
        "changes": [{"by": brand_id, "at": now_ms, "kind": "proposed", "fields": {}}],
        "created_at": now_ms,
        "updated_at": now_ms,
        "version": 1,
    }
    store.create(shared)
    return _answer(viewer, collab_id, offset, "proposed")


def _change(
    copy: Collaboration, actions: list, proposer_only: list | None = None, status: str | None = None
) -> None:
    try:
        store.changed_version(copy, actions, proposer_only, status)
    except ConditionFailed:
        raise Conflict(rules.CHANGED) from None


def _history(kind: str, brand_id: int, fields: dict[str, Any] | None = None) -> list:
    entry = {"by": brand_id, "at": int(now_s() * 1000), "kind": kind, "fields": fields or {}}
    return [Collaboration.changes.set(Collaboration.changes.append([entry]))]


def _answering(viewer: Viewer, collab_id: str, body: Any) -> Collaboration:
    copy = _mine(viewer, collab_id)
    if copy.status != rules.PROPOSED:
        raise Conflict(rules.NOT_OPEN)
    if int(copy.turn or 0) != viewer.brand_id:
        raise Forbidden(rules.NOT_YOUR_TURN)
    if rules.clean_version(body) != int(copy.version):
        raise Conflict(rules.CHANGED)
    return copy


def accept(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/accept {version}: the plan as the caller read it is agreed."""
    copy = _answering(viewer, collab_id, body)
    start, _ = _dates(copy)
    if start < _on(offset):
        raise ValidationError(
            rules.CHECK_FIELDS, errors={"start": "The start date has passed: propose new dates"}
        )
    now_ms = int(now_s() * 1000)
    _change(
        copy,
        [
            Collaboration.status.set(rules.AGREED),
            Collaboration.turn.remove(),
            Collaboration.updated_at.set(now_ms),
            *_history("accepted", viewer.brand_id),
        ],
        proposer_only=store.watch(copy.end, copy.collab_id),
        status=rules.AGREED,
    )
    return _answer(viewer, collab_id, offset, "accepted")


def propose_changes(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/changes {version, ...the plan}: a counter-proposal; the turn goes
    back to the other side and the change is kept (field: [before, after])."""
    copy = _answering(viewer, collab_id, body)
    before = _plan_fields(copy, viewer.brand_id)
    merged = {**before, **{k: v for k, v in body.items() if k in rules.PLAN_FIELDS}}
    plan = rules.clean_plan(merged, _on(offset), _moments())
    after = plan.as_fields()
    diff = rules.plan_changes(before, after)
    if not diff:
        raise ValidationError(rules.NOTHING_CHANGED)
    mine_role = copy.role(viewer.brand_id)
    stored = {
        ("brings_a" if mine_role == "a" else "brings_b")
        if name == "bringsMine"
        else ("brings_b" if mine_role == "a" else "brings_a")
        if name == "bringsTheirs"
        else name: pair
        for name, pair in diff.items()
    }
    brings_mine, brings_theirs = (
        (Collaboration.brings_a, Collaboration.brings_b)
        if mine_role == "a"
        else (Collaboration.brings_b, Collaboration.brings_a)
    )
    actions = [
        Collaboration.format.set(plan.format),
        Collaboration.title.set(plan.title),
        brings_mine.set(plan.brings_mine),
        brings_theirs.set(plan.brings_theirs),
        Collaboration.goal.set(plan.goal),
        Collaboration.start.set(plan.start.isoformat()),
        Collaboration.end.set(plan.end.isoformat()),
        Collaboration.moment.set(plan.moment) if plan.moment else Collaboration.moment.remove(),
        Collaboration.turn.set(int(copy.other_id)),
        Collaboration.updated_at.set(int(now_s() * 1000)),
        *_history("changed", viewer.brand_id, stored),
    ]
    _change(copy, actions)
    return _answer(viewer, collab_id, offset, "changed")


def decline(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/decline {version, reason?}."""
    reason = rules.clean_reason(body, required=False)
    copy = _answering(viewer, collab_id, body)
    _end(viewer, copy, rules.DECLINED, reason, "declined")
    return _answer(viewer, collab_id, offset, "declined")


def cancel(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/cancel {reason}: either side, before it is live."""
    reason = rules.clean_reason(body, required=True)
    copy = _mine(viewer, collab_id)
    if copy.status not in rules.OPEN:
        raise Conflict(rules.NOT_OPEN)
    start, _ = _dates(copy)
    if _on(offset) >= start:
        raise Conflict(rules.ALREADY_LIVE)
    _end(viewer, copy, rules.CANCELLED, reason, "cancelled")
    return _answer(viewer, collab_id, offset, "cancelled")


def _end(viewer: Viewer, copy: Collaboration, status: str, reason: str, kind: str) -> None:
    actions = [
        Collaboration.status.set(status),
        Collaboration.turn.remove(),
        Collaboration.ended_by.set(viewer.brand_id),
        Collaboration.updated_at.set(int(now_s() * 1000)),
        *_history(kind, viewer.brand_id),
    ]
    if reason:
        actions.append(Collaboration.ended_reason.set(reason))
    _change(copy, actions, status=status)


def end_unavailable(brand_id: int, other_id: int | None = None) -> int:
    """A block (`brand_id` blocked `other_id`) or a suspension (`brand_id`, every partner) ends
    the brand's collaborations that are not live yet: the other side reads that the brand is no
    longer available; nothing tells the blocker. Returns how many were ended."""
    on = rules.today(14.0, now_s())  # not live yet anywhere on Earth
    ended = 0
    for copy in store.of_brand(brand_id):
        if other_id is not None and int(copy.other_id) != other_id:
            continue
        start, _ = _dates(copy)
        if copy.status not in rules.OPEN or on >= start:
            continue
        try:
            store.changed_version(
                copy,
                [
                    Collaboration.status.set(rules.CANCELLED),
                    Collaboration.turn.remove(),
                    Collaboration.ended_by.set(brand_id),
                    Collaboration.ended_cause.set(rules.UNAVAILABLE),
                    Collaboration.ended_reason.set(rules.UNAVAILABLE_TEXT),
                    Collaboration.updated_at.set(int(now_s() * 1000)),
                    *_history("cancelled", brand_id),
                ],
                status=rules.CANCELLED,
            )
        except ConditionFailed:
            continue  # changed meanwhile; the next block or sweep sees it again
        ended += 1
    return ended


# ---- running it


def add_item(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/checklist {text, owner (mine|theirs|both), due?}: up to 100."""
    copy = _mine(viewer, collab_id)
    if copy.status not in rules.OPEN:
        raise Conflict(rules.NOT_OPEN)
    item = rules.clean_item(body, _on(offset), len(copy.checklist or []))
    entry = {
        "id": secrets.token_hex(4),
        "text": item.text,
        "owner": _role(copy, viewer.brand_id, item.owner),
        "due": item.due.isoformat() if item.due else None,
    }
    try:
        store.add_items(copy, [entry], rules.CHECKLIST_MAX)
    except ConditionFailed:
        raise ValidationError(rules.TOO_MANY_ITEMS, errors={"text": rules.TOO_MANY_ITEMS}) from None
    return _answer(viewer, collab_id, offset)


def tick(viewer: Viewer, collab_id: str, item_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """PUT collaborations/{id}/checklist/{itemId} {done}: either side ticks (or unticks) an item;
    one transaction (both copies)."""
    done = body.get("done") if isinstance(body, dict) else None
    if not isinstance(done, bool):
        raise ValidationError(rules.CHECK_FIELDS, errors={"done": "Say whether it is done (true or false)"})
    copy = _mine(viewer, collab_id)
    if copy.status not in rules.OPEN:
        raise Conflict(rules.NOT_OPEN)
    items = _checklist(copy)
    index = next((i for i, item in enumerate(items) if item.get("id") == item_id), None)
    if index is None:
        raise NotFound("Checklist item not found")
    try:
        store.tick(
            copy, index, item_id, int(now_s() * 1000) if done else None, viewer.brand_id if done else None
        )
    except ConditionFailed:
        raise Conflict(rules.CHANGED) from None
    return _answer(viewer, collab_id, offset, "ticked" if done else None)


def message(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """POST collaborations/{id}/messages {text}: up to 2,000 characters, 60 an hour per brand;
    one transaction."""
    text = rules.clean_message(body)
    copy = _mine(viewer, collab_id)
    if copy.status not in rules.OPEN:
        raise Conflict(rules.NOT_OPEN)
    at = now_s()
    at_ms = int(at * 1000)
    hour = int(at) // HOUR * HOUR
    counter = RateCounter.key(MESSAGE_WINDOW, str(viewer.brand_id), hour)
    msg = CollabMessage(
        *CollabMessage.key(collab_id, at_ms, secrets.token_hex(4)),
        collab_id=collab_id,
        message_id=secrets.token_hex(6),
        brand_id=viewer.brand_id,
        author=viewer.user.first_name or "",
        text=text,
        at=at_ms,
    )
    try:
        store.write_message(msg, copy, counter, rules.MESSAGES_PER_HOUR, hour + 2 * HOUR)
    except ConditionFailed as failed:
        if counter in failed.failed_keys:
            raise TooManyRequests(rules.TOO_MANY_MESSAGES, errors={"text": rules.TOO_MANY_MESSAGES}) from None
        raise Conflict(rules.NOT_OPEN) from None
    return _answer(viewer, collab_id, offset, "message", text)


def record_results(viewer: Viewer, collab_id: str, body: Any, offset: str | None) -> dict[str, Any]:
    """PUT collaborations/{id}/results {reach?, followers?, clicks?, orders?, revenue?, currency?,
    again, rating}: after the end date; changeable until the other side can see them."""
    results = rules.clean_results(body)
    copy = _mine(viewer, collab_id)
    on = _on(offset)
    _, end = _dates(copy)
    if copy.status != rules.AGREED or on <= end:
        raise Conflict(rules.NO_RESULTS_YET)
    now_ms = int(now_s() * 1000)
    results["recordedAt"] = now_ms
    field = Collaboration.results_a if copy.role(viewer.brand_id) == "a" else Collaboration.results_b
    both_now = copy.results_of(int(copy.other_id)) is not None and copy.results_of(viewer.brand_id) is None
    store.update_both(
        copy,
        [field.set(results), Collaboration.updated_at.set(now_ms)],
        moves={rules.RESULTS_IN: 1} if both_now else None,
    )
    answer = _answer(viewer, collab_id, offset, "results")
    _learn(viewer, copy, results)
    return answer


def _learn(viewer: Viewer, copy: Collaboration, results: dict[str, Any]) -> None:
    """The outcome joins matching's learning records (tandem.services.match_learning): would the
    brand partner again, and how it went. The outcome counts for the format on the brand
    (Brand.format_outcomes): a format that worked becomes one the brand is matched on and raises
    the score of partners offering it, by a grade shrunk while outcomes are few
    (tandem.domain.matching.format_grade; its match record refreshed). A record that cannot be
    kept never fails the caller."""
    try:
        if copy.format in rules.FORMATS and viewer.brand is not None:
            brand = viewer.brand
            counts = add_outcome(brand.format_outcomes, copy.format, bool(results.get("again")))
            brand.update(actions=[Brand.format_outcomes.set(counts)])
            match_index.refresh(brand)
    except Exception:
        logger.exception("Could not keep a format that worked for matching")
    try:
        partner = Brand.find(int(copy.other_id))
        if partner is not None and viewer.brand is not None:
            match_learning.record_collaboration(
                viewer.brand, partner, copy.collab_id, bool(results["again"]), int(results["rating"]),
                int(copy.created_at),
            )  # fmt: skip
    except Exception:
        logger.exception("Could not record a collaboration's outcome for matching")


def admin_figures(now: float | None = None) -> dict[str, Any]:
    """GET admin/collaborations: how many collaborations are in each stored status (and how many
    have both sides' results), how many were proposed this month (UTC) and in each month. One
    GetItem (the counts are kept in each change's transaction)."""
    figures = store.stats()
    month = datetime.fromtimestamp(now if now is not None else now_s(), UTC).strftime("%Y%m")
    statuses = figures["statuses"]
    return {
        "byStatus": {s: int(statuses.get(s, 0)) for s in (*rules.STORED, rules.RESULTS_IN)},
        "thisMonth": int(figures["months"].get(month, 0)),
        "byMonth": [{"month": m, "proposed": n} for m, n in sorted(figures["months"].items())],
    }
