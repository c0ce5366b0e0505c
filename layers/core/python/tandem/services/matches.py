"""The Matches screens and the public brand view, as seen by the selected brand.

A match run (services/match_runs.py) writes Match items under the brand's partition; this
module reads them with the brand's relations (one query each), joins the other brands' data with
BatchGet and applies who may see whose name (domain/brand_profile.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tandem.domain import brand_profile
from tandem.errors import NotFound, ValidationError
from tandem.services import accounts, brands, match_runs, relations, subscriptions
from tandem.store import keys
from tandem.store.models import Account, Brand, BrandRelation, Match

LISTS = ("potentials", "saved")
MAX_BRAND_FILTER = 100
OWN_BRAND_MESSAGE = "That is one of your own brands"


@dataclass(frozen=True)
class Viewer:
    """The selected brand and what its account may see."""

    brand: Brand
    subscribed: bool

    @property
    def brand_id(self) -> int:
        return int(self.brand.brand_id)

    @property
    def account_id(self) -> str:
        return self.brand.account_id


def viewer_for(brand: Brand, account: Account | None = None) -> Viewer:
    account = account if account is not None else accounts.get_account(brand.account_id)
    return Viewer(brand=brand, subscribed=subscriptions.is_subscribed(account))


def showing_brand_names(account: Account | None) -> bool:
    """Dashboard `showingBrandNames`: this member sees other brands' names in Matches."""
    return brand_profile.NAMES_SHOWN_GLOBALLY and subscriptions.is_subscribed(account)


def _name_visible(viewer: Viewer, other: Brand, relation: BrandRelation | None) -> bool:
    return brand_profile.name_visible(
        same_account=other.account_id == viewer.account_id,
        connected=relation is not None and relation.request_state == "connected",
        viewer_subscribed=viewer.subscribed,
        hides_name=bool(other.hide_name),
    )


def _identity(other: Brand, visible: bool) -> dict[str, Any]:
    """Name, logo and description as this viewer may see them. A masked brand shows neither
    its logo nor its name inside the description (either would give the name away)."""
    if visible:
        return {
            "name": other.name,
            "nameVisible": True,
            "logoUrl": brands.logo_url(other),
            "description": other.description or "",
        }
    return {
        "name": brand_profile.masked_name(other.category or ""),
        "nameVisible": False,
        "logoUrl": None,
        "description": brand_profile.masked_description(other.description or "", other.name),
    }


def _score(match: Match) -> dict[str, Any]:
    return _scored(float(match.score), list(match.reasons or []))


def _scored(score: float, reasons: list[str]) -> dict[str, Any]:
    percent = brand_profile.score_percent(score)
    return {"score": percent, "fit": brand_profile.fit_label(percent), "reasons": reasons}


def _score_now(me: Brand, other: Brand) -> dict[str, Any]:
    """A saved brand that is not among the stored matches (saved from its brand page, or a
    match an older run found): scored on the spot with the same engine as the runs."""
    from tandem.domain import matching
    from tandem.services.match_index import to_profile

    scored = matching.score_pair(to_profile(me), to_profile(other))
    return _scored(scored.score, list(scored.reasons))


def _matches_of(brand_id: int) -> dict[int, Match]:
    return {
        int(m.candidate_id): m for m in Match.query(keys.brand_pk(brand_id), Match.sk.startswith("MATCH#"))
    }


def _brands_by_id(ids: Iterable[int]) -> dict[int, Brand]:
    """The brands' items, BatchGet in calls of 100 (missing brands are left out)."""
    wanted = sorted(set(ids))
    found: dict[int, Brand] = {}
    for start in range(0, len(wanted), brands.BATCH_GET_LIMIT):
        for brand in brands.get_many(wanted[start : start + brands.BATCH_GET_LIMIT]):
            found[int(brand.brand_id)] = brand
    return found


def parse_brand_ids(raw: str | None) -> set[int] | None:
    """`brandIds=1,2,3` -> {1, 2, 3}; absent -> None (no filter)."""
    if raw is None or not raw.strip():
        return None
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    if len(parts) > MAX_BRAND_FILTER:
        raise ValidationError(f"Ask for at most {MAX_BRAND_FILTER} brands at a time")
    if not all(p.isascii() and p.isdigit() and len(p) <= 12 and 0 < int(p) for p in parts):
        raise ValidationError("brandIds must be brand ids separated by commas")
    return {int(p) for p in parts}


