"""GET brands/search: the whole directory, searched by name and topic, filtered and sorted, as
the selected brand sees it (the same cards and masking as Matches).

The index lives in the API container's memory (tandem.domain.search.Index), built from the
match-index shards (their packed records and the search rows beside them) and kept current by
a version check: at most once every CHECK_SECONDS a search also reads the shards' manifest (one
small item, in the batch the screen reads anyway) and reloads only shards whose version moved.
No search reads the brands table beyond the page it shows. Decision and figures:
docs/decisions.md, 2026-11-29.

DynamoDB calls of a search: (1) the viewer's partition (profile, relations, what is new, and
its match list: the fit labels' thresholds and promises its last run labelled by, so a brand
carries the same label in search as on Matches, the top label capped as that run capped it);
(2) one BatchGetItem of the caller's items, the viewer's account and, when due, the manifest
and the stored match model (its fit labels' thresholds and promises, for a brand with no match
list yet, and what Best fit ranks by);
(3) one BatchGetItem of the page's brands. A cold container reads the shards in call 2 too (the
keys of shards 0.., as many as the batch's 100 keys leave room for: every shard of a directory
of up to about 190,000 brands), so its first search also makes three calls. Reloading shards
that changed (a warm container), or a shard past that range, adds one BatchGetItem.

A search writes nothing. What a page showed goes back to the screen as its `view` (signed:
`tokens.issue_view_token`), and POST brands/search/views keeps it once the screen shows it
(`keep_view`, one PutItem): what matching learns from (issue 37; docs/decisions.md 2026-12-07).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from typing import Any

from tandem.domain import brand_profile, search_rows
from tandem.domain import search as rules
from tandem.domain.matching import Packed, account_hash, pack, training
from tandem.errors import ValidationError
from tandem.services import match_index, match_learning, tokens, visibility
from tandem.services.matches import search_card
from tandem.services.viewer import Pending, Viewer
from tandem.store import news
from tandem.store.items import BATCH_GET_LIMIT, get_many
from tandem.store.learning import MatchModel, ShownCards
from tandem.store.matches import MatchIndexManifest
from tandem.store.models import Account, Brand
from tandem.store.partition import brand_items

CHECK_SECONDS = 10.0  # a warm container checks the manifest at most this often


class _Cache:
    """The container's index: the shards as loaded, the index built from them, and when the
    manifest was last checked."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.shards: dict[int, rules.Shard] = {}
        self.index: rules.Index | None = None
        self.checked = 0.0
        # The fit labels' thresholds of the stored model (recalibrated from outcomes), read with
        # the manifest: the labels of a viewer that has no match list yet.
        self.thresholds: dict[str, int] | None = None
        self.promises: dict | None = None  # what each label may promise (the stored model's)
        # The stored model as a match run ranks by it (match_learning.model_json), for Best fit.
        self.model: dict[str, Any] | None = None

    def due(self, now: float) -> bool:
        return self.index is None or now - self.checked >= CHECK_SECONDS

    def current(
        self, manifest: MatchIndexManifest | None, now: float, read: Mapping[int, rules.Shard] | None = None
    ) -> rules.Index:
        """The index, brought up to the manifest's versions (None: not read this time). `read`:
        shards a cold container read with the manifest (taken as they are: a version that moved
        between the two reads is caught by the next check)."""
        with self.lock:
            if manifest is not None or self.index is None:
                wanted = manifest.shard_versions if manifest is not None else {}
                read = read or {}
                self.shards.update({n: shard for n, shard in read.items() if n in wanted})
                changed = [
                    s
                    for s, v in wanted.items()
                    if self.shards.get(s) is None or (s not in read and self.shards[s].version != v)
                ]
                gone = [s for s in self.shards if s not in wanted]
                if changed:
                    loaded, _ = match_index.load_for_search(changed)
                    self.shards.update({s.number: s for s in loaded})
                for s in gone:
                    self.shards.pop(s, None)
                if changed or gone or self.index is None:
                    self.index = rules.build(list(self.shards.values()), match_index.SHARD_SIZE)
                self.checked = now
            return self.index


_CACHE = _Cache()


def forget_index() -> None:
    """Drop the container's index (tests; the next search loads it again)."""
    global _CACHE
    _CACHE = _Cache()


def excluded_brand_ids(
    viewer_brand: Brand, index: rules.Index, *, open_only: bool, hidden: frozenset[int] = frozenset()
) -> set[int]:
    """THE brands a viewer never finds in search: its own account's brands, the brands hidden
    from it either way (blocked by it or blocking it, suspended: `visibility.hidden_from`) and,
    for "open to requests now", brands of feature-only accounts."""
    import numpy as np

    mine = index.packed.acct == np.uint64(account_hash(viewer_brand.account_id))
    if open_only:
        mine = mine | ((index.flags & search_rows.FEATURE_ONLY) != 0)
    return {int(i) for i in index.ids[mine]} | set(hidden)


