"""A platform simulation of matching that learns (issue 37): 8 simulated weeks on any world.

A world is loaded by name (`--world package.module:factory`, the protocol in docs/decisions.md,
issue 37): `factory(seed, n, noise)` gives the brand form's profiles, `wants(rows)`, `mutual(rows)`
and each member's `habits(i)`. Every week:
1. the nightly training (tandem.domain.matching.training.train, the pure function the scheduler's
   train-matching job wraps) learns from every impression and action so far (weekly here, not
   nightly: the same records, fewer fits);
2. every brand's match list is ranked as a match run ranks it (match_runs._top_entries and
   _choose: rules blended with the fresh prior, the learned blend, diversity, reasons, one place
   in ten explored with its propensity logged: `--no-explore` leaves it out), leaving out what it
   already sent to or dismissed;
3. members come `sessions_per_week` times, look at `cards_looked_at` cards from the top,
   open a card at position k with probability position_bias ** k, want it with probability
   wants(a, b): then send a request while they have credits (6 a month), else save it; a card not
   wanted is dismissed half the time. Every view is an Impression, every act an Action. A session
   opens Matches, or with probability `search_share` (a habit a world may give; SEARCH_SHARE
   otherwise) brand search: Best fit, as tandem.domain.search ranks a page of it (the index built
   from the same records), half the time filtered to the category of a brand drawn by how much
   the member wants it (members search for what they like), else unfiltered. A search's cards are
   what its first page shows (brands already sent to or dismissed stay on it, acted on no more):
   an Impression of surface "search" at their places, propensity 1;
4. a recipient answers with probability answer_rate (else the request expires) and accepts with
   probability wants(b, a).

Reported per week: p@10 of mutual fits on a fixed sample of brands (their ranking without
exclusions), acceptance rate of the week's requests, the fit labels' promise against what the
week observed, exposure of incomplete profiles (share of top-10 slots / share of true partners);
against one-sided, rules-only (the hand score alone on a fresh deployment), prior (production on
a fresh deployment: the rules blended with the prior fitted on our world), rules without diversity, a
logistic regression fitted on full truth (another seed of the same world: every mutual fit and a
sample of the rest, over the same pair features), random and the oracle (wants both ways).

Each week also prints every label's printed promise (what the training so far let it say,
brand_profile.label_promises of the recent requests with training.label_plan's share, each card
labelled by its chance of acceptance by the chance thresholds of training.label_plan as the
training job sets them, the top label capped per list as a run caps it; search cards labelled by
their member's list, or by their own chance, as the API labels them)
against what that week's requests observed. Per world:
the weekly p@10 table for each noise, `BENCH
match_sim_week8_vs_fitted_<world>_noise<N>` and `BENCH match_sim_exposure_min_<world>_noise<N>`
per noise, and `BENCH match_sim_week8_vs_fitted_<world>` (week-8 p@10 / fitted p@10, at 20% noise
or the one noise run) with `BENCH match_sim_fresh_p_at_10_<world>`.

Run: `.venv/bin/python tests/bench/platform_sim.py --world tests.bench.worlds.ours:factory
--noise 0.2` (defaults: 1,500 brands, seed 1, noises 0, 0.2, 0.4; one world x one noise takes
about 2-3 minutes on the 2-core machine). `--fresh`: fresh-deployment p@10 only (rules alone,
rules with the prior, with exploration; no weeks), a few seconds a world and noise.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

import numpy as np  # noqa: E402

from tandem.domain import brand_profile, matching  # noqa: E402
from tandem.domain.matching import Profile, explore, training  # noqa: E402
from tandem.domain.matching.training import Action, Impression  # noqa: E402
from tandem.services import match_learning, match_runs  # noqa: E402

K = 10
WEEKS = 8
SEARCH_SHARE = 0.3  # the share of sessions that search, for a world whose habits do not say
DAY = 86400
SAMPLE = 300
DEFAULT_WORLDS = ("tests.bench.worlds.ours:factory",)


def load(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module_name), attr or "factory")


def to_profile(i: int, form: dict[str, Any]) -> Profile:
    """Brand i's form payload as the matcher's profile (validated as the brand form validates it)."""
    clean = brand_profile.clean_profile(form, creating=True)
    audience = clean.get("audience", {})
    return Profile(
        brand_id=i + 1,
        account_id=f"acct-{i + 1}",
        category=clean.get("category") or "",
        company_size=clean.get("company_size") or "",
        audience_size=clean.get("audience_size") or "",
        niche=clean.get("niche") or "",
        price_tier=clean.get("price_tier") or "",
        values=frozenset(clean.get("values") or ()),
        collab_kinds=frozenset(clean.get("collab_kinds") or ()),
        countries=frozenset(audience.get("countries") or ()),
        age_bands=frozenset(audience.get("age_bands") or ()),
        genders=frozenset(audience.get("genders") or ()),
    )


incomplete = explore.incomplete  # the exposure figure's "incomplete" is the one exploration uses


@dataclass
class Platform:
    world: Any
    profiles: list[Profile]
    records: list[bytes]
    cands: matching.Packed
    wants: np.ndarray  # n x n
    mutual: np.ndarray  # n x n bool
    habits: list[dict[str, Any]]
    rng: np.random.Generator
    impressions: list[Impression] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    sent: set[tuple[int, int]] = field(default_factory=set)
    dismissed: set[tuple[int, int]] = field(default_factory=set)
    credits: np.ndarray | None = None
    # (accepted, sender account, week, sender index, recipient index, the chance-based fit label
    # the sender was shown or "") of every answered or expired request
    answered: list[tuple[bool, str, int, int, int, str]] = field(default_factory=list)
    # the fit labels' chance thresholds as the training job sets them (training.label_plan; None:
    # no model yet, the labels go by percent at the defaults)
    chances: dict[str, int] | None = None
    explore: bool = True  # the runs' exploration places (tandem.domain.matching.explore)
    search_views: bool = True  # search pages are impressions the training learns from
    index: Any = None  # brand search's index of the same records (tandem.domain.search.Index)

    @property
    def n(self) -> int:
        return len(self.profiles)

    def by_id(self) -> dict[int, bytes]:
        return {i + 1: r for i, r in enumerate(self.records)}


def build(spec: str, seed: int, n: int, noise: float) -> Platform:
    world = load(spec)(seed, n, noise)
    profiles = [to_profile(i, f) for i, f in enumerate(world.profiles)]
    records = [matching.pack(p) for p in profiles]
    rows = np.arange(n)
    wants = np.vstack([world.wants(rows[i : i + 500]) for i in range(0, n, 500)])
    mutual = np.vstack([world.mutual(rows[i : i + 500]) for i in range(0, n, 500)])
    habits = [world.habits(i) for i in range(n)]
    return Platform(
        world, profiles, records, matching.Packed.from_bytes(records), wants, mutual, habits,
        np.random.default_rng(seed + 99), index=search_index(records),
    )  # fmt: skip


def search_index(records: list[bytes]) -> Any:
    """Brand search's index of brands 1..n (their records at slots 1..n of one shard; names
    shown, none feature-only, created in id order)."""
    from tandem.domain import search as search_rules
    from tandem.domain import search_rows

    size = len(records) + 1
    blob = bytes(matching.RECORD_SIZE) + b"".join(records)
    rows = [search_rows.row_for(i, i, f"Brand {i}", False, False) for i in range(1, size)]
    shard = search_rules.Shard(number=0, version=1, records=blob, search=search_rows.encode_rows(rows))
    return search_rules.build([shard], size)


def search_page(p: Platform, a: int, model: dict | None) -> list[int]:
    """Brand indexes (from 0) on the first page of a's Best fit search (see the module's note)."""
    from tandem.domain import search as search_rules

    params = {"sort": "best"}
    if p.rng.random() < 0.5:
        liked = p.wants[a].astype(np.float64).copy()
        liked[a] = 0.0
        if liked.sum() > 0:
            params["category"] = p.profiles[int(p.rng.choice(p.n, p=liked / liked.sum()))].category or ""
    query = search_rules.parse_query({k: v for k, v in params.items() if v})
    excluded = search_rules.excluded_mask(p.index, [a + 1])
    page = search_rules.ranked_page(p.index, query, p.records[a], excluded, by_name=True, model=model)
    return [int(p.index.ids[q]) - 1 for q in page.positions]


# ---------------------------------------------------------------- rankers


def production(
    p: Platform,
    a: int,
    model: dict | None,
    excluded: list[int] = (),
    diversify: bool = True,
    prior: bool = True,
    explore_seed: str | None = None,
) -> list[int]:
    """Brand ids of a's match list as a match run writes it (best first); `prior=False`: the
    rules' hand score alone where there is no model (the ranking before the fresh prior);
    `explore_seed`: with the run's exploration places (none without)."""
    me = p.records[a]
    entries = match_runs._top_entries(me, p.cands, list(excluded), [], model=model, prior=prior)["top"]
    if not diversify:
        entries.sort(key=lambda e: (-e[5] if len(e) > 5 else -e[1], e[0]))
        return [int(e[0]) for e in entries[: match_runs.MATCHES_KEPT]]
    chosen, _ = match_runs._choose(p.profiles[a], entries, set(), model, me, explore_seed=explore_seed)
    return [s.candidate_id for s in chosen]


