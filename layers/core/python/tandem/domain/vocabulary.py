"""The matching vocabulary: the fixed terms a profile is scored over (categories, sizes, ages,
genders, kinds of collaboration, values, countries), their bit positions, and VOCAB_VERSION."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence

from tandem.domain.countries import COUNTRY_NAMES

# ---------------------------------------------------------------- vocabulary (bit positions)
# Append only: a term's position is its bit in the packed index. Changing the order needs an
# index rebuild (VOCAB_VERSION changes, and the nightly run rebuilds).
CATEGORIES = (
    "food & drink",
    "beauty",
    "home",
    "fashion",
    "wellness",
    "kids",
    "pets",
    "outdoors",
    "tech",
    "travel",
    "fitness",
    "stationery",
)
COMPANY_SIZES = ("1-10", "11-50", "51-200", "200+")
# Niche within a category and price tier: optional. A niche belongs to one category; its code
# is its place in that category's list (append only: a niche's position is its code in the packed
# index, at most 7 a category). Same category, same niche and a like tier is competition.
NICHES = {
    "food & drink": (
        "snacks", "coffee & tea", "soft drinks", "beer, wine & spirits", "bakery & sweets", "pantry"
    ),
    "beauty": ("skincare", "makeup", "haircare", "fragrance", "bath & body"),
    "home": ("furniture", "decor", "kitchen & dining", "bedding & textiles", "candles & scents"),
    "fashion": ("womenswear", "menswear", "footwear", "accessories", "jewellery"),
    "wellness": ("supplements", "sleep", "mindfulness", "natural remedies", "period care"),
    "kids": ("toys", "baby care", "kidswear", "books & learning", "nursery"),
    "pets": ("pet food", "treats", "toys & accessories", "grooming", "pet health"),
    "outdoors": ("camping", "hiking", "cycling", "water sports", "climbing"),
    "tech": ("gadgets", "audio", "smart home", "phone accessories", "apps & software"),
    "travel": ("luggage & bags", "stays", "tours & experiences", "travel accessories"),
    "fitness": ("gym equipment", "activewear", "sports nutrition", "classes & studios", "fitness apps"),
    "stationery": (
        "notebooks & journals", "pens & art supplies", "cards & gift wrap", "planners", "desk accessories"
    ),
}  # fmt: skip
PRICE_TIERS = ("affordable", "mid-range", "premium")
# Audience size (followers or list size, the brand's biggest channel): optional, its own bands.
AUDIENCE_SIZES = ("under 1K", "1K-10K", "10K-100K", "100K-1M", "1M+")
AGE_BANDS = ("under 18", "18-24", "25-34", "35-44", "45-54", "55-64", "55+", "65+")
GENDERS = ("women", "men", "non-binary")
COLLAB_KINDS = (
    "giveaways",
    "co-branded products",
    "content swaps",
    "newsletter swaps",
    "events",
    "bundles",
    "social takeovers",
    "pop-ups",
    "sampling",
    "affiliate",
    "gift with purchase",
    "podcasts",
)
# The kinds the brand form offers (brand_profile.COLLAB_KINDS: the vocabulary's first six). A
# profile that ticks all of these tells us nothing about which it can run (the "every kind" gate).
FORM_KINDS = COLLAB_KINDS[:6]
VALUES = (
    "sustainable",
    "vegan",
    "independent",
    "family-run",
    "premium",
    "playful",
    "B Corp",
    "local",
    "organic",
    "cruelty-free",
    "handmade",
    "inclusive",
    "plastic-free",
    "female-founded",
    "ethical",
    "charitable",
)
COUNTRIES = tuple(sorted(COUNTRY_NAMES))  # 249 ISO codes in 4 uint64 words (256 bits)
COUNTRY_WORDS = 4

# Terms outside the vocabulary still count: they are hashed into the spare high bits, so two
# brands with the same unlisted value overlap (rarely, two different ones collide; reasons only
# ever name listed terms).
_MASK_BITS = 64


def _index(vocab: Sequence[str]) -> dict[str, int]:
    return {term.lower(): i for i, term in enumerate(vocab)}


_CATEGORY_CODE = {term: i + 1 for term, i in _index(CATEGORIES).items()}  # 0 = none
_SIZE_CODE = {term: i + 1 for term, i in _index(COMPANY_SIZES).items()}  # 0 = unknown
_AUDIENCE_CODE = {term: i + 1 for term, i in _index(AUDIENCE_SIZES).items()}  # 0 = unknown
_TIER_CODE = {term: i + 1 for term, i in _index(PRICE_TIERS).items()}  # 0 = unknown
_AGE_BIT, _GENDER_BIT = _index(AGE_BANDS), _index(GENDERS)
_KIND_BIT, _VALUE_BIT = _index(COLLAB_KINDS), _index(VALUES)
_COUNTRY_BIT = {code.lower(): i for i, code in enumerate(COUNTRIES)}

VOCAB_VERSION = zlib.crc32(
    "|".join(
        ";".join(v) for v in (CATEGORIES, COMPANY_SIZES, AGE_BANDS, GENDERS, COLLAB_KINDS, VALUES, COUNTRIES)
    ).encode()
)


def _hash_bit(term: str, first: int, limit: int) -> int:
    return first + zlib.crc32(term.lower().encode()) % (limit - first)


def _bits(terms: Iterable[str], known: dict[str, int], limit: int = _MASK_BITS) -> int:
    mask = 0
    for term in terms:
        bit = known.get(term.strip().lower())
        mask |= 1 << (bit if bit is not None else _hash_bit(term, len(known), limit))
    return mask


def category_code(category: str) -> int:
    """1..n for the listed categories, a stable 100..254 code for others, 0 for none."""
    name = (category or "").strip().lower()
    if not name:
        return 0
    return _CATEGORY_CODE.get(name) or 100 + zlib.crc32(name.encode()) % 155


def niche_code(category: str, niche: str) -> int:
    """1.. for a niche listed under `category`, 0 for none (or one of another category)."""
    listed = NICHES.get((category or "").strip().lower(), ())
    wanted = (niche or "").strip().lower()
    return next((i + 1 for i, term in enumerate(listed) if term == wanted), 0)


def niche_of(category: str, code: int) -> str:
    listed = NICHES.get((category or "").strip().lower(), ())
    return listed[code - 1] if 1 <= code <= len(listed) else ""


def tier_code(tier: str) -> int:
    return _TIER_CODE.get((tier or "").strip().lower(), 0)


def _terms(mask: int, vocab: Sequence[str]) -> list[str]:
    return [term for i, term in enumerate(vocab) if mask >> i & 1]
