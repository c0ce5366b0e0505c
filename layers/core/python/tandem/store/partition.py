"""A brand's own items in one Query: its partition BRAND#<id> holds, in sort-key order,
its matches (MATCH#), its match list (MATCHCARDS), match runs (MATCHRUN#), profile (PROFILE),
relations to other brands (REL#), its blocks (SAFETY, store/safety.py) and what is new to it
(SEEN). A screen about the brand reads them in one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tandem.config import settings
from tandem.integrations.aws import client
from tandem.store import keys
from tandem.store.matches import Match, MatchCard, MatchCards
from tandem.store.models import Brand, BrandRelation, BrandSeen
from tandem.store.safety import BrandBlocks


@dataclass
class BrandItems:
    profile: Brand | None = None
    seen: BrandSeen | None = None
    relations: dict[int, BrandRelation] = field(default_factory=dict)
    matches: dict[int, Match] = field(default_factory=dict)
    cards: dict[int, MatchCard] | None = None  # None: no match list written (yet)
    thresholds: dict[str, int] | None = None  # the fit labels' thresholds of the list's run (None: defaults)
    promises: dict[str, Any] | None = None  # what each label promised at the list's run (None: nothing)
    blocks: Any = None  # store.safety.BrandBlocks: the brands it blocked or that blocked it


def brand_items(brand_id: int, with_matches: bool = False, with_cards: bool = False) -> BrandItems:
    """The brand's profile, relations and BrandSeen item (and its Match items with
    `with_matches`, its match list with `with_cards`), read consistently in one Query (more
    only past 1 MB)."""
    low = keys.MATCH_PREFIX if with_matches else keys.MATCH_CARDS if with_cards else keys.PROFILE
    found = BrandItems()
    request: dict[str, Any] = {
        "TableName": settings().table_name,
        "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.brand_pk(brand_id)},
            ":low": {"S": low},
            ":high": {"S": keys.SEEN},
        },
        "ConsistentRead": True,
    }
    while True:
        answer = client("dynamodb").query(**request)
        for raw in answer.get("Items", []):
            sort_key = raw["sk"]["S"]
            if sort_key == keys.PROFILE:
                found.profile = Brand.from_raw_data(raw)
            elif sort_key == keys.SEEN:
                found.seen = BrandSeen.from_raw_data(raw)
            elif sort_key == keys.SAFETY_SK:
                found.blocks = BrandBlocks.from_raw_data(raw)
            elif sort_key.startswith(keys.RELATION_PREFIX):
                relation = BrandRelation.from_raw_data(raw)
                found.relations[int(relation.other_id)] = relation
            elif sort_key == keys.MATCH_CARDS:
                listed = MatchCards.from_raw_data(raw)
                found.cards, found.thresholds = listed.listed(), listed.fit_thresholds()
                found.promises = listed.label_promises()
            elif sort_key.startswith(keys.MATCH_PREFIX):
                match = Match.from_raw_data(raw)
                found.matches[int(match.candidate_id)] = match
            # match runs (MATCHRUN#) lie in the range too; screens read open runs from SEEN
        if not answer.get("LastEvaluatedKey"):
            return found
        request["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
