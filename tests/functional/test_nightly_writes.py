"""The nightly match run writes only the Match items whose content changed: a second night over
unchanged data rewrites none of them (it rewrote every one: about 58 write units a brand a night,
two thirds of all write units in docs/cost.md), and what a member's Matches screen lists is the
same. The state machine is really executed by moto, its handlers in-process."""

from __future__ import annotations

from collections import Counter

from tests.conftest import wait_for_execution
from tests.factories import population

BRANDS = 12


def _night(aws) -> None:
    from tandem.services import match_runs

    started = match_runs.start_nightly()
    machine = aws.state_machines["NightlyMatchRunStateMachine"]
    arn = machine.arn.replace(":stateMachine:", ":execution:") + ":" + started["execution"]
    assert wait_for_execution(arn)["status"] == "SUCCEEDED"


def _kinds(written: list[tuple[str, str]]) -> Counter:
    """Items written by kind of sort key: MATCH# (one per Match item), MATCHCARDS, ..."""
    return Counter("MATCH#" if sk.startswith("MATCH#") else sk.split("#")[0] for _, sk in written)


def _lists() -> dict[int, dict]:
    from tandem.store.matches import Match

    return {
        brand: {c: (m.score, m.rank, m.fit, tuple(m.reasons)) for c, m in Match.of_brand(brand).items()}
        for brand in range(1, BRANDS + 1)
    }


def test_a_second_night_over_unchanged_data_rewrites_no_match_item(aws, written_items):
    from tandem.store.matches import Match

    made = population(BRANDS)
    assert [int(b.brand_id) for b in made] == list(range(1, BRANDS + 1))
    _night(aws)
    first = _kinds(written_items)
    matches = sum(len(Match.of_brand(brand)) for brand in range(1, BRANDS + 1))
    assert matches > BRANDS  # every brand got several matches
    assert first["MATCH#"] == matches  # the first night wrote each one
    before = _lists()

    written_items.clear()
    _night(aws)
    second = _kinds(written_items)

    assert second["MATCH#"] == 0
    assert second["MATCHCARDS"] == BRANDS  # each brand's match list, one item (the run that wrote it)
    assert _lists() == before  # what the Matches screen lists is the same

    # A changed item is written again: one Match item gone (as if changed) comes back, alone.
    gone = next(iter(Match.of_brand(1).values()))
    gone.delete()
    written_items.clear()
    _night(aws)
    assert _kinds(written_items)["MATCH#"] == 1
    assert _lists() == before


def test_a_retrained_model_rewrites_only_the_matches_whose_label_changed(aws, written_items):
    """Issue 37: once labels go by each card's chance of acceptance, a nightly retrain moves every
    chance a little; a Match item says only that its label went by chance (not the chance), so the
    next night rewrites just the items whose label (or anything else they say) changed."""
    import json

    from tandem.domain.matching import training
    from tandem.store.learning import MatchModel
    from tandem.store.matches import Match

    population(BRANDS)
    width = training.N_FEATURES + 1

    def model(bias: float) -> None:
        stored = {
            "version": training.MODEL_VERSION,
            "send": None,
            "accept": [0.02] * (width - 1) + [bias],
            "evidence": 0,  # the rules' order: only the labels move
            "groups": 80,
            "calibration": {"z": [-3.0, 0.0, 3.0], "p": [0.05, 0.3, 0.6]},
            "chances": {"Great fit": 40, "Good fit": 25},
        }
        MatchModel(*MatchModel.key(), weights=[], outcomes=0, trained_at=1, learned=json.dumps(stored)).save()

    model(-1.0)
    _night(aws)
    before = {(b, c): m.fit for b in range(1, BRANDS + 1) for c, m in Match.of_brand(b).items()}
    assert all(m.fit_by_chance for b in range(1, BRANDS + 1) for m in Match.of_brand(b).values())
    model(-0.95)  # retrained: every chance a little higher
    written_items.clear()
    _night(aws)
    after = {(b, c): m.fit for b in range(1, BRANDS + 1) for c, m in Match.of_brand(b).items()}
    assert after.keys() == before.keys()
    changed = sum(before[k] != after[k] for k in before)
    assert _kinds(written_items)["MATCH#"] == changed < len(before)
