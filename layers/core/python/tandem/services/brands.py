"""Brand lookups and the compact profile the matcher works on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC

from tandem.domain.matching import Profile
from tandem.errors import NotFound
from tandem.store import keys
from tandem.store.models import Brand

BATCH_GET_LIMIT = 100


def get_brand(brand_id: int) -> Brand:
    try:
        return Brand.get(keys.brand_pk(brand_id), keys.PROFILE)
    except Brand.DoesNotExist:
        raise NotFound("Brand not found") from None


def brands_of_account(account_id: str) -> list[Brand]:
    return list(Brand.by_account.query(keys.account_pk(account_id)))


def all_brands() -> Iterator[Brand]:
    return Brand.all_brands.query(keys.ALL_BRANDS)


def all_brand_ids() -> list[int]:
    return [int(b.brand_id) for b in all_brands()]


def get_many(brand_ids: Iterable[int]) -> list[Brand]:
    items = [(keys.brand_pk(i), keys.PROFILE) for i in brand_ids]
    return list(Brand.batch_get(items))


def to_profile(brand: Brand) -> Profile:
    audience = brand.audience
    return Profile(
        brand_id=int(brand.brand_id),
        account_id=brand.account_id,
        category=brand.category or "",
        values=frozenset(brand.values or ()),
        collab_kinds=frozenset(brand.collab_kinds or ()),
        countries=frozenset((audience.countries or ()) if audience else ()),
        age_bands=frozenset((audience.age_bands or ()) if audience else ()),
    )


def create_brand(
    *,
    account_id: str,
    name: str,
    category: str = "",
    description: str = "",
    website: str | None = None,
    company_size: str = "",
    values: Iterable[str] = (),
    collab_kinds: Iterable[str] = (),
    countries: Iterable[str] = (),
    age_bands: Iterable[str] = (),
    genders: Iterable[str] = (),
) -> Brand:
    from datetime import datetime

    from tandem.store.ids import next_id
    from tandem.store.models import Audience

    brand_id = next_id("brand")
    brand = Brand(
        keys.brand_pk(brand_id),
        keys.PROFILE,
        brand_id=brand_id,
        account_id=account_id,
        name=name,
        category=category,
        description=description,
        website=website,
        company_size=company_size,
        values=set(values) or None,
        collab_kinds=set(collab_kinds) or None,
        audience=Audience(
            countries=set(countries) or None,
            age_bands=set(age_bands) or None,
            genders=set(genders) or None,
        ),
        created_at=datetime.now(UTC),
        gsi1pk=keys.ALL_BRANDS,
        gsi1sk=keys.brand_list_sk(brand_id),
        gsi2pk=keys.account_pk(account_id),
        gsi2sk=keys.brand_list_sk(brand_id),
    )
    brand.save()
    return brand
