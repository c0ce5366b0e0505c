"""Learning from what members are shown and do (issues 30 and 37): what a request records, the
views and actions kept, the training job, and the model a match run blends with the rules
(tandem.domain.matching.training).

- At send, the request keeps both brands' packed match records (`send_records`: pure Python
  `pack`, no numpy on the API's path), written in the send's own transaction.
- Every outcome (accept, decline, cancel, expire: all through requests/transitions.transition)
  adds its row in the transaction that changes the request's status (`record_outcome`):
  store/learning.py MatchOutcome, one partition per month.
- A Matches view keeps its cards on the brand's BrandSeen item (`views_after`); open, save and
  dismiss keep a CardAction each (`record_action`).
- The scheduler's `train-matching` job (`train`) learns both directions with the pure
  training.train from those records and stores them as one MatchModel item; a match run reads
  it with the brand it runs for and ranks by training.rank_scores.
- The same job sets what the fit labels go by once there is a model: thresholds on each card's
  calibrated chance of acceptance (training.label_plan) and what each label may promise
  (brand_profile.label_promises), stored in the model; a match run writes each card's label by
  them (no read on a screen).
"""

from __future__ import annotations

import json
import struct
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tandem.domain import brand_profile, matching
from tandem.domain import requests as rules
from tandem.domain.matching import (
    RECORD_FORMAT,
    RECORD_SIZE,
    account_hash,
    pack,
    training,
)
from tandem.services.match_profile import to_profile
from tandem.store import news
from tandem.store.connection import Transaction
from tandem.store.learning import (
    CardAction,
    MatchModel,
    MatchOutcome,
    ShownCards,
    View,
    pack_views,
    unpack_views,
)

if TYPE_CHECKING:  # pragma: no cover
    from tandem.store.models import Brand
    from tandem.store.requests import ConnectionRequest

OUTCOMES = (rules.ACCEPTED, rules.DECLINED, rules.CANCELLED, rules.EXPIRED)
# What the model learns: did the recipient say yes. A cancelled request is recorded but not
# learned from (the recipient never answered it); an expired one counts as a no.
LABELS = {rules.ACCEPTED: 1.0, rules.DECLINED: 0.0, rules.EXPIRED: 0.0}
TRAIN_MONTHS = 12  # the history the job learns from (one Query per month)
KEEP_DAYS = 400  # an outcome row lives this long (TTL), a little over the months trained on


def pair_records(sender: Brand, recipient: Brand) -> dict[str, bytes]:
    """The ConnectionRequest fields keeping the pair's features at send (both packed records)."""
    return {"from_record": pack(to_profile(sender)), "to_record": pack(to_profile(recipient))}


def send_records(
    sender: Brand, recipient: Brand, stored_score: float | None, shown_fit: str | None = None
) -> dict[str, Any]:
    """What a request keeps of its pair at send: both packed records (as `pair_records`),
    `shown_percent`, the fit percent the sender saw (its stored match's score, else the pair
    scored as a screen scores it on the spot: search, a saved brand, a brand page), and
    `shown_fit`, its match's fit label when that went by the chance of acceptance (None else)."""
    mine, theirs = to_profile(sender), to_profile(recipient)
    if stored_score is None:
        stored_score = matching.score_pair(mine, theirs).score
    return {
        "from_record": pack(mine),
        "to_record": pack(theirs),
        "shown_percent": brand_profile.score_percent(stored_score),
        "shown_fit": shown_fit if shown_fit in brand_profile.FIT_LABELS else None,
    }


def record_outcome(tx: Transaction, req: ConnectionRequest, status: str, at_ms: int) -> None:
    """Add the request's outcome row to the transaction moving it to `status` (its condition on
    the old status makes it once per request). A request sent before records were kept, or a
    move that is not an outcome (awaiting -> pending), adds nothing."""
    if status not in OUTCOMES or not req.from_record or not req.to_record:
        return
    row = MatchOutcome(
        *MatchOutcome.key(at_ms, req.request_id),
        request_id=req.request_id,
        outcome=status,
        sender=bytes(req.from_record),
        recipient=bytes(req.to_record),
        at=at_ms,
        ttl=at_ms // 1000 + KEEP_DAYS * 86400,
        percent=int(req.shown_percent) if req.shown_percent is not None else None,
        fit=req.shown_fit or None,
    )
    tx.save(row, condition=MatchOutcome.sk.does_not_exist())


def _months(now: int, count: int) -> list[str]:
    day = datetime.fromtimestamp(now, UTC)
    year, month = day.year, day.month
    out = []
    for _ in range(count):
        out.append(f"{year:04d}{month:02d}")
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return out


