"""Member collabs (`GET collab/examples`) and the agreement that puts a connection there.

A connection (an accepted request) can be shown to other members only when both brands
agree: either brand proposes, with a short summary of what they did together (and the Collab
Idea it was, if any); the other brand agrees to that summary; either brand can withdraw at any
time, which removes it at once. A new proposal (say, an edited summary) asks the other brand
again. Only the two brands of the connection can see or change its share (any other brand is
told it is not connected: the same 404 as GET connections/{brandId}).

A share may show one of the two brands' finished collaborations (issue 41) with its results:
the proposer names it and the figures of its own it allows; the other brand, agreeing, the
figures of its own it allows; member collabs shows only the figures both allowed, once each side
may see the other's (tandem.domain.collaborations.shared_figures).
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from tandem.content import collab_ideas
from tandem.domain import collaborations as collab_rules
from tandem.domain import relations as rel
from tandem.domain import requests as request_rules
from tandem.domain.identity import CONNECTED, STRANGER, Looker, identity
from tandem.domain.times import iso_ms
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.services import collaborations
from tandem.services.viewer import Pending, Viewer
from tandem.store.collaborations import Collaboration
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.models import Brand, BrandRelation
from tandem.store.requests import ConnectionRequest
from tandem.store.shares import ALL_SHARED, CollabShare, shared_gsi_sk

NOT_CONNECTED = "You are not connected with this brand"
SUMMARY_MIN, SUMMARY_MAX = 20, 500
EXAMPLES_LIMIT = 60
NOTHING_TO_AGREE = "There is no proposal to share this collab."
ALREADY_AGREED = "Your brand has already agreed to share this collab."
CHANGED = "The proposal changed while you were reading it: read the new summary and agree again."


def _connection(
    relation: BrandRelation | None, brand_id: int
) -> tuple[str, ConnectionRequest, CollabShare | None]:
    """The accepted request between the caller's brand and the other, and its share (one
    BatchGetItem). Anything else is the 404 a stranger gets."""
    if relation is None or relation.request_state != rel.CONNECTED or not relation.request_id:
        raise NotFound(NOT_CONNECTED)
    request_key, share_key = ConnectionRequest.key(relation.request_id), CollabShare.key(relation.request_id)
    found = get_many([(ConnectionRequest, request_key), (CollabShare, share_key)], consistent=True)
    request = found.get(request_key)
    if (
        request is None
        or request.status != request_rules.ACCEPTED
        or brand_id not in (int(request.from_brand_id), int(request.to_brand_id))
    ):
        raise NotFound(NOT_CONNECTED)
    return relation.request_id, request, found.get(share_key)


def _state(share: CollabShare | None, brand_id: int) -> str:
    if share is None:
        return "none"
    if share.is_shared:
        return "shared"
    return "waiting-for-them" if share.agreed(brand_id) else "waiting-for-you"


def share_json(share: CollabShare | None, brand_id: int) -> dict[str, Any]:
    """How the connection page shows the share: its state for this brand and what was proposed
    (the collaboration it shows, if any, and the figures each side allows of its own)."""
    answer: dict[str, Any] = {"state": _state(share, brand_id)}
    if share is not None:
        idea = collab_ideas.get(share.idea) if share.idea else None
        other = int(share.to_brand_id) if brand_id == int(share.from_brand_id) else int(share.from_brand_id)
        answer |= {
            "summary": share.summary,
            "idea": {"slug": idea.slug, "title": idea.title} if idea else None,
            "proposedByYou": int(share.proposed_by) == brand_id,
            "proposedAt": int(share.proposed_at),
            "sharedAt": iso_ms(share.shared_at),
            "collaboration": {"id": share.collab_id, "title": share.collab_title}
            if share.collab_id
            else None,
            "figures": {"yours": share.figures_of(brand_id), "theirs": share.figures_of(other)},
        }
    return answer


def _relation(viewer: Viewer, other_id: int) -> BrandRelation | None:
    """The viewer's relation to the other brand, read at the door (tandem.services.viewer
    SHARE); a brand blocked either way or suspended is as a brand it is not connected with."""
    if other_id in viewer.hidden:
        return None
    return viewer.item(BrandRelation, viewer.brand_id, other_id)


def share_of(viewer: Viewer, other_id: int) -> dict[str, Any]:
    """GET connections/{brandId}/share."""
    brand_id = viewer.brand_id
    _, _, share = _connection(_relation(viewer, other_id), brand_id)
    return {"share": share_json(share, brand_id)}


def clean_proposal(body: Any) -> tuple[str, str | None]:
    if not isinstance(body, dict):
        raise ValidationError('Send the summary as JSON: {"summary": "..."}.')
    summary = body.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        raise ValidationError("Write a short summary of what you did together.")
    summary = " ".join(summary.split())
    if not SUMMARY_MIN <= len(summary) <= SUMMARY_MAX:
        raise ValidationError(
            f"The summary must be {SUMMARY_MIN} to {SUMMARY_MAX} characters (it has {len(summary)})."
        )
    idea = body.get("idea")
    if idea in (None, ""):
        return summary, None
    if not isinstance(idea, str) or len(idea) > 80 or collab_ideas.get(idea) is None:
        raise ValidationError("Choose the Collab Idea from the list, or none.")
    return summary, idea


def _finished_collaboration(
    body: dict[str, Any], brand_id: int, other_id: int, offset: str | None
) -> Collaboration | None:
    """The collaboration a proposal names (`collaboration`: its id), the caller's copy: one of
    the two brands' and finished (past its end date); None when none is named."""
    raw = body.get("collaboration")
    if raw in (None, ""):
        return None
    named = isinstance(raw, str) and collaborations.ID.match(raw)
    copy = Collaboration.find(raw, brand_id) if named else None
    on = collab_rules.today(collab_rules.parse_offset(offset), collaborations.now_s())
    if (
        copy is None
        or int(copy.other_id) != other_id
        or not collab_rules.finished(copy.status, date.fromisoformat(copy.end), on)
    ):
        raise ValidationError(collab_rules.NOT_FINISHED)
    return copy