def list_matches(viewer: Viewer, which: str, brand_ids: set[int] | None = None) -> dict[str, Any]:
    """GET matches: MatchCards best first. Potentials leave out dismissed, requested, connected
    and declined brands, and listing them marks them seen (the menu's new-matches count)."""
    if which not in LISTS:
        raise ValidationError("list must be potentials or saved")
    me = viewer.brand_id
    matches = _matches_of(me)
    rels = relations.of_brand(me)
    excluded = {other for other, rel in rels.items() if relations.is_excluded(rel)}
    if which == "potentials":
        ids = [i for i in matches if i not in excluded]
    else:
        ids = [other for other, rel in rels.items() if rel.saved and not rel.dismissed]
    if brand_ids is not None:
        ids = [i for i in ids if i in brand_ids]
    others = _brands_by_id(ids)
    cards = []
    for other_id in ids:
        other = others.get(other_id)
        if other is None or other.account_id == viewer.account_id:
            continue
        rel = rels.get(other_id)
        match = matches.get(other_id)
        identity = _identity(other, _name_visible(viewer, other, rel))
        cards.append(
            {
                "id": other_id,
                "name": identity["name"],
                "nameVisible": identity["nameVisible"],
                "logoUrl": identity["logoUrl"],
                "category": other.category or "",
                "description": identity["description"],
                **(_score(match) if match is not None else _score_now(viewer.brand, other)),
                "saved": bool(rel and rel.saved),
                "isNew": bool(match is not None and not match.seen),
            }
        )
    # The run's diversified order (rank) first, so the list is not ten near-copies; saved
    # brands without a stored match go after, best score first.
    order = {i: (0, int(m.rank), 0) for i, m in matches.items() if m.rank is not None}
    cards.sort(key=lambda c: order.get(c["id"], (1, -c["score"], c["id"])))
    if which == "potentials":
        # What was listed is no longer new; nor are matches this brand will never be shown.
        shown = {c["id"] for c in cards}
        _mark_seen(m for i, m in matches.items() if not m.seen and (i in shown or i in excluded))
    open_run = match_runs.latest_open_run(me)
    return {
        "matches": cards,
        "showingBrandNames": viewer.subscribed and brand_profile.NAMES_SHOWN_GLOBALLY,
        "runOutstanding": open_run is not None,
        "runId": open_run.run_id if open_run else None,
    }


def _mark_seen(unseen: Iterable[Match]) -> None:
    for match in unseen:
        try:
            match.update(actions=[Match.seen.set(True)], condition=Match.pk.exists())
        except Exception as exc:  # the item went away in between (a rerun): nothing to mark
            if "ConditionalCheckFailed" not in repr(exc):
                raise


def _other_brand(viewer: Viewer, other_id: int) -> Brand:
    other = brands.get_brand(other_id)  # NotFound: 'Brand not found'
    if other.account_id == viewer.account_id:
        raise ValidationError(OWN_BRAND_MESSAGE)
    return other


def set_saved(viewer: Viewer, other_id: int, saved: bool) -> dict[str, bool]:
    """Save (which also undoes a dismissal) or unsave another brand."""
    _other_brand(viewer, other_id)
    flags = {"saved": True, "dismissed": False} if saved else {"saved": False}
    relations.set_flags(viewer.brand_id, other_id, **flags)
    return {"saved": saved}


def set_dismissed(viewer: Viewer, other_id: int, dismissed: bool) -> dict[str, bool]:
    """Dismiss (no longer suggested, no longer saved, not new) or undo a dismissal."""
    _other_brand(viewer, other_id)
    flags = {"dismissed": True, "saved": False} if dismissed else {"dismissed": False}
    relations.set_flags(viewer.brand_id, other_id, **flags)
    if dismissed:
        try:
            match = Match.get(keys.brand_pk(viewer.brand_id), keys.match_sk(other_id))
        except Match.DoesNotExist:
            match = None
        if match is not None and not match.seen:
            _mark_seen([match])
    return {"dismissed": dismissed}


def public_view(viewer: Viewer, other_id: int) -> dict[str, Any]:
    """GET brand/{brandId}: any brand as the selected brand sees it. Contact details only for
    connected brands and the member's own."""
    try:
        other = brands.get_brand(other_id)
    except NotFound:
        raise NotFound("Brand not found") from None
    is_own = other.account_id == viewer.account_id
    rel = None if other_id == viewer.brand_id else relations.get(viewer.brand_id, other_id)
    connected = rel is not None and rel.request_state == "connected"
    visible = _name_visible(viewer, other, rel)
    identity = _identity(other, visible)
    try:
        match: Match | None = Match.get(keys.brand_pk(viewer.brand_id), keys.match_sk(other_id))
    except Match.DoesNotExist:
        match = None
    return {
        "brand": {
            "id": other_id,
            "name": identity["name"],
            "nameVisible": visible,
            "logoUrl": identity["logoUrl"],
            "website": (other.website or None) if visible else None,
            "description": identity["description"],
            "category": other.category or "",
            "companySize": other.company_size or "",
            "audience": brands.audience_json(other),
            "values": sorted(other.values or ()),
            "collabKinds": sorted(other.collab_kinds or ()),
            "social": brands.social_json(other) if visible else dict.fromkeys(brand_profile.SOCIAL_NETWORKS),
            "contact": brands.contact_json(other) if (connected or is_own) else None,
        },
        "relation": {
            "saved": bool(rel and rel.saved),
            "dismissed": bool(rel and rel.dismissed),
            "requestState": (rel.request_state if rel else "") or None,
            "requestId": (rel.request_id if rel else "") or None,
        },
        "match": None if match is None or is_own else _match_json(match),
        "isOwn": is_own,
    }


def _match_json(match: Match) -> dict[str, Any]:
    return _score(match)
