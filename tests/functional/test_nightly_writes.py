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