def search(pending: Pending, params: Mapping[str, str | None]) -> dict[str, Any]:
    """One page of a search for the selected brand (see the module's note for its reads)."""
    query = rules.parse_query(params)  # a 400 before anything is read
    brand_id = pending.brand_id
    mine = brand_items(brand_id, with_cards=True)  # call 1
    now = time.monotonic()
    cache = _CACHE
    wanted = [*pending.keys, *visibility.keys(brand_id, with_blocks=False)]  # blocks: partition
    account_key = Account.key(mine.profile.account_id) if mine.profile is not None else None
    if account_key is not None:
        wanted.append((Account, account_key))
    due, cold = cache.due(now), cache.index is None
    if due:
        wanted.append((MatchIndexManifest, MatchIndexManifest.key()))
        wanted.append((MatchModel, MatchModel.key()))
    if cold:  # the shards too, in the same call (the module's note)
        wanted += match_index.first_shard_keys(BATCH_GET_LIMIT - len(wanted))
    found = get_many(wanted)  # call 2
    viewer = pending.viewer(found, mine.profile, found.get(account_key) if account_key else None)
    manifest = found.get(MatchIndexManifest.key()) if due else None
    index = cache.current(manifest, now, match_index.search_shards_in(found) if cold else None)
    if due:
        model = found.get(MatchModel.key())
        cache.thresholds = model.fit_thresholds() if model is not None else None
        cache.promises = _promises(model)
        cache.model = match_learning.model_json(model)
    hidden = visibility.hidden_from(brand_id, found, blocks=mine.blocks)
    excluded = rules.excluded_mask(
        index, excluded_brand_ids(viewer.brand, index, open_only=query.open_only, hidden=hidden)
    )
    me = pack(match_index.to_profile(viewer.brand))
    page = rules.ranked_page(index, query, me, excluded, by_name=viewer.names_shown, model=cache.model)
    ids = [int(index.ids[p]) for p in page.positions]
    labels = dict(
        zip(ids, search_rows.reply_label_codes(index.flags[list(page.positions)]).tolist(), strict=True)
    )
    others = get_many([(Brand, Brand.key(i)) for i in ids]) if ids else {}  # call 3
    fits, promises = _fits(mine, index, me, page.positions, cache)
    thresholds = mine.thresholds if mine.cards is not None else cache.thresholds
    cards = []
    for other_id in ids:
        other = others.get(Brand.key(other_id))
        if other is None:  # deleted since the index was loaded
            continue
        fit, said = fits.get(other_id, (None, promises))
        cards.append(
            search_card(viewer, other, mine.relations.get(other_id), labels[other_id], thresholds, said, fit)
        )
    open_run = news.open_run_of(mine.seen)
    view = (
        tokens.issue_view_token(
            tokens.ShownView(
                brand_id,
                "search",
                match_learning.training_version(),
                query.offset,
                tuple((int(c["id"]), int(c["score"])) for c in cards),
                int(time.time() * 1000),
            )
        )
        if cards
        else None
    )
    return {
        "matches": cards,
        "total": page.total,
        "view": view,
        "nextCursor": rules.make_cursor(query, page.next_offset) if page.next_offset is not None else None,
        "showingBrandNames": viewer.names_shown,
        "runOutstanding": open_run is not None,
        "runId": open_run,
    }


def keep_view(viewer: Viewer, token: object) -> dict[str, Any]:
    """POST brands/search/views: keep what a search page showed the selected brand (the `view`
    its GET returned, signed: no one can claim to have been shown cards they were not), as one
    ShownCards item (one PutItem). Handing the same view back again writes the same item."""
    view = tokens.read_view_token(token)
    if view.brand_id != viewer.brand_id or view.surface != "search":
        raise ValidationError(tokens.VIEW_REFUSED)
    ShownCards(
        *ShownCards.key(view.at_ms, view.brand_id),
        viewer=view.brand_id,
        account=viewer.account_id,
        surface=view.surface,
        version=view.version,
        offset=view.offset,
        ids=[i for i, _ in view.cards],
        percents=[p for _, p in view.cards],
        propensities=[1.0] * len(view.cards),
        at=view.at_ms,
        ttl=view.at_ms // 1000 + match_learning.SHOWN_KEEP_DAYS * 86400,
    ).save()
    return {"kept": len(view.cards)}


def _fits(
    mine: Any, index: rules.Index, me: bytes, positions: list[int], cache: _Cache
) -> tuple[dict[int, tuple[str | None, dict | None]], dict | None]:
    """Labelled as Matches labels: ({brand id: (fit label, the promises it is printed with)} of
    the page's brands whose label is known here, the promises of the rest). A brand on the
    viewer's list carries its card's label and that run's promises (the top label capped as that
    run capped it); once the stored model labels by chance (match_learning.fit_chances) any other
    brand carries its label by its chance of accepting the viewer, with the model's promises.
    The rest are labelled by their percent: by the viewer's last run's thresholds and promises,
    or the stored model's before any run."""
    out: dict[int, tuple[str | None, dict | None]] = {}
    listed = mine.cards or {}
    for p in positions:
        card = listed.get(int(index.ids[p]))
        if card is not None:  # (a card of a run before labels were stored: by its percent)
            out[card.candidate_id] = (card.fit or None, mine.promises)
    chances = match_learning.fit_chances(cache.model)
    rest = [p for p in positions if int(index.ids[p]) not in out]
    if chances is not None and rest:
        found = Packed(index.packed.records[rest])
        for brand_id, value in zip(
            found.ids.tolist(), training.chance_values(me, found, cache.model), strict=True
        ):  # type: ignore[arg-type]
            out[int(brand_id)] = (brand_profile.fit_label(value, chances), cache.promises)
    return out, mine.promises if mine.cards is not None else cache.promises


def _promises(model: MatchModel | None) -> dict | None:
    """The label promises the stored model's training computed (None: none yet)."""
    try:
        return (json.loads(model.learned) if model is not None and model.learned else {}).get(
            "promises"
        ) or None
    except (ValueError, AttributeError):
        return None