# ---------------------------------------------------------------- what members are shown and do (issue 37)

SHOWN_DAYS = 56  # the days of views and actions the job learns from (one Query a day each)
SHOWN_KEEP_DAYS = 60  # a view or action lives this long (TTL)


MAX_VIEWS = 60  # the most views a brand's BrandSeen item keeps (about 19 KB at 50 cards)


def views_after(
    kept: bytes | None, cards: list[tuple[int, int] | tuple[int, int, float]], at_s: int | None = None
) -> bytes | None:
    """The brand's recent views (BrandSeen.views) once it has seen `cards` (brand id, fit
    percent(, propensity: the probability its run gave it of being in the list; 1 when not
    given), in the order shown), or None when nothing changes: a
    view of cards the last kept view already showed (the same list again, less what was acted
    on) adds nothing. Views older than SHOWN_DAYS are dropped, and past MAX_VIEWS the oldest."""
    if not cards:
        return None
    at_s = int(time.time()) if at_s is None else int(at_s)
    views = unpack_views(kept)
    if views and {c[0] for c in cards} <= {c[0] for c in views[-1].cards}:
        return None
    views = [v for v in views if v.at > at_s - SHOWN_DAYS * 86400]
    shown = tuple((int(c[0]), int(c[1]), float(c[2]) if len(c) > 2 else 1.0) for c in cards)
    views.append(View(at_s, training_version(), shown))
    return pack_views(views[-MAX_VIEWS:])


def kept_impressions(views: dict[int, bytes], records: dict[int, bytes], now: int) -> list[Any]:
    """Each brand's kept Matches views (BrandSeen.views) of the last SHOWN_DAYS as training
    Impressions, the viewer's account read from its packed record (a brand gone from the
    index is left out)."""
    out = []
    for brand_id, blob in views.items():
        record = records.get(int(brand_id))
        if record is None or len(record) != RECORD_SIZE:
            continue
        account = str(int.from_bytes(record[4:12], "little"))
        for view in unpack_views(blob):
            if view.at > now - SHOWN_DAYS * 86400:
                cards = tuple((i, k, p) for k, (i, _, p) in enumerate(view.cards))
                out.append(training.Impression(int(brand_id), account, int(view.at), "matches", cards))
    return out


def training_version() -> int:
    return training.MODEL_VERSION


def record_action(actor: Brand, target: Brand, kind: str, at_ms: int | None = None) -> None:
    """Keep one action of `actor` on `target` (open, save, dismiss, send, block): one PutItem."""
    if kind not in training.ACTIONS:
        raise ValueError(f"unknown action {kind!r}")
    at_ms = int(time.time() * 1000) if at_ms is None else int(at_ms)
    CardAction(
        *CardAction.key(at_ms, int(actor.brand_id), int(target.brand_id), kind),
        actor=int(actor.brand_id),
        account=actor.account_id,
        target=int(target.brand_id),
        target_account=target.account_id,
        kind=kind,
        at=at_ms,
        ttl=at_ms // 1000 + SHOWN_KEEP_DAYS * 86400,
    ).save()


def _days(now: int, count: int) -> list[str]:
    return [datetime.fromtimestamp(now - d * 86400, UTC).strftime("%Y%m%d") for d in range(count)]


_ANSWER_KIND = {rules.ACCEPTED: "accept", rules.DECLINED: "decline", rules.EXPIRED: "expiry"}
# A collaboration's outcome row (issue 41): `sender` is the brand that recorded its results,
# `recipient` its partner, `percent` the rating (1-5); no send is learned from it.
COLLAB_AGAIN, COLLAB_NOT_AGAIN = "partner-again", "not-again"
_COLLAB_KINDS = (COLLAB_AGAIN, COLLAB_NOT_AGAIN)


def record_collaboration(
    recorder: Brand, partner: Brand, collab_id: str, again: bool, rating: int, at_ms: int
) -> None:
    """Keep one side's collaboration outcome as a learning record: the pair's packed records now,
    would it partner again and the rating, in the outcomes' month partition (12 months learned
    from). Keyed by the collaboration and the side, so a changed answer replaces the first."""
    records = pair_records(recorder, partner)
    MatchOutcome(
        *MatchOutcome.key(at_ms, f"collab-{collab_id}-{int(recorder.brand_id)}"),
        request_id=f"collab-{collab_id}",
        outcome=COLLAB_AGAIN if again else COLLAB_NOT_AGAIN,
        sender=records["from_record"],
        recipient=records["to_record"],
        at=at_ms,
        ttl=at_ms // 1000 + KEEP_DAYS * 86400,
        percent=int(rating),
    ).save()