def propose(viewer: Viewer, other_id: int, body: Any, offset: str | None = None) -> dict[str, Any]:
    """POST connections/{brandId}/share {summary, idea?, collaboration?, figures?}: this brand
    agrees to show the collab with this summary (and, naming a finished collaboration of the
    two, the figures of its own it allows); the other brand is asked (again). One PutItem,
    replacing any earlier proposal or share."""
    summary, idea = clean_proposal(body)
    figures = collab_rules.clean_figures(body.get("figures"))
    brand_id = viewer.brand_id
    request_id, request, _ = _connection(_relation(viewer, other_id), brand_id)
    collab = _finished_collaboration(body, brand_id, other_id, offset)
    if collab is None and figures:
        raise ValidationError(collab_rules.NOT_FINISHED)
    from_id = int(request.from_brand_id)
    share = CollabShare(
        *CollabShare.key(request_id),
        request_id=request_id,
        from_brand_id=from_id,
        to_brand_id=int(request.to_brand_id),
        summary=summary,
        idea=idea,
        proposed_by=brand_id,
        proposed_at=int(time.time() * 1000),
        from_agreed=brand_id == from_id,
        to_agreed=brand_id != from_id,
        collab_id=collab.collab_id if collab is not None else None,
        collab_title=collab.title if collab is not None else None,
        from_figures=figures if brand_id == from_id else [],
        to_figures=figures if brand_id != from_id else [],
    )
    share.save()
    return {"share": share_json(share, brand_id)}


def agree(viewer: Viewer, other_id: int, body: Any) -> dict[str, Any]:
    """POST connections/{brandId}/share/agree {proposedAt, figures?}: the other brand's proposal,
    as this brand read it, is agreed (with the figures of its own it allows, when the proposal
    shows a collaboration); the collab is shared. A proposal changed since is a 409."""
    seen = body.get("proposedAt") if isinstance(body, dict) else None
    if not isinstance(seen, int) or isinstance(seen, bool):
        raise ValidationError("Say which proposal you agree to (proposedAt).")
    figures = collab_rules.clean_figures(body.get("figures"))
    brand_id = viewer.brand_id
    request_id, _, share = _connection(_relation(viewer, other_id), brand_id)
    if share is None:
        raise NotFound(NOTHING_TO_AGREE)
    if share.agreed(brand_id):
        raise Conflict(ALREADY_AGREED)
    if int(share.proposed_at) != seen:
        raise Conflict(CHANGED)
    if figures and not share.collab_id:
        raise ValidationError(collab_rules.NOT_FINISHED)
    now = int(time.time() * 1000)
    is_from = brand_id == int(share.from_brand_id)
    mine = CollabShare.from_agreed if is_from else CollabShare.to_agreed
    my_figures = CollabShare.from_figures if is_from else CollabShare.to_figures
    try:
        share.update(
            actions=[
                mine.set(True),
                my_figures.set(figures),
                CollabShare.shared_at.set(now),
                CollabShare.gsi1pk.set(ALL_SHARED),
                CollabShare.gsi1sk.set(shared_gsi_sk(now, request_id)),
            ],
            condition=CollabShare.proposed_at == seen,
        )
    except ConditionFailed:
        raise Conflict(CHANGED) from None
    return {"share": share_json(share, brand_id)}


