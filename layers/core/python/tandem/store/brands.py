"""Brands: the profile (audience, socials, contact), what a brand has seen, and its relation to
every other brand."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    JSONAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
)

from tandem.domain import relations as relation_states
from tandem.store import keys
from tandem.store.base import Key, TandemModel, _Gsi1, _Gsi2, _register


class Audience(MapAttribute):
    age_bands = UnicodeSetAttribute(null=True)
    genders = UnicodeSetAttribute(null=True)
    countries = UnicodeSetAttribute(null=True)


class SocialLinks(MapAttribute):
    instagram = UnicodeAttribute(null=True)
    tiktok = UnicodeAttribute(null=True)
    facebook = UnicodeAttribute(null=True)
    linkedin = UnicodeAttribute(null=True)
    x = UnicodeAttribute(null=True)
    youtube = UnicodeAttribute(null=True)


class Contact(MapAttribute):
    """Revealed only to connected brands (and the brand's own account)."""

    name = UnicodeAttribute(null=True)
    email = UnicodeAttribute(null=True)
    phone = UnicodeAttribute(null=True)


@_register
class Brand(TandemModel):
    brand_id = NumberAttribute()
    account_id = UnicodeAttribute()
    name = UnicodeAttribute()
    category = UnicodeAttribute(default="")
    description = UnicodeAttribute(default="")
    website = UnicodeAttribute(null=True)
    company_size = UnicodeAttribute(default="")
    audience_size = UnicodeAttribute(default="")  # AUDIENCE_SIZES band, optional
    niche = UnicodeAttribute(default="")  # one of NICHES[category], optional
    price_tier = UnicodeAttribute(default="")  # PRICE_TIERS, optional
    values = UnicodeSetAttribute(null=True)
    collab_kinds = UnicodeSetAttribute(null=True)
    # Formats the brand ran a collaboration in and would partner again after (issue 41): matching
    # scores them as kinds the brand offers, whatever its profile lists.
    proven_kinds = UnicodeSetAttribute(null=True)
    # What each side said after a collaboration, per format: {format: {"again": n, "not": n}}
    # (issue 41); matching turns it into a bounded boost (tandem.domain.matching.format_grade).
    format_outcomes = JSONAttribute(null=True)
    audience = Audience(null=True)
    hide_name = BooleanAttribute(default=False)
    # Suspended by the team (issue 27): hidden everywhere, sends nothing, out of the match index.
    suspended = BooleanAttribute(default=False)
    logo_key = UnicodeAttribute(null=True)  # logos/<brand id>/<random>.<ext> in the assets bucket
    social = SocialLinks(null=True)
    contact = Contact(null=True)
    created_at = UTCDateTimeAttribute()
    updated_at = UTCDateTimeAttribute(null=True)
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    all_brands = _Gsi1()
    gsi2pk = UnicodeAttribute()
    gsi2sk = UnicodeAttribute()
    by_account = _Gsi2()

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.PROFILE

    @classmethod
    def new(cls, brand_id: int, account_id: str, **fields: Any) -> Brand:
        """A brand with its key and index keys (every brand; an account's brands)."""
        return cls(
            *cls.key(brand_id),
            brand_id=brand_id,
            account_id=account_id,
            gsi1pk=keys.ALL_BRANDS,
            gsi1sk=keys.brand_list_sk(brand_id),
            gsi2pk=keys.account_pk(account_id),
            gsi2sk=keys.brand_list_sk(brand_id),
            **fields,
        )

    @classmethod
    def find_many(cls, brand_ids: Iterable[int]) -> list[Brand]:
        """The brands among `brand_ids` that exist (BatchGetItem, 100 keys a call)."""
        return list(cls.batch_get([cls.key(i) for i in dict.fromkeys(brand_ids)]))

    @classmethod
    def of_account(cls, account_id: str) -> list[Brand]:
        """The account's brands, lowest id first: the first is the one a member acts for when no
        brand is named (the door's default brand and the sign-in's sessionInfo.brandId both read
        it here; the index already sorts by padded id, the sort states the rule)."""
        return sorted(cls.by_account.query(keys.account_pk(account_id)), key=lambda b: int(b.brand_id))

    @classmethod
    def every(cls, first: int | None = None, last: int | None = None) -> Iterator[Brand]:
        """Every brand (match candidates), or those with an id in first..last."""
        if first is None or last is None:
            return cls.all_brands.query(keys.ALL_BRANDS)
        return cls.all_brands.query(
            keys.ALL_BRANDS, cls.gsi1sk.between(keys.brand_list_sk(first), keys.brand_list_sk(last))
        )


@_register
class BrandRelation(TandemModel):
    """What brand `brand_id` has to do with brand `other_id` (one item per direction).

    Matches keep `saved` / `dismissed`; connection requests keep `request_state` and the
    request's id. The matcher reads one brand's relations in one query to exclude them.
    """

    brand_id = NumberAttribute()
    other_id = NumberAttribute()
    saved = BooleanAttribute(default=False)
    dismissed = BooleanAttribute(default=False)
    # "" | requested-out | requested-in | connected | declined-out | declined-in | cancelled
    request_state = UnicodeAttribute(default="")
    request_id = UnicodeAttribute(default="")
    updated_at = NumberAttribute(default=0)
    connected_at = NumberAttribute(null=True)  # epoch ms the request between them was accepted
    # On the sender's item: when it may send the other brand a new request after its last one
    # was cancelled or declined (tandem.domain.requests.resend_at); absent: no wait.
    resend_at = NumberAttribute(null=True)

    @classmethod
    def key(cls, brand_id: int, other_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.relation_sk(other_id)

    @classmethod
    def of_brand(cls, brand_id: int) -> dict[int, BrandRelation]:
        """Every relation of `brand_id`, keyed by the other brand's id (one query)."""
        return {
            int(r.other_id): r
            for r in cls.query(keys.brand_pk(brand_id), cls.sk.startswith(keys.RELATION_PREFIX))
        }

    @classmethod
    def set_flags(cls, brand_id: int, other_id: int, **flags: bool) -> None:
        """Set `saved` and/or `dismissed` (an upsert: the item is created when missing)."""
        actions = [cls.brand_id.set(brand_id), cls.other_id.set(other_id)]
        actions += [getattr(cls, name).set(bool(value)) for name, value in flags.items()]
        actions.append(cls.updated_at.set(int(time.time())))
        cls.at(brand_id, other_id).update(actions=actions)

    @classmethod
    def request_state_actions(cls, brand_id: int, other_id: int, state: str, request_id: str) -> list:
        """Update actions recording a request state (tandem.domain.relations), for a transaction."""
        if state not in relation_states.STATES:
            raise ValueError(f"unknown request state {state!r}")
        return [
            cls.brand_id.set(brand_id),
            cls.other_id.set(other_id),
            cls.request_state.set(state),
            cls.request_id.set(request_id),
            cls.updated_at.set(int(time.time())),
        ]


class BrandSummaryMap(MapAttribute):
    """A brand as a request shows it (kept as it was when the request was sent)."""

    id = NumberAttribute()
    name = UnicodeAttribute()
    category = UnicodeAttribute(default="")
    logo_url = UnicodeAttribute(null=True)
    hide_name = BooleanAttribute(default=False)


@_register
class BrandSeen(TandemModel):
    """What is new for a brand (pk=BRAND#<id>, sk=SEEN): the dashboard's menu counts and the
    lists' isNew flags, read with the brand's other items (store/news.py). Each set holds the
    ids of the items not yet seen; the writes that make an item new add its id in the same
    transaction, and a list's first page removes the ids it showed (one UpdateItem)."""

    new_requests = UnicodeSetAttribute(null=True)  # pending requests it received
    new_connections = UnicodeSetAttribute(null=True)  # its requests the other brand accepted
    new_declines = UnicodeSetAttribute(null=True)  # its requests the other brand declined
    new_matches = UnicodeSetAttribute(null=True)  # candidate ids of matches not listed yet
    open_runs = UnicodeSetAttribute(null=True)  # "<started epoch s>:<run id>" of queued/running runs
    # The brand's recent Matches views (store/learning.py pack_views: what matching learns from,
    # issue 37), kept here so the view that clears new matches writes this one item.
    views = BinaryAttribute(null=True, legacy_encoding=False)

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.SEEN