def outcome_actions(rows: list[tuple[bytes, bytes, str, int]]) -> list[Any]:
    """The send and the answer of each outcome row (sender record, recipient record, outcome,
    at ms) as training Actions; accounts are the records' account hashes (as text)."""

    out = []
    for sender, recipient, outcome, at_ms, *rating in rows:
        if outcome in _COLLAB_KINDS and len(sender) == RECORD_SIZE and len(recipient) == RECORD_SIZE:
            a_id, a_acct = struct.unpack(RECORD_FORMAT, sender)[:2]
            b_id, b_acct = struct.unpack(RECORD_FORMAT, recipient)[:2]
            weight = float(rating[0]) if rating and rating[0] is not None else 1.0
            out.append(
                training.Action(a_id, str(a_acct), b_id, str(b_acct), outcome, int(at_ms) // 1000, weight)
            )
            continue
        kind = _ANSWER_KIND.get(outcome)
        if kind is None or len(sender) != RECORD_SIZE or len(recipient) != RECORD_SIZE:
            continue
        s_id, s_acct = struct.unpack(RECORD_FORMAT, sender)[:2]
        r_id, r_acct = struct.unpack(RECORD_FORMAT, recipient)[:2]
        at = int(at_ms) // 1000
        out.append(training.Action(s_id, str(s_acct), r_id, str(r_acct), training.SEND, at))
        out.append(training.Action(r_id, str(r_acct), s_id, str(s_acct), kind, at))
    return out


def train(now: int | None = None) -> dict[str, Any]:
    """Scheduler job `train-matching`: read the records (the last SHOWN_DAYS of views and actions,
    the last TRAIN_MONTHS of outcomes) and every brand's packed record now, learn both directions
    with the pure training.train, and store the model (one item, overwritten: running it twice
    stores the same model). With too little history, or too few distinct groups deciding, the
    stored model is left as it is (none: the rules alone)."""

    from tandem.services import match_index  # the scheduler's job alone reads every shard (numpy)

    now = int(time.time()) if now is None else int(now)
    outcomes = [o for month in _months(now, TRAIN_MONTHS) for o in MatchOutcome.of_month(month)]
    found = [
        (bytes(o.sender), bytes(o.recipient), o.outcome, None if o.percent is None else int(o.percent))
        for o in outcomes
    ]
    days = _days(now, SHOWN_DAYS)
    # Views kept one item each: search pages (brand_search.keep_view), and Matches views from before
    # they moved onto BrandSeen (gone with their TTL).
    impressions = [
        training.Impression(
            int(v.viewer),
            str(account_hash(v.account)),
            int(v.at) // 1000,
            v.surface,
            tuple(
                (
                    int(i),
                    int(v.offset or 0) + k,
                    float((v.propensities or [])[k]) if k < len(v.propensities or []) else 1.0,
                )
                for k, i in enumerate(v.ids)
            ),
        )  # fmt: skip
        for day in days
        for v in ShownCards.of_day(day)
    ]
    cands, _, _ = match_index.load_ranked(list(range(match_index.shard_count())))
    records = {int(cands.ids[p]): cands.record(p) for p in range(len(cands))}
    impressions += kept_impressions(news.views_of(records), records, now)
    actions = [
        training.Action(
            int(a.actor),
            str(account_hash(a.account)),
            int(a.target),
            str(account_hash(a.target_account)),
            a.kind,
            int(a.at) // 1000,
        )  # fmt: skip
        for day in days
        for a in CardAction.of_day(day)
        if a.kind != training.SEND  # a send is read from its outcome row (with the answer)
    ]
    actions += outcome_actions(
        [(bytes(o.sender), bytes(o.recipient), o.outcome, int(o.at), o.percent) for o in outcomes]
    )
    for o in outcomes:  # a brand gone from the index: its record as it was at send
        for blob in (bytes(o.sender), bytes(o.recipient)):
            if len(blob) == RECORD_SIZE:
                records.setdefault(int.from_bytes(blob[:4], "little"), blob)
    model = training.train(impressions, actions, records)
    if model is None:
        return {"trained": False, "rows": len(found), "views": len(impressions)}
    # The labels go by each card's calibrated chance of acceptance now that there is a model
    # (training.label_plan): thresholds from the lists it will rank for the recent senders (as
    # their records are now, where the index has them) ...
    held_out = model.pop("held_out", [])
    group_of = training.groups(actions)
    recent = [
        (
            records.get(int.from_bytes(sender[:4], "little"), sender),
            (int.from_bytes(sender[:4], "little"), int.from_bytes(recipient[:4], "little")),
            str(int.from_bytes(sender[4:12], "little")),  # the sender's account (its hash)
            outcome,
            o.fit if o.fit in brand_profile.FIT_LABELS else None,
        )
        for (sender, recipient, outcome, _), o in zip(found, outcomes, strict=True)
        if outcome in LABELS
        and len(sender) == RECORD_SIZE
        and len(recipient) == RECORD_SIZE
        and int(o.at) >= (now - brand_profile.PROMISE_DAYS * 86400) * 1000
    ]
    chances, forecast = training.label_plan(
        model, cands, [r[0] for r in recent], matching.MATCHES_KEPT, actions
    )
    if chances:
        model["chances"] = chances
    # ... and a label promises what the requests of the last PROMISE_DAYS sent to its brands
    # got: under the label the sender was shown, where that went by chance (`MatchOutcome.fit`),
    # else under the label its card would now carry, judged by the half of the model that had not
    # seen its answer (a request sent before there were chance labels, or from search or a brand
    # page); each sender's group capped (brand_profile.label_promises: no small group sets it).
    relabelled = training.held_out_labels(held_out, chances, [r[1] for r in recent])
    model["promises"] = brand_profile.label_promises(
        [
            (shown or label, outcome == rules.ACCEPTED, group_of.get(account, account))
            for label, (_, _, account, outcome, shown) in zip(relabelled, recent, strict=True)
        ],
        forecast,
    )
    MatchModel(
        *MatchModel.key(),
        weights=[],
        outcomes=int(model["evidence"]),
        accepted=0,
        trained_at=now,
        features=0,
        thresholds=None,  # a percent label's are the defaults (a model's labels go by chance)
        learned=json.dumps(model),
    ).save()
    return {
        "trained": True,
        "rows": len(found),
        "views": len(impressions),
        "evidence": model["evidence"],
        "groups": model["groups"],
        "chances": model.get("chances"),
        "promises": model["promises"],
    }


def model_json(model: MatchModel | None) -> dict[str, Any] | None:
    """The stored model as a match run carries it (Prepare's output): its weights when usable
    (else the rules alone) and the fit labels' thresholds when recalibrated; None without
    either."""

    if model is None:
        return None
    out: dict[str, Any] = {}
    if model.learned:
        try:
            stored = json.loads(model.learned)
        except ValueError:
            stored = None
        if training.usable(stored):
            out = dict(stored)  # (issue 30's one-direction `weights` are no longer ranked by)
    thresholds = model.fit_thresholds()
    if thresholds:
        out["thresholds"] = thresholds
    return out or None


def fit_thresholds(model: dict[str, Any] | None) -> dict[str, int] | None:
    """The thresholds a run labels its cards by (`model_json`'s), None for the defaults."""
    stored = (model or {}).get("thresholds")
    return brand_profile.thresholds_or_defaults(stored) if stored else None


def fit_chances(model: dict[str, Any] | None) -> dict[str, int] | None:
    """The chance thresholds a run labels its cards by once the model has them
    (training.label_plan's, {label: lowest chance percent}), None: the labels go by percent."""
    if not training.usable(model):
        return None
    return brand_profile.valid_thresholds((model or {}).get("chances"))


# Step Functions carries at most 256 KB between states: an on-demand run's Prepare passes the
# collaborative embedding only up to this size (about 3,700 brands with behaviour); past it the run
# scores without it (both directions' cf columns read 0). The nightly batches read the item whole.
CF_PAYLOAD_MAX = 100_000


def payload_model(model: dict[str, Any] | None) -> dict[str, Any] | None:
    """`model_json`'s model as Prepare may pass it on (the embedding left out past CF_PAYLOAD_MAX)."""
    if not model or "cf" not in model or len(json.dumps(model["cf"])) <= CF_PAYLOAD_MAX:
        return model
    return {k: v for k, v in model.items() if k != "cf"}


def label_promises(model: dict[str, Any] | None) -> dict[str, Any] | None:
    """What each fit label may promise (brand_profile.label_promises, computed by the training
    job), None when our data backs no promise yet."""
    stored = (model or {}).get("promises")
    return dict(stored) if stored else None


def read_model() -> dict[str, Any] | None:
    """The stored model (one GetItem; the nightly batch reads it once for all its brands)."""
    return model_json(MatchModel.find())


def known_brands(model: dict[str, Any] | None) -> frozenset[int] | None:
    """The brands whose behaviour the run's model learned (its collaborative embedding's), None
    when it carries none (no model yet, or an on-demand run's payload without the embedding):
    exploration then goes by incomplete profiles alone (tandem.domain.matching.explore)."""
    if not training.usable(model) or not (model or {}).get("cf"):
        return None
    return frozenset(int(i) for i in training.unpack_embedding(model["cf"])["ids"].tolist())  # type: ignore[index]