def withdraw(viewer: Viewer, other_id: int) -> dict[str, Any]:
    """DELETE connections/{brandId}/share: either brand takes it back (a proposal or a share);
    it leaves member collabs at once."""
    brand_id = viewer.brand_id
    request_id, _, share = _connection(_relation(viewer, other_id), brand_id)
    if share is None:
        raise NotFound(NOTHING_TO_AGREE)
    CollabShare.at(request_id).delete()
    return {"share": share_json(None, brand_id)}


def examples(pending: Pending) -> dict[str, Any]:
    """GET collab/examples: the collabs members agreed to show, newest first. Each is a SPEC
    Project list item (name, _id, active, shared) with its two brands as they are now, the
    summary and the idea. Only shared ones are listed (the SPEC lets shared items be left out
    of other lists; these are the list of them). A share of a finished collaboration carries it
    (title, format, dates) and the result figures both brands allowed. One Query, then one
    BatchGetItem of the brands and those collaborations with the caller's own items, checked
    there."""
    brand_id = pending.brand_id
    shares = list(CollabShare.newest(EXAMPLES_LIMIT))  # call 1
    wanted = [*pending.keys, (Brand, Brand.key(brand_id))]
    for share in shares:
        wanted += [(Brand, Brand.key(int(share.from_brand_id))), (Brand, Brand.key(int(share.to_brand_id)))]
        if share.collab_id:
            wanted.append((Collaboration, Collaboration.key(share.collab_id, int(share.from_brand_id))))
    found = get_many(wanted)  # call 2
    viewer = pending.viewer(found, found.get(Brand.key(brand_id)))
    looker = Looker(viewer.account_id, names_shown=True)
    items = []
    for share in shares:
        pair = [found.get(Brand.key(int(share.from_brand_id))), found.get(Brand.key(int(share.to_brand_id)))]
        if None in pair or not share.is_shared:
            continue  # a brand deleted since: nothing to show
        yours = brand_id in (int(share.from_brand_id), int(share.to_brand_id))
        # The two brands agreed to show it, but one that hides its name stays hidden to members
        # who are not its partner: masked, and its name taken out of the summary (issue 40).
        seen = [identity(looker, b, CONNECTED if yours else STRANGER) for b in pair if b is not None]
        brands = [who.summary(int(b.brand_id)) for who, b in zip(seen, pair, strict=True) if b is not None]
        summary = share.summary
        for who in seen:
            summary = who.text(summary)
        idea = collab_ideas.get(share.idea) if share.idea else None
        key = Collaboration.key(share.collab_id, int(share.from_brand_id)) if share.collab_id else None
        copy = found.get(key) if key else None
        items.append(
            {
                "_id": share.request_id,
                "name": f"{brands[0]['name']} × {brands[1]['name']}",
                "active": True,
                "shared": True,
                "brands": brands,
                "summary": summary,
                "idea": {"slug": idea.slug, "title": idea.title} if idea else None,
                "sharedAt": iso_ms(share.shared_at),
                "yours": yours,
                "collaboration": _shown_collaboration(share, copy, seen),
            }
        )
    return {"items": items}


def _shown_collaboration(
    share: CollabShare, copy: Collaboration | None, seen: list[Any]
) -> dict[str, Any] | None:
    """The finished collaboration a share shows, as other members read it: its title (masked as
    the summary is), format and dates, and the figures both brands allowed."""

    if copy is None:
        return None
    pair = (int(share.from_brand_id), int(share.to_brand_id))
    end = date.fromisoformat(copy.end)
    results = (copy.results_of(pair[0]), copy.results_of(pair[1]))
    on = collab_rules.today(0.0, collaborations.now_s())
    title = copy.title
    for who in seen:
        title = who.text(title)
    return {
        "title": title,
        "format": copy.format,
        "start": copy.start,
        "end": copy.end,
        "figures": collab_rules.shared_figures(
            (share.figures_of(pair[0]), share.figures_of(pair[1])),
            results,
            collab_rules.results_visible(bool(results[0] and results[1]), end, on),
        ),
    }