def top_ids(scores: np.ndarray, a: int, k: int = K) -> list[int]:
    scores = scores.astype(np.float64).copy()
    scores[a] = -np.inf
    return [int(i) + 1 for i in np.argsort(-scores, kind="stable")[:k]]


def p_at_k(p: Platform, a: int, ids: list[int]) -> float:
    return float(np.mean([p.mutual[a, i - 1] for i in ids[:K]])) if ids else 0.0


def fitted_baseline(spec: str, seed: int, n: int, noise: float) -> list[float]:
    """Logistic regression on full truth: another seed of the same world, every mutual fit of
    SAMPLE brands and 3% of the rest (weighted back), over training.pair_x."""
    other = build(spec, seed + 1000, n, noise)
    rng = np.random.default_rng(seed)
    xs, ys, ws = [], [], []
    for a in rng.choice(n, size=min(SAMPLE, n), replace=False):
        truth = other.mutual[a]
        keep = truth | (rng.random(n) < 0.03)
        keep[a] = False
        xs.append(training.pair_x(other.records[a], other.cands)[keep])
        ys.append(truth[keep].astype(np.float64))
        ws.append(np.where(truth[keep], 1.0, 1 / 0.03))
    from tandem.domain.matching import learned

    return list(learned.fit_logistic(np.vstack(xs), np.concatenate(ys), np.concatenate(ws), l2=1.0))


