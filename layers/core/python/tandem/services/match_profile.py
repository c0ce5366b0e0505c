"""A brand's match profile: its item as tandem.domain.matching scores it (the packed record's
source). Apart from the candidate index (match_index, numpy), so a request's send and answer
pack a pair without loading it."""

from __future__ import annotations

from tandem.domain.matching import Profile
from tandem.domain.matching.format_grade import format_boosts
from tandem.store.models import Brand


def to_profile(brand: Brand) -> Profile:
    audience = brand.audience
    return Profile(
        brand_id=int(brand.brand_id),
        account_id=brand.account_id,
        category=brand.category or "",
        company_size=brand.company_size or "",
        audience_size=brand.audience_size or "",
        niche=brand.niche or "",
        price_tier=brand.price_tier or "",
        values=frozenset(brand.values or ()),
        # a format that worked for the brand (graded on its collaborations' outcomes) counts as one it offers
        collab_kinds=frozenset(brand.collab_kinds or ()) | proven_formats(brand),
        countries=frozenset((audience.countries or ()) if audience else ()),
        age_bands=frozenset((audience.age_bands or ()) if audience else ()),
        genders=frozenset((audience.genders or ()) if audience else ()),
    )


def proven_formats(brand: Brand) -> frozenset[str]:
    """The formats whose learned grade is positive (format_grade); a brand whose outcomes were
    kept before the counts (Brand.proven_kinds only) keeps those."""
    if brand.format_outcomes is None:
        return frozenset(brand.proven_kinds or ())
    return frozenset(format_boosts(brand.format_outcomes))
