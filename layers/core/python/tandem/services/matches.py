"""The Matches screens and the public brand view, as seen by the selected brand.

A match run (services/match_runs.py) writes the brand's match list (one MatchCards item) and
its Match items under the brand's partition; the lists read the match list with the brand's
relations and what is new to it (one query), join the other brands' data with BatchGet and
apply who may see whose name (domain/brand_profile.py). The brand page reads the Match item.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from tandem.domain import brand_profile, matching, reply_time
from tandem.domain import relations as rel
from tandem.domain import requests as request_rules
from tandem.domain.identity import CONNECTED, STRANGER, identity
from tandem.domain.ids import parse_id
from tandem.errors import NotFound, ValidationError
from tandem.services import brands, match_learning, reply_stats, visibility
from tandem.services.match_profile import to_profile
from tandem.services.viewer import Pending, Viewer
from tandem.store import news
from tandem.store.items import get_many
from tandem.store.matches import Match, MatchCard, MatchCards
from tandem.store.models import Account, Brand, BrandRelation, BrandSeen
from tandem.store.partition import BrandItems, brand_items

logger = logging.getLogger(__name__)

LISTS = ("potentials", "saved")
MAX_BRAND_FILTER = 100
OWN_BRAND_MESSAGE = "That is one of your own brands"


def _identity(viewer: Viewer, other: Brand, relation: BrandRelation | None) -> dict[str, Any]:
    """Name, logo and description as this viewer may see them (tandem.domain.identity)."""
    connected = relation is not None and relation.request_state == rel.CONNECTED
    shown = identity(viewer, other, CONNECTED if connected else STRANGER)
    return {
        "name": shown.name,
        "nameVisible": shown.name_visible,
        "logoUrl": shown.logo_url,
        "description": shown.description,
    }


def _score(
    match: Match | MatchCard, thresholds: dict[str, int] | None = None, promises: dict | None = None
) -> dict[str, Any]:
    fit = match.fit if match.fit in brand_profile.FIT_LABELS else None  # as its run labelled it
    return _scored(float(match.score), list(match.reasons or []), thresholds, promises, fit)


def _scored(
    score: float,
    reasons: list[str],
    thresholds: dict[str, int] | None = None,
    promises: dict | None = None,
    fit: str | None = None,
) -> dict[str, Any]:
    """`score` (the percent), `fit` (the label its run gave it, else its percent's by the run's
    `thresholds`; None: the defaults) and `fitPromise` (what our own data backs for it, the run's
    `promises`; None: nothing yet)."""
    percent = brand_profile.score_percent(score)
    fit = fit or brand_profile.fit_label(percent, brand_profile.thresholds_or_defaults(thresholds))
    return {
        "score": percent,
        "fit": fit,
        "fitPromise": brand_profile.fit_promise(fit, promises),
        "reasons": reasons,
    }


def _score_now(
    me: Brand,
    other: Brand,
    thresholds: dict[str, int] | None = None,
    promises: dict | None = None,
    fit: str | None = None,
) -> dict[str, Any]:
    """A saved brand that is not among the stored matches (saved from its brand page, or a
    match an older run found): scored on the spot with the same engine as the runs (`fit`: its
    label when the caller has it)."""
    scored = matching.score_pair(to_profile(me), to_profile(other))
    return _scored(scored.score, list(scored.reasons), thresholds, promises, fit)


def parse_brand_ids(raw: str | None) -> set[int] | None:
    """`brandIds=1,2,3` -> {1, 2, 3}; absent -> None (no filter)."""
    if raw is None or not raw.strip():
        return None
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    if len(parts) > MAX_BRAND_FILTER:
        raise ValidationError(f"Ask for at most {MAX_BRAND_FILTER} brands at a time")
    ids = [parse_id(p) for p in parts]
    if any(i is None for i in ids):
        raise ValidationError("brandIds must be brand ids separated by commas")
    return {i for i in ids if i is not None}


def list_matches(pending: Pending, which: str, brand_ids: set[int] | None = None) -> dict[str, Any]:
    """GET matches: MatchCards best first. Potentials leave out dismissed, requested, connected
    and declined brands, and listing them marks them seen (the menu's new-matches count).

    Three DynamoDB calls: the brand's partition (its match list, relations, profile and what is
    new), one BatchGetItem of the other brands with the viewer's account (and the caller's
    own items, checked there), and, when potentials showed new matches or cards it had not
    shown before, one UpdateItem of its BrandSeen item (the one item a GET writes)."""
    if which not in LISTS:
        raise ValidationError("list must be potentials or saved")
    brand_id = pending.brand_id
    mine = brand_items(brand_id, with_cards=True)  # call 1
    matches, rels = _match_list(brand_id, mine), mine.relations
    excluded = {other for other, r in rels.items() if rel.is_excluded(r.request_state, r.dismissed)}
    ids = _listed_ids(which, matches, rels, excluded, brand_ids)
    account_key = Account.key(mine.profile.account_id) if mine.profile is not None else None
    # Each card's reply-time labels are the code its run stored (from the last nightly rebuild's
    # figures): no one's BrandReplyStats is read here, so 50 brands and the caller's keys fit
    # one BatchGetItem (100 keys).
    wanted = [*pending.keys, *((Brand, Brand.key(i)) for i in ids)]
    wanted += visibility.keys(brand_id, with_blocks=False)  # blocks came with the partition
    if account_key is not None:
        wanted.append((Account, account_key))
    found = get_many(wanted)  # call 2
    hidden = visibility.hidden_from(brand_id, found, blocks=mine.blocks)
    viewer = pending.viewer(found, mine.profile, found.get(account_key) if account_key else None, hidden)
    fresh = news.ids(mine.seen, news.MATCHES)
    cards = []
    for other_id in ids:
        other = found.get(Brand.key(other_id))
        if other is None or other.account_id == viewer.account_id or other_id in hidden or other.suspended:
            continue
        relation = rels.get(other_id)
        match = matches.get(other_id)
        cards.append(
            _card(
                viewer,
                other,
                relation,
                _score(match, mine.thresholds, mine.promises)
                if match is not None
                else _score_now(viewer.brand, other, mine.thresholds, mine.promises),
                is_new=match is not None and str(other_id) in fresh,
                labels=match.labels if match is not None else 0,
            )
        )
    # The run's diversified order (rank) first, so the list is not ten near-copies; saved
    # brands without a stored match go after, best score first.
    order = {i: (0, int(m.rank), 0) for i, m in matches.items() if m.rank is not None}
    cards.sort(key=lambda c: order.get(c["id"], (1, -c["score"], c["id"])))
    if which == "potentials":
        # What was listed is no longer new; nor are matches this brand will never be shown.
        shown = {str(c["id"]) for c in cards} | {str(i) for i in excluded} | {str(i) for i in hidden}
        _record_view(viewer.brand, mine.seen, cards, fresh & shown, matches)  # call 3
    open_run = news.open_run_of(mine.seen)
    return {
        "matches": cards,
        "showingBrandNames": viewer.names_shown,
        "runOutstanding": open_run is not None,
        "runId": open_run,
    }


def _record_view(
    me: Brand,
    kept: BrandSeen | None,
    cards: list[dict[str, Any]],
    seen: set[str],
    matches: dict[int, MatchCard] | None = None,
) -> None:
    """Keep what this view showed (what matching learns from, issue 37) and that the new matches
    it showed are no longer new, on the one BrandSeen item (`kept`: as the screen read it): one
    UpdateItem, none when neither changes. Each card keeps the propensity its run gave it in
    the match list (`matches`; an exploration place's is below 1). A view that cannot be kept
    never fails the screen."""
    listed = matches or {}

    def propensity(brand_id: int) -> float:
        card = listed.get(brand_id)
        return float(card.propensity) if card is not None else 1.0

    try:
        views = match_learning.views_after(
            kept.views if kept is not None else None,
            [(int(c["id"]), int(c["score"]), propensity(int(c["id"]))) for c in cards],
        )
    except Exception:
        logger.exception("Could not keep a Matches view")
        views = None
    news.viewed(int(me.brand_id), news.MATCHES, seen, views)


def _match_list(brand_id: int, mine: BrandItems) -> dict[int, MatchCard]:
    """The brand's match list as its last run wrote it. A brand whose last run stored only Match
    items (before the match list existed) is read from them: one more Query, until its next run."""
    if mine.cards is not None:
        return mine.cards
    return {other: MatchCards.from_match(m) for other, m in Match.of_brand(brand_id).items()}


def _listed_ids(
    which: str,
    matches: dict[int, MatchCard],
    rels: dict[int, BrandRelation],
    excluded: set[int],
    brand_ids: set[int] | None,
) -> list[int]:
    """The brands a list shows: potentials are the matches, in the match list's order, but for
    those left out (dismissed, requested, connected, declined); saved are the saved relations.
    The one place that decides who is listed."""
    if which == "potentials":
        ids = [i for i in matches if i not in excluded]
    else:
        ids = [other for other, r in rels.items() if r.saved and not r.dismissed]
    if brand_ids is not None:
        ids = [i for i in ids if i in brand_ids]
    return ids


def _other_brand(viewer: Viewer, other_id: int, hidden: frozenset[int] = frozenset()) -> Brand:
    """The other brand; one `hidden` from the viewer (blocked either way or suspended:
    tandem.services.visibility) is 'Brand not found', as an unknown one."""
    if other_id in hidden:
        raise NotFound(visibility.NOT_FOUND)
    other = brands.get_brand(other_id)  # NotFound: 'Brand not found'
    if other.account_id == viewer.account_id:
        raise ValidationError(OWN_BRAND_MESSAGE)
    return other


def set_saved(viewer: Viewer, other_id: int, saved: bool) -> dict[str, bool]:
    """Save (which also undoes a dismissal) or unsave another brand (reads: SEES)."""
    other = _other_brand(viewer, other_id, viewer.hidden)
    flags = {"saved": True, "dismissed": False} if saved else {"saved": False}
    BrandRelation.set_flags(viewer.brand_id, other_id, **flags)
    if saved:
        _record_action(viewer.brand, other, "save")
    return {"saved": saved}


def _record_action(me: Brand, other: Brand, kind: str) -> None:
    """What matching learns from (issue 37); a record that cannot be kept never fails the action."""
    try:
        match_learning.record_action(me, other, kind)
    except Exception:
        logger.exception("Could not record a card action", extra={"kind": kind})


def set_dismissed(viewer: Viewer, other_id: int, dismissed: bool) -> dict[str, bool]:
    """Dismiss (no longer suggested, no longer saved, not new) or undo a dismissal (reads: SEES)."""
    other = _other_brand(viewer, other_id, viewer.hidden)
    flags = {"dismissed": True, "saved": False} if dismissed else {"dismissed": False}
    BrandRelation.set_flags(viewer.brand_id, other_id, **flags)
    if dismissed:
        news.remove(viewer.brand_id, news.MATCHES, [other_id])
        _record_action(viewer.brand, other, "dismiss")
    return {"dismissed": dismissed}


def public_view(viewer: Viewer, other_id: int) -> dict[str, Any]:
    """GET brand/{brandId}: any brand as the selected brand sees it. Contact details only for
    connected brands and the member's own (reads: SEES)."""
    # The brand, the selected brand's relation to it (consistent: a save or a send just made
    # shows), the match and the brand's reply-time figures in one BatchGetItem: with the
    # Viewer's and the open's record, three calls (the day replay found five, issue 42).
    relation_key = None if other_id == viewer.brand_id else BrandRelation.key(viewer.brand_id, other_id)
    wanted = [
        (Brand, Brand.key(other_id)),
        (Match, Match.key(viewer.brand_id, other_id)),
        reply_stats.stats_key(other_id),
    ]
    if relation_key is not None:
        wanted.append((BrandRelation, relation_key))
    found = get_many(wanted, consistent=True)
    other = found.get(Brand.key(other_id))
    if other is None:
        raise NotFound("Brand not found")
    is_own = other.account_id == viewer.account_id
    if not is_own and (other_id in viewer.hidden or other.suspended):
        raise NotFound(visibility.NOT_FOUND)  # blocked either way, or suspended: as if unknown
    relation = found.get(relation_key) if relation_key is not None else None
    connected = relation is not None and relation.request_state == rel.CONNECTED
    shown = _identity(viewer, other, relation)
    visible = shown["nameVisible"]
    match = found.get(Match.key(viewer.brand_id, other_id))
    if not is_own:
        _record_action(viewer.brand, other, "open")  # the page's one write
    return {
        "brand": {
            "id": other_id,
            "name": shown["name"],
            "nameVisible": visible,
            "logoUrl": shown["logoUrl"],
            "website": (other.website or None) if visible else None,
            "description": shown["description"],
            "category": other.category or "",
            "companySize": other.company_size or "",
            # Audience size only where the brand shows who it is (its name).
            "audienceSize": (other.audience_size or "") if visible else "",
            # Niche and price tier say what kind of brand it is, as its category does: always shown.
            "niche": other.niche or "",
            "priceTier": other.price_tier or "",
            "audience": brands.audience_json(other),
            "values": sorted(other.values or ()),
            "collabKinds": sorted(other.collab_kinds or ()),
            "social": brands.social_json(other) if visible else dict.fromkeys(brand_profile.SOCIAL_NETWORKS),
            "contact": brands.contact_json(other) if (connected or is_own) else None,
            # "Usually replies within a day" / "Replies to most requests" (3+ ended requests)
            "replyLabels": reply_stats.labels_from(found, other_id),
        },
        "relation": {
            "saved": bool(relation and relation.saved),
            "dismissed": bool(relation and relation.dismissed),
            "requestState": (relation.request_state if relation else "") or None,
            "requestId": (relation.request_id if relation else "") or None,
            # After a cancel or decline the sender waits before asking this brand again.
            "waitMessage": request_rules.resend_refusal(
                shown["name"], relation.resend_at if relation else None, int(time.time())
            ),
        },
        "match": None if match is None or is_own else _match_json(match),
        "isOwn": is_own,
    }


def _match_json(match: Match) -> dict[str, Any]:
    scored = _score(match)  # the label its run wrote, by what that run labelled by
    if match.fit:
        scored["fitPromise"] = match.promise or None
    return scored


def _card(
    viewer: Viewer,
    other: Brand,
    relation: BrandRelation | None,
    scored: dict[str, Any],
    *,
    is_new: bool = False,
    labels: int = 0,
) -> dict[str, Any]:
    """One MatchCard, as Matches and search show it: the other brand as the viewer may see it
    (masking), its fit (`scored`), saved, new, and its reply labels (`labels`: the code a match
    run or the search index keeps, tandem.domain.reply_time)."""
    shown = _identity(viewer, other, relation)
    return {
        "id": int(other.brand_id),
        "name": shown["name"],
        "nameVisible": shown["nameVisible"],
        "logoUrl": shown["logoUrl"],
        "category": other.category or "",
        "description": shown["description"],
        **scored,
        "saved": bool(relation and relation.saved),
        "isNew": is_new,
        "replyLabels": reply_time.label_texts(labels),
    }


def search_card(
    viewer: Viewer,
    other: Brand,
    relation: BrandRelation | None,
    labels: int = 0,
    thresholds: dict[str, int] | None = None,
    promises: dict | None = None,
    fit: str | None = None,
) -> dict[str, Any]:
    """A brand found by search as a MatchCard: the same masking, fit and reasons as Matches
    (scored on the spot with the matching engine; search results are not stored matches),
    labelled `fit` when the caller knows it (its card on the viewer's list, or its chance by the
    stored model), else by its percent and `thresholds`, with `promises` (None: the defaults, no
    promise)."""
    scored = _score_now(viewer.brand, other, thresholds, promises, fit)
    return _card(viewer, other, relation, scored, labels=labels)