def fitted_p_at_k(p: Platform, sample: np.ndarray, fitted: list[float], acted: dict[int, list[int]]) -> float:
    """The fitted regression's p@10 with each brand's `acted` (brand ids) left out."""
    w = np.asarray(fitted)
    out = []
    for a in sample.tolist():
        z = training.pair_x(p.records[a], p.cands).astype(np.float64) @ w[:-1] + w[-1]
        z[[b - 1 for b in acted[a]]] = -np.inf
        out.append(p_at_k(p, a, top_ids(z, a)))
    return float(np.mean(out))


def static_rankers(p: Platform, sample: np.ndarray, fitted: list[float]) -> dict[str, float]:
    out: dict[str, list[float]] = {
        k: [] for k in ("rules", "prior", "no-diversify", "one-sided", "fitted", "random", "oracle")
    }
    w = np.asarray(fitted)
    for a in sample.tolist():
        me = p.records[a]
        out["rules"].append(p_at_k(p, a, production(p, a, None, prior=False)))
        out["prior"].append(p_at_k(p, a, production(p, a, None)))
        out["no-diversify"].append(p_at_k(p, a, production(p, a, None, diversify=False)))
        own = matching.score_packed(me, p.cands, one_sided=True).score
        out["one-sided"].append(p_at_k(p, a, top_ids(own, a)))
        x = training.pair_x(me, p.cands).astype(np.float64)
        out["fitted"].append(p_at_k(p, a, top_ids(x @ w[:-1] + w[-1], a)))
        out["random"].append(p_at_k(p, a, top_ids(p.rng.random(p.n), a)))
        out["oracle"].append(p_at_k(p, a, top_ids(p.wants[a] * p.wants[:, a], a)))
    return {k: float(np.mean(v)) for k, v in out.items()}


# ---------------------------------------------------------------- one week of members


def promise_check(promises: dict[str, Any], by_label: dict[str, tuple[int, int]]) -> str:
    """Each label's printed promise (what the cards said this week) against what the week's
    requests to its brands observed: holds when the printed figure is inside the observed 95%
    interval; "no promise" where our data backed none (a fresh deployment)."""
    out = []
    for label, _ in brand_profile.FIT_PROMISES:
        yes, sent = by_label.get(label, (0, 0))
        text = brand_profile.checkable_promise(label, promises)
        if text is None:
            out.append(f"{label}: no promise, observed {yes}/{sent}")
            continue
        said = re.search(r"about (\d+) in (100|10)\b", text)
        figure = int(said.group(1)) / int(said.group(2))
        low, high = brand_profile.wilson(yes, sent)
        holds = "holds" if sent and low <= figure <= high else ("too few sent" if sent < 30 else "BROKEN")
        found = promises[label]
        promised = f"{said.group(1)} in {said.group(2)} ({float(found['share']):.3f}"
        promised += f", forecast {float(found['forecast']):.3f})" if "forecast" in found else ")"
        out.append(f"{label}: promised {promised}, observed {yes}/{sent} {holds}")
    return "; ".join(out)


def fit_values(p: Platform, a: int, cards: list[int], model: dict | None, scores: list[float]) -> list[int]:
    """What a's cards (brand indexes) are labelled by: their chance percents by the model once it
    has chance thresholds (training.chance_values, as match_runs.fit_values), else the percents
    of their rules `scores`."""
    if p.chances is None or model is None or not cards:
        return [brand_profile.score_percent(float(s)) for s in scores]
    return training.chance_values(p.records[a], matching.Packed(p.cands.records[cards]), model)


def week(p: Platform, t: int, model: dict | None, stats: dict[str, Any]) -> None:
    """Rank every brand's list, let members browse and send, recipients answer."""
    start = t * 7 * DAY
    if t % 4 == 0:
        p.credits = np.array([h["credits_per_month"] for h in p.habits], dtype=np.int64)
    lists = {}
    propensity: dict[tuple[int, int], float] = {}
    known = match_learning.known_brands(model)
    labels: dict[tuple[int, int], str] = {}  # each card's fit label as the member saw it
    on_list: dict[int, set[int]] = {}  # each member's list (brand indexes)
    for a in range(p.n):
        excluded = [b + 1 for (x, b) in p.sent | p.dismissed if x == a]
        me = p.records[a]
        # The run's ranking (rules blended with the model); the reasons filter and diversity of
        # _choose are left out of the members' lists for speed (the p@10 sample keeps them).
        entries = match_runs._top_entries(me, p.cands, excluded, [], model=model)["top"]
        entries.sort(key=lambda e: (-e[5], e[0]))
        entries = explore.fair_top(entries, entries, lambda e: incomplete(p.profiles[int(e[0]) - 1]))
        if p.explore:  # as _choose explores: unsure brands of the ranked pool, drawn per run
            unsure = [e for e in entries if explore.unsure(p.profiles[int(e[0]) - 1], known)]
            filled = explore.fill(
                entries, unsure, match_runs.MATCHES_KEPT, random.Random(f"{a}:{t}"), lambda e: int(e[0])
            )
        else:
            filled = [(e, 1.0) for e in entries[: match_runs.MATCHES_KEPT]]
        lists[a] = [int(e[0]) - 1 for e, _ in filled]
        on_list[a] = set(lists[a])
        for e, prop in filled:
            propensity[(a, int(e[0]) - 1)] = prop
        # Labelled as a run labels (match_runs.store_matches): by each card's chance once the
        # model has chance thresholds, else by its percent; the top label capped per list.
        values = fit_values(p, a, lists[a], model, [e[1] for e, _ in filled])
        at = brand_profile.capped_thresholds(values, p.chances)
        for b, value in zip(lists[a], values, strict=True):
            labels[(a, b)] = brand_profile.fit_label(value, at)
    slots = incomplete_slots = 0
    flags = np.array([incomplete(pr) for pr in p.profiles])
    for ids in lists.values():
        slots += len(ids[:K])
        incomplete_slots += int(flags[ids[:K]].sum()) if ids else 0
    partners = p.mutual.sum(axis=0)
    stats["exposure"] = (incomplete_slots / max(slots, 1)) / max(
        partners[flags].sum() / max(partners.sum(), 1), 1e-9
    )
    sends: list[tuple[int, int, int]] = []
    for a in range(p.n):
        h = p.habits[a]
        acct = p.profiles[a].account_id
        for _s in range(p.rng.poisson(h["sessions_per_week"])):
            at = start + int(p.rng.integers(0, 7 * DAY))
            if p.rng.random() < h.get("search_share", SEARCH_SHARE):
                surface, cards = "search", search_page(p, a, model)[: h["cards_looked_at"]]
                shown = tuple((b + 1, k, 1.0) for k, b in enumerate(cards))
                # a brand on the member's list keeps its card's label (brand_search._fits); any
                # other is labelled by its own chance (uncapped), or its percent without a model
                rest = [b for b in cards if (a, b) not in labels]
                if rest:
                    fits = matching.score_packed(p.records[a], matching.Packed(p.cands.records[rest])).score
                    values = fit_values(p, a, rest, model, fits.tolist())
                    for b, value in zip(rest, values, strict=True):
                        labels[(a, b)] = brand_profile.fit_label(
                            value, p.chances or brand_profile.FIT_THRESHOLDS
                        )
            else:
                surface = "matches"
                cards = [b for b in lists[a] if (a, b) not in p.sent and (a, b) not in p.dismissed][
                    : h["cards_looked_at"]
                ]
                shown = tuple((b + 1, k, propensity[(a, b)]) for k, b in enumerate(cards))
            if not cards:
                continue
            if surface == "matches" or p.search_views:
                p.impressions.append(Impression(a + 1, acct, at, surface, shown))
            for k, b in enumerate(cards):
                if p.rng.random() >= h["position_bias"] ** k:
                    continue
                if (a, b) in p.sent or (a, b) in p.dismissed:  # on a search page: already acted on
                    continue
                other = p.profiles[b].account_id
                p.actions.append(Action(a + 1, acct, b + 1, other, training.OPEN, at))
                if p.rng.random() < p.wants[a, b]:
                    if p.credits[a] > 0:
                        p.credits[a] -= 1
                        p.sent.add((a, b))
                        p.actions.append(Action(a + 1, acct, b + 1, other, training.SEND, at))
                        sends.append((a, b, at))
                    else:
                        p.actions.append(Action(a + 1, acct, b + 1, other, training.SAVE, at))
                elif p.rng.random() < 0.5:
                    p.dismissed.add((a, b))
                    p.actions.append(Action(a + 1, acct, b + 1, other, training.DISMISS, at))
    accepted = 0
    by_label: dict[str, list[int]] = {}
    for a, b, at in sends:
        acct, other = p.profiles[a].account_id, p.profiles[b].account_id
        label = labels.get((a, b), brand_profile.WORTH_A_LOOK)
        if p.rng.random() < p.habits[b]["answer_rate"]:
            yes = p.rng.random() < p.wants[b, a]
            accepted += yes
            p.actions.append(
                Action(b + 1, other, a + 1, acct, training.ACCEPT if yes else training.DECLINE, at + DAY)
            )
        else:
            yes = False
            p.actions.append(Action(b + 1, other, a + 1, acct, training.EXPIRY, at + 14 * DAY))
        by_label.setdefault(label, []).append(int(yes))
        # (the label kept with the request when it went by chance: a card of the member's list, as
        # the API keeps its match's; a search card off the list keeps none)
        shown = label if p.chances is not None and b in on_list[a] else ""
        p.answered.append((bool(yes), acct, t, a, b, shown))
    stats["sent"] = len(sends)
    stats["acceptance"] = accepted / max(len(sends), 1)
    stats["by_label"] = {k: (sum(v), len(v)) for k, v in by_label.items()}


def run(
    spec: str,
    seed: int,
    n: int,
    noise: float,
    weeks: int = WEEKS,
    explore: bool = True,
    search_views: bool = True,
) -> dict[str, Any]:
    t0 = time.time()
    p = build(spec, seed, n, noise)
    p.explore = explore
    p.search_views = search_views
    rng = np.random.default_rng(seed + 7)
    sample = rng.choice(n, size=min(SAMPLE, n), replace=False)
    fitted = fitted_baseline(spec, seed, n, noise)
    static = static_rankers(p, sample, fitted)
    rows = []
    model = None
    promises: dict[str, Any] = {}
    for t in range(weeks):
        if t:
            started = time.time()
            model = training.train(p.impressions, p.actions, p.by_id())
            # What the labels go by and promise, as match_learning.train sets them: chance
            # thresholds for the lists the model will rank for the senders of the last PROMISE_DAYS
            # (training.label_plan), the promise what their requests got under the label shown at
            # send where that went by chance, else under the label each would now carry by the
            # half of the model that had not seen its answer (training.held_out_labels), each
            # sender its own group here (no colluding accounts).
            recent = [r for r in p.answered if r[2] >= t - brand_profile.PROMISE_DAYS // 7]
            chances, forecast = training.label_plan(
                model, p.cands, [p.records[r[3]] for r in recent], match_runs.MATCHES_KEPT, p.actions
            )
            p.chances = chances or None
            promises = {}
            if model is not None:
                held_out = model.pop("held_out", [])
                now = training.held_out_labels(held_out, chances, [(r[3] + 1, r[4] + 1) for r in recent])
                promises = brand_profile.label_promises(
                    [(r[5] or label, r[0], r[1]) for label, r in zip(now, recent, strict=True)], forecast
                )
            print(f"  trained in {time.time() - started:.0f} s", flush=True)
        stats: dict[str, Any] = {}
        week(p, t, model, stats)
        stats["promises"] = promise_check(promises, stats["by_label"])
        seeds = {a: f"{a}:{t}" if explore else None for a in sample.tolist()}
        ours = float(
            np.mean([p_at_k(p, a, production(p, a, model, explore_seed=seeds[a])) for a in sample.tolist()])
        )
        # The same lists as their members see them (the brands each already sent to or dismissed
        # left out, as a run leaves them out), against the fitted regression's with the same left
        # out: what is new to a member, not the partners the history already found (a model that
        # recalls its own accepted pairs ranks them first).
        acted: dict[int, list[int]] = {int(a): [] for a in sample.tolist()}
        for x, b in p.sent | p.dismissed:
            if x in acted:
                acted[x].append(b + 1)
        new = float(
            np.mean(
                [
                    p_at_k(p, a, production(p, a, model, excluded=acted[a], explore_seed=seeds[a]))
                    for a in sample.tolist()
                ]
            )
        )
        fitted_new = fitted_p_at_k(p, sample, fitted, acted)
        rows.append(
            {
                "week": t + 1,
                "p10": ours,
                "p10_new": new,
                "fitted_new": fitted_new,
                "w": training.blend_weight(model),
                **stats,
            }
        )
        print(
            f"  week {t + 1}: p@10 {ours:.3f}  new to members {new:.3f} (fitted {fitted_new:.3f})"
            f"  blend {training.blend_weight(model):.2f}  sent {stats['sent']}"
            f"  accepted {stats['acceptance']:.2f}  exposure {stats['exposure']:.2f}  labels "
            + " ".join(f"{k}: {a}/{m}" for k, (a, m) in sorted(stats["by_label"].items())),
            flush=True,
        )
        print(f"    labels: {stats['promises']}", flush=True)
    return {"world": p.world.name, "description": p.world.description, "noise": noise, "static": static,
            "weeks": rows, "seconds": time.time() - t0}  # fmt: skip


def fresh(spec: str, seed: int, n: int, noise: float) -> dict[str, Any]:
    """Fresh-deployment p@10 only (no weeks, no fitted baseline): the same sample of brands as
    `run`, ranked as a match run ranks them without a model, by the rules' hand score alone and
    by the rules blended with the fresh prior (with the paired 95% bootstrap interval of the
    difference over brands), and by the prior with the runs' exploration places."""
    t0 = time.time()
    p = build(spec, seed, n, noise)
    sample = np.random.default_rng(seed + 7).choice(n, size=min(SAMPLE, n), replace=False)
    rules = np.array([p_at_k(p, a, production(p, a, None, prior=False)) for a in sample.tolist()])
    prior = np.array([p_at_k(p, a, production(p, a, None)) for a in sample.tolist()])
    explored = [p_at_k(p, a, production(p, a, None, explore_seed=f"{a}:0")) for a in sample.tolist()]
    idx = np.random.default_rng(0).integers(0, len(sample), size=(2000, len(sample)))
    diffs = prior[idx].mean(axis=1) - rules[idx].mean(axis=1)
    return {
        "world": p.world.name,
        "noise": noise,
        "rules": float(rules.mean()),
        "prior": float(prior.mean()),
        "explored": float(np.mean(explored)),
        "low": float(np.percentile(diffs, 2.5)),
        "high": float(np.percentile(diffs, 97.5)),
        "seconds": time.time() - t0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", action="append", help="package.module:factory (repeatable)")
    parser.add_argument("--noise", type=float, action="append")
    parser.add_argument("--n", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weeks", type=int, default=WEEKS)
    parser.add_argument("--fresh", action="store_true", help="fresh-deployment p@10 only (rules, prior)")
    parser.add_argument("--no-explore", action="store_true", help="lists without exploration places")
    parser.add_argument(
        "--search-views-unused", action="store_true", help="members search, but training never sees the pages"
    )
    args = parser.parse_args()
    worlds = args.world or list(DEFAULT_WORLDS)
    noises = args.noise or [0.0, 0.2, 0.4]
    if args.fresh:
        for spec in worlds:
            name = re.sub(r"\W+", "_", spec.split(":")[0].split(".")[-1])
            for noise in noises:
                f = fresh(spec, args.seed, args.n, noise)
                print(
                    f"  {name} {noise:.0%} ({args.n} brands, seed {args.seed}): fresh p@10 rules"
                    f" {f['rules']:.3f}"
                    f"  prior {f['prior']:.3f}  difference {f['prior'] - f['rules']:+.3f}"
                    f" (95% {f['low']:+.3f} .. {f['high']:+.3f})  prior with exploration {f['explored']:.3f}"
                    f"  ({f['seconds']:.0f} s)",
                    flush=True,
                )
                tag = f"{name}_noise{round(100 * noise)}"
                print(f"BENCH match_sim_fresh_p_at_10_{tag} {f['prior']:.3f}")
                print(f"BENCH match_sim_fresh_rules_p_at_10_{tag} {f['rules']:.3f}")
        return
    for spec in worlds:
        results = []
        for noise in noises:
            print(f"{spec} noise {noise:.0%} ({args.n} brands, seed {args.seed})", flush=True)
            r = run(
                spec,
                args.seed,
                args.n,
                noise,
                args.weeks,
                explore=not args.no_explore,
                search_views=not args.search_views_unused,
            )
            s = r["static"]
            print(
                f"  static p@10: rules {s['rules']:.3f}  prior {s['prior']:.3f}  no-diversify "
                f"{s['no-diversify']:.3f}  one-sided "
                f"{s['one-sided']:.3f}  fitted {s['fitted']:.3f}  random {s['random']:.3f}  oracle "
                f"{s['oracle']:.3f}  ({r['seconds']:.0f} s)",
                flush=True,
            )
            results.append(r)
        name = re.sub(r"\W+", "_", spec.split(":")[0].split(".")[-1])
        chosen = next((r for r in results if abs(r["noise"] - 0.2) < 1e-9), results[0])
        print(f"  world: {chosen['description']}")
        print(
            f"  {name}: noise | fresh (rules) | fresh (prior) | fitted | "
            + " | ".join(f"week {w + 1} (new to members)" for w in range(args.weeks))
        )
        for r in results:
            weekly = " | ".join(f"{row['p10']:.3f} ({row['p10_new']:.3f})" for row in r["weeks"])
            rules, prior, fitted = r["static"]["rules"], r["static"]["prior"], r["static"]["fitted"]
            print(f"  {name}: {r['noise']:.0%} | {rules:.3f} | {prior:.3f} | {fitted:.3f} | {weekly}")
            ratio = r["weeks"][-1]["p10"] / max(r["static"]["fitted"], 1e-9)
            print(f"BENCH match_sim_week8_vs_fitted_{name}_noise{round(100 * r['noise'])} {ratio:.3f}")
            last = r["weeks"][-1]
            ratio_new = last["p10_new"] / max(last["fitted_new"], 1e-9)
            print(
                f"BENCH match_sim_week8_new_vs_fitted_{name}_noise{round(100 * r['noise'])} {ratio_new:.3f}"
            )
            exposure = min(row["exposure"] for row in r["weeks"])
            print(f"BENCH match_sim_exposure_min_{name}_noise{round(100 * r['noise'])} {exposure:.2f}")
        ratio = chosen["weeks"][-1]["p10"] / max(chosen["static"]["fitted"], 1e-9)
        print(f"BENCH match_sim_week8_vs_fitted_{name} {ratio:.3f}")
        print(f"BENCH match_sim_fresh_p_at_10_{name} {chosen['static']['prior']:.3f}")
        print(f"BENCH match_sim_fresh_rules_p_at_10_{name} {chosen['static']['rules']:.3f}")


if __name__ == "__main__":
    sys.exit(main())
