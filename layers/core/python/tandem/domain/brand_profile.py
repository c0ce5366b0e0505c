"""Brand profile rules: the option lists the forms offer, field validation, name visibility.

Pure: no I/O. The web app mirrors the URL and email rules (web/src/lib/validation.ts, SPEC
section 5) word for word, so a member sees the same message before and after submitting.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tandem.domain import vocabulary
from tandem.domain.countries import COUNTRY_NAMES
from tandem.errors import ValidationError

# ---------------------------------------------------------------- option lists

# Categories, sizes and genders are the matcher's vocabulary itself; the other lists are the
# part of its (append-only) vocabulary the forms offer. tests/unit/test_brand_profile.py checks
# every option has a place in the packed index.
CATEGORIES = vocabulary.CATEGORIES
COMPANY_SIZES = vocabulary.COMPANY_SIZES
AUDIENCE_SIZES = vocabulary.AUDIENCE_SIZES  # followers or list size, the biggest channel
NICHES = vocabulary.NICHES  # a few niches for each category: a niche belongs to its category
PRICE_TIERS = vocabulary.PRICE_TIERS
VALUES = (
    "sustainable",
    "vegan",
    "independent",
    "family-run",
    "premium",
    "playful",
    "B Corp",
    "local",
    "inclusive",
    "handmade",
)
COLLAB_KINDS = (
    vocabulary.FORM_KINDS
)  # giveaways, co-branded products, content/newsletter swaps, events, bundles
AGE_BANDS = ("18-24", "25-34", "35-44", "45-54", "55+")
GENDERS = vocabulary.GENDERS
# Every ISO 3166-1 country, by name (tandem.domain.countries holds the names).
COUNTRIES = tuple(
    sorted(COUNTRY_NAMES.items(), key=lambda item: unicodedata.normalize("NFKD", item[1]).casefold())
)
COUNTRY_CODES = frozenset(code for code, _ in COUNTRIES)
SOCIAL_NETWORKS = ("instagram", "tiktok", "facebook", "linkedin", "x", "youtube")
CONTACT_FIELDS = ("name", "email", "phone")

NAME_MAX = 80
DESCRIPTION_MAX = 1000
CONTACT_NAME_MAX = 80
URL_MAX = 300

# ---------------------------------------------------------------- logos

LOGO_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}
LOGO_MAX_BYTES = 2 * 1024 * 1024
LOGO_TYPE_MESSAGE = "Logos must be PNG, JPEG or WebP images"
LOGO_SIZE_MESSAGE = "Logos must be 2 MB or smaller"
LOGO_EMPTY_MESSAGE = "The logo file is empty"
LOGO_KEY_MESSAGE = "Upload the logo again: we couldn't find that upload"
LOGO_PREFIX = "logos"
_LOGO_KEY = re.compile(r"^logos/(\d{1,12})/[0-9a-f]{32}\.(png|jpg|webp)$")

# ---------------------------------------------------------------- messages (SPEC section 5)

REQUIRED = "This field is required"
NICHE_OF_CATEGORY = "Choose a niche from the list for your category"
NICHE_NEEDS_CATEGORY = "Choose a category first"
INVALID_EMAIL = "Invalid email"
INVALID_URL = "Invalid URL"
URL_HTTPS = "Must start with https://"
INVALID_PHONE = "Invalid phone number"
CHECK_FIELDS = "Please check the highlighted fields"


def url_scheme_case(scheme: str) -> str:
    return f"{scheme} must be lowercase"


def options() -> dict[str, Any]:
    """GET brands/options: the only values the forms offer (and the server accepts)."""
    return {
        "categories": list(CATEGORIES),
        "companySizes": list(COMPANY_SIZES),
        "audienceSizes": list(AUDIENCE_SIZES),
        "niches": {category: list(NICHES.get(category, ())) for category in CATEGORIES},
        "priceTiers": list(PRICE_TIERS),
        "values": list(VALUES),
        "collabKinds": list(COLLAB_KINDS),
        "countries": [{"code": code, "name": name} for code, name in COUNTRIES],
        "ageBands": list(AGE_BANDS),
        "genders": list(GENDERS),
        "socialNetworks": list(SOCIAL_NETWORKS),
    }


# ---------------------------------------------------------------- single-value rules

_SCHEME = re.compile(r"^(https?)://", re.IGNORECASE)
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$", re.IGNORECASE)
_HTTP_URL = re.compile(r"^https?://\S+$")
_EMAIL = re.compile(r"^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[^\s@.]{2,}$")
_PHONE_CHARS = re.compile(r"^\+?[0-9 ()./-]+$")


def url_error(raw: str) -> str | None:
    """SPEC section 5's URL rule, as web/src/lib/validation.ts applies it."""
    value = raw.strip()
    match = _SCHEME.match(value)
    if match and match.group(1) != match.group(1).lower():
        return url_scheme_case(match.group(1))
    if len(value) > 7 and not value.startswith("https://"):
        return URL_HTTPS
    if not _HTTP_URL.match(value):
        return INVALID_URL
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (raises on a port that is not a number, as the browser's URL does)
    except ValueError:
        return INVALID_URL
    if not _HOST.match(host):
        return INVALID_URL
    if len(value) > URL_MAX:
        return f"Links must be {URL_MAX} characters or fewer"
    return None


def https_url_error(raw: str) -> str | None:
    """Social links: the URL rule, and always https (also for short values)."""
    message = url_error(raw)
    if message is None and not raw.strip().startswith("https://"):
        return URL_HTTPS
    return message


def email_error(raw: str) -> str | None:
    value = raw.strip()
    return None if _EMAIL.match(value) and len(value) <= 254 else INVALID_EMAIL


def phone_error(raw: str) -> str | None:
    """A phone number a person could dial: digits with the usual separators, 7 to 15 digits."""
    value = raw.strip()
    digits = sum(ch.isdigit() for ch in value)
    if not _PHONE_CHARS.match(value) or not 7 <= digits <= 15 or "+" in value[1:]:
        return INVALID_PHONE
    return None


# ---------------------------------------------------------------- the whole profile


class ProfileInvalid(ValidationError):
    """400 `{error, errors: {field: message}}`; nothing is saved."""

    def __init__(self, errors: dict[str, str], message: str = CHECK_FIELDS) -> None:
        super().__init__(message)
        self.errors = errors


def _logo_invalid(message: str) -> ProfileInvalid:
    return ProfileInvalid({"logo": message}, message)


@dataclass
class _Collector:
    errors: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, message: str) -> None:
        self.errors.setdefault(name, message)


def _text(value: Any, name: str, out: _Collector, max_len: int, required: bool = False) -> str | None:
    if value is None:
        value = ""
    if not isinstance(value, str):
        out.add(name, "Must be text")
        return None
    value = value.strip()
    if required and not value:
        out.add(name, REQUIRED)
        return None
    if len(value) > max_len:
        out.add(name, f"Must be {max_len:,} characters or fewer")
        return None
    return value


def _choice(value: Any, name: str, allowed: tuple[str, ...], out: _Collector, label: str) -> str | None:
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or value not in allowed:
        article = "an" if label[:1] in "aeiou" else "a"
        out.add(name, f"Choose {article} {label} from the list")
        return None
    return value


def _choices(
    value: Any, name: str, allowed: frozenset[str] | tuple[str, ...], out: _Collector
) -> list[str] | None:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        out.add(name, "Must be a list of options")
        return None
    unknown = [v for v in value if v not in allowed]
    if unknown:
        out.add(name, f"Not one of the options: {unknown[0]}")
        return None
    return sorted(set(value))


def _optional_url(value: Any, name: str, out: _Collector, rule: Any) -> str | None | bool:
    """The cleaned URL, None to clear, or False when invalid."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        out.add(name, INVALID_URL)
        return False
    message = rule(value)
    if message:
        out.add(name, message)
        return False
    return value.strip()


def _object(value: Any, name: str, out: _Collector, keys: tuple[str, ...]) -> Mapping[str, Any] | None:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        out.add(name, "Must be an object")
        return None
    unknown = [k for k in value if k not in keys]
    if unknown:
        out.add(f"{name}.{unknown[0]}", f"Unknown field {unknown[0]}")
        return None
    return value


def _niche(
    body: Mapping[str, Any], clean: dict[str, Any], out: _Collector, category: str, niche: str
) -> None:
    """`niche` must be one of its category's (the body's category, else the saved one). A new
    category clears a saved niche of the old one (as the form does: its niche list changes)."""
    if "category" in body and "category" not in clean:
        return  # the category itself is wrong: its error says so
    category = clean.get("category", category)
    if "niche" in body:
        value = body["niche"]
        if value is None or value == "":
            clean["niche"] = ""
        elif not isinstance(value, str) or value not in NICHES.get(category, ()):
            out.add("niche", NICHE_OF_CATEGORY if category else NICHE_NEEDS_CATEGORY)
        else:
            clean["niche"] = value
    elif niche and niche not in NICHES.get(category, ()):
        clean["niche"] = ""


def clean_profile(
    body: Mapping[str, Any], *, creating: bool, category: str = "", niche: str = ""
) -> dict[str, Any]:
    """Validate a BrandProfile body (all fields on create, any subset on update; `category` and
    `niche`: the brand's saved ones, for a niche named without its category or a category change).

    Returns the cleaned values keyed by model attribute name (name, website, description,
    category, niche, price_tier, company_size, audience_size, values, collab_kinds, audience
    {age_bands, genders, countries}, social {network: url|None}, contact {name, email, phone},
    hide_name), holding only the fields the body named (and `niche` "" when a new category
    leaves the saved niche behind). Raises ProfileInvalid with every field's first error
    otherwise. Error keys are the API's field names (`website`, `audience.countries`, `contact.email`).
    """
    out = _Collector()
    clean: dict[str, Any] = {}

    if creating or "name" in body:
        name = _text(body.get("name"), "name", out, NAME_MAX, required=True)
        if name is not None:
            clean["name"] = name
    if "website" in body:
        website = _optional_url(body["website"], "website", out, url_error)
        if website is not False:
            clean["website"] = website
    if "description" in body:
        description = _text(body["description"], "description", out, DESCRIPTION_MAX)
        if description is not None:
            clean["description"] = description
    if "category" in body:
        category = _choice(body["category"], "category", CATEGORIES, out, "category")
        if category is not None:
            clean["category"] = category
    _niche(body, clean, out, category, niche)
    if "priceTier" in body:
        tier = _choice(body["priceTier"], "priceTier", PRICE_TIERS, out, "price tier")
        if tier is not None:
            clean["price_tier"] = tier
    if "companySize" in body:
        size = _choice(body["companySize"], "companySize", COMPANY_SIZES, out, "company size")
        if size is not None:
            clean["company_size"] = size
    if "audienceSize" in body:
        reach = _choice(body["audienceSize"], "audienceSize", AUDIENCE_SIZES, out, "audience size")
        if reach is not None:
            clean["audience_size"] = reach
    lists = (("values", "values", VALUES), ("collabKinds", "collab_kinds", COLLAB_KINDS))
    for api_name, attr, allowed in lists:
        if api_name in body:
            chosen = _choices(body[api_name], api_name, allowed, out)
            if chosen is not None:
                clean[attr] = chosen
    if "audience" in body:
        audience = _object(body["audience"], "audience", out, ("ageBands", "genders", "countries"))
        if audience is not None:
            parts = {}
            for api_name, attr, allowed in (
                ("ageBands", "age_bands", AGE_BANDS),
                ("genders", "genders", GENDERS),
                ("countries", "countries", COUNTRY_CODES),
            ):
                chosen = _choices(audience.get(api_name), f"audience.{api_name}", allowed, out)
                if chosen is not None:
                    parts[attr] = chosen
            clean["audience"] = parts
    if "social" in body:
        social = _object(body["social"], "social", out, SOCIAL_NETWORKS)
        if social is not None:
            links = {}
            for network in SOCIAL_NETWORKS:
                link = _optional_url(social.get(network), f"social.{network}", out, https_url_error)
                if link is not False:
                    links[network] = link
            clean["social"] = links
    if "contact" in body:
        contact = _object(body["contact"], "contact", out, CONTACT_FIELDS)
        if contact is not None:
            details: dict[str, str | None] = {}
            person = _text(contact.get("name"), "contact.name", out, CONTACT_NAME_MAX)
            if person is not None:
                details["name"] = person or None
            for key, rule in (("email", email_error), ("phone", phone_error)):
                raw = contact.get(key)
                if raw is None or (isinstance(raw, str) and not raw.strip()):
                    details[key] = None
                elif not isinstance(raw, str):
                    out.add(f"contact.{key}", INVALID_EMAIL if key == "email" else INVALID_PHONE)
                elif message := rule(raw):
                    out.add(f"contact.{key}", message)
                else:
                    details[key] = raw.strip().lower() if key == "email" else raw.strip()
            clean["contact"] = details
    if "hideName" in body:
        if not isinstance(body["hideName"], bool):
            out.add("hideName", "Must be true or false")
        else:
            clean["hide_name"] = body["hideName"]

    if out.errors:
        raise ProfileInvalid(out.errors)
    return clean


# ---------------------------------------------------------------- logo upload


def check_logo_upload(body: Mapping[str, Any]) -> tuple[str, int]:
    """`{contentType, size}` of a logo about to be uploaded -> (content type, extension)."""
    content_type = body.get("contentType")
    size = body.get("size")
    if not isinstance(content_type, str) or content_type.strip().lower() not in LOGO_TYPES:
        raise _logo_invalid(LOGO_TYPE_MESSAGE)
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise _logo_invalid("The logo's size must be a number of bytes")
    if size == 0:
        raise _logo_invalid(LOGO_EMPTY_MESSAGE)
    if size > LOGO_MAX_BYTES:
        raise _logo_invalid(LOGO_SIZE_MESSAGE)
    return content_type.strip().lower(), size


def logo_key_belongs(brand_id: int, key: Any) -> bool:
    """Keys the upload endpoint hands out for this brand: logos/<brand id>/<random>.<ext>."""
    if not isinstance(key, str):
        return False
    match = _LOGO_KEY.match(key)
    return bool(match) and int(match.group(1)) == brand_id


# ---------------------------------------------------------------- masked names and texts

# WHETHER a brand's name is shown to a viewer is decided in tandem.domain.identity alone (the
# plan's names shown, NAMES_SHOWN_GLOBALLY included, come folded in from entitlements); these
# are the masks it applies.


def masked_name(category: str) -> str:
    """What a member sees instead of a hidden name: 'A food & drink brand', 'An outdoors brand'."""
    if not category:
        return "A brand"
    article = "An" if category[0].lower() in "aeiou" else "A"
    return f"{article} {category} brand"


def logo_url(logo_key: str | None) -> str | None:
    """Logos are served from the assets bucket under /assets/ (CloudFront; the local server)."""
    return f"/assets/{logo_key}" if logo_key else None


NAME_MASK = "This brand"
SITE_MASK = "this brand's website"
NAMES_BRAND = "Your description names your brand; it will be shown with the name removed."
NAMES_BRAND_FEATURE = "Your feature names your brand; it will be shown with the name removed."
NAMES_BRAND_MESSAGE = "Your message names your brand; it will be shown with the name removed."
# Words of a name too common to hide on their own ("Oat & Co" hides "Oat & Co", not "co").
_COMMON_NAME_WORDS = frozenset(
    "a an and the of for by co company studio studios shop store brand brands ltd limited inc llc "
    "group club house collective lab labs".split()
)
_WORD = re.compile(r"[^\W_]+")
_JOIN = (
    r"(?:[\W_]|and)*?"  # however the words are spaced or joined: spaces, hyphens, dots, "&"/"and", nothing
)
_DOMAIN = r"(?:https?://)?(?:www\.)?(?:[\w-]+\.)*[\w-]*{core}[\w-]*(?:\.[a-z][\w-]*)+(?:/[^\s]*)?"


def _site_label(website: str | None) -> str:
    """The part of a website's host that names the brand: 'zyxquor' of https://www.zyxquor.example."""
    host = (urlsplit(website).hostname or "") if website else ""
    labels = [part for part in host.removeprefix("www.").split(".") if part]
    return labels[0] if len(labels) > 1 else ""


def _name_cores(name: str, website: str | None) -> list[str]:
    """Patterns for what gives a hidden name away, longest first: all its words however spaced,
    cased or joined; its first distinctive word alone (also inside a longer word); its website's
    host name."""
    words = [w for w in _WORD.findall(unicodedata.normalize("NFKC", name).lower()) if w != "and"]
    cores = []
    if words:
        cores.append(_JOIN.join(re.escape(w) for w in words))
    distinctive = [w for w in words if w not in _COMMON_NAME_WORDS and len(w) >= 3]
    if len(words) > 1 and distinctive and len(distinctive[0]) >= 4:
        cores.append(re.escape(distinctive[0]))
    label = _site_label(website)
    if len(label) >= 3:
        cores.append(_JOIN.join(re.escape(w) for w in _WORD.findall(label)))
    return cores


def masked_text(text: str, name: str, website: str | None = None) -> str:
    """A text a brand wrote (its description, a feature, a pitch, a collab summary) as members
    who may not see its name read it: its name however spaced, cased or joined ('Zyxquor Hidden
    Studio', 'zyxquor  hidden studio', 'ZyxquorHiddenStudio', 'zyxquor-hidden-studio') is 'This
    brand', its first distinctive word too ('At Zyxquor we camp'), and a domain naming it, or
    its website's, is "this brand's website"."""
    if not text:
        return text
    out = unicodedata.normalize("NFKC", text)
    for core in _name_cores(name, website):
        out = re.sub(_DOMAIN.format(core=core), SITE_MASK, out, flags=re.IGNORECASE)
        out = re.sub(rf"[^\W_]*{core}[^\W_]*", NAME_MASK, out, flags=re.IGNORECASE)
    return out if out != unicodedata.normalize("NFKC", text) else text


def masked_description(description: str, name: str, website: str | None = None) -> str:
    """The description without the brand's own name in it (masked_text)."""
    return masked_text(description, name, website)


def names_brand(text: str, name: str, website: str | None = None) -> bool:
    """Whether a text would be shown changed to members who may not see the brand's name."""
    return masked_text(text, name, website) != text


def name_notice(brand: Any, texts: tuple[str, ...], notice: str) -> str | None:
    """What a brand that hides its name is told when what it just wrote (a description, a
    feature, a request's or pitch's message) names it: `notice`, that it will be shown with the
    name removed; None when nothing is masked."""
    if not getattr(brand, "hide_name", False):
        return None
    website = getattr(brand, "website", None)
    return notice if any(names_brand(t or "", brand.name, website) for t in texts) else None


# ---------------------------------------------------------------- match scores


def score_percent(score: float) -> int:
    """A match score (0..1) as the 0-100 number members see."""
    return max(0, min(100, round(float(score) * 100)))


# The fit labels, best first, each with the percent its cards start at on a fresh deployment.
# Set for the geometric score on training seeds (21-23) of the held-out evaluation world, at 0%,
# 20% AND 40% profile noise, and checked on its reported seeds (tests/bench/matching_heldout.py;
# docs/decisions.md, 2026-11-29 "every field must fit"); the second figure is what the label was
# chosen to hold there (of "Great fit" brands at least 1 in 8 would say yes to each other, of
# "Good fit" 1 in 12). No card prints it: a fresh deployment promises nothing our own requests do
# not back (`checkable_promise`).
FIT_PROMISES = (("Great fit", 1 / 8), ("Good fit", 1 / 12))
FIT_THRESHOLDS = {"Great fit": 90, "Good fit": 85}
# Once a model is trained, a card's label goes by its brand's calibrated chance of accepting
# the member's request instead (tandem.domain.matching.training.label_plan): against the typical
# request's, how many times as likely at least ("Good fit": as likely as the typical request,
# "Great fit": half as likely again), the top label still on at most TOP_LABEL_SHARE of the
# cards. docs/decisions.md, 2026-12-08.
CHANCE_RATIOS = {"Great fit": 1.5, "Good fit": 1.0}


WORTH_A_LOOK = "Worth a look"
FIT_LABELS = (*(label for label, _ in FIT_PROMISES), WORTH_A_LOOK)  # best first


def fit_label(percent: int, thresholds: Mapping[str, int] = FIT_THRESHOLDS) -> str:
    for label, _ in FIT_PROMISES:
        if percent >= thresholds[label]:
            return label
    return WORTH_A_LOOK


def fit_promise(label: str, promises: Mapping[str, Mapping[str, float]] | None = None) -> str | None:
    """What a fit label promises, in the words a card shows beside it: only what our own
    requests back (`checkable_promise`, from the stored model's `label_promises`); None on a
    fresh deployment, and for a label our data cannot yet vouch for (the score is not a
    probability: the promise is what a member may check)."""
    return checkable_promise(label, promises)


TOP_LABEL_SHARE = 0.2  # at most this share of a brand's cards may carry the top label


def capped_thresholds(percents: list[int], thresholds: Mapping[str, int] | None = None) -> dict[str, int]:
    """The thresholds a run labels one brand's cards by (`percents`): the stored ones, the top
    label's raised until at most TOP_LABEL_SHARE of the cards carry it (so "Great fit" never
    becomes every card's, whatever the scores or a recalibration do)."""
    out = thresholds_or_defaults(thresholds)
    top = FIT_PROMISES[0][0]
    allowed = int(TOP_LABEL_SHARE * len(percents))
    ranked = sorted((int(p) for p in percents), reverse=True)
    if sum(p >= out[top] for p in ranked) > allowed:
        out[top] = min(101, ranked[allowed] + 1)
    return out


def thresholds_or_defaults(stored: Mapping[str, Any] | None) -> dict[str, int]:
    """Stored thresholds (a run's, the model's) when they name every label in order, else the
    defaults: a label is never decided by half a set."""
    return valid_thresholds(stored) or dict(FIT_THRESHOLDS)


def valid_thresholds(stored: Mapping[str, Any] | None) -> dict[str, int] | None:
    """Stored thresholds as ints when they name every label, best first, none below a worse
    label's and each within 0..101; else None."""
    try:
        out = {label: int(stored[label]) for label, _ in FIT_PROMISES} if stored else {}
    except (KeyError, TypeError, ValueError):
        out = {}
    steps = list(out.values())
    if not out or any(not 0 <= t <= 101 for t in steps) or steps != sorted(steps, reverse=True):
        return None
    return out


def chance_percent(chance: float) -> int:
    """A calibrated chance of acceptance (0..1) as the whole percent a label goes by."""
    return max(0, min(100, round(float(chance) * 100)))


def chance_thresholds(values: Iterable[int], typical: float) -> dict[str, int]:
    """Thresholds on chance percents: a card is a "Good fit" when its brand is at least as likely
    to accept as the `typical` request (the share of members' next requests the model expects
    accepted), a "Great fit" when CHANCE_RATIOS times as likely; the top label raised until at
    most TOP_LABEL_SHARE of `values` (the cards of members' lists) carry it (`capped_thresholds`).
    Cards of one chance always carry one label. A lower label never ends above a higher one."""
    at = {
        label: min(101, max(1, math.ceil(round(100 * typical * CHANCE_RATIOS[label], 6))))
        for label, _ in FIT_PROMISES
    }
    return capped_thresholds(list(values), at)


# ---------------------------------------------------------------- checkable promises (issue 37)

PROMISE_MIN_REQUESTS = 100  # answered or expired requests sent to a label's brands before it promises
PROMISE_MIN_GROUPS = 30  # ... from at least this many distinct senders' groups (no small group sets it)
PROMISE_MAX_HALF_WIDTH = 0.1  # the 95% interval's half width, at most (1 in 10 either way)
PROMISE_DAYS = 28  # a promise is measured on the requests answered in this many days
PROMISE_TENTHS_SLACK = 0.015  # a share is said in tenths only when that moves it this little


def wilson(accepted: float, total: float, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share."""
    if total <= 0:
        return 0.0, 1.0
    p = accepted / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * ((p * (1 - p) / total + z * z / (4 * total * total)) ** 0.5) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def label_promises(
    rows: list[tuple[str, bool, str]], forecast: Mapping[str, float] | None = None
) -> dict[str, dict[str, float]]:
    """What each label can promise from our own data: rows are (the label the request's card
    carries, accepted, the sender's group). A label promises "about N in 10 were accepted" only
    with PROMISE_MIN_REQUESTS requests from PROMISE_MIN_GROUPS groups and an interval no wider
    than PROMISE_MAX_HALF_WIDTH either way; each group counts for at most 1/PROMISE_MIN_GROUPS of
    a label's requests, and the share is theirs (what a member can check). `forecast`
    (training.label_plan: what the calibrated model expects of the lists it will rank) is kept
    beside it. {label: {share, low, high, requests, groups, observed(, forecast)}}."""
    out: dict[str, dict[str, float]] = {}
    for label in [name for name, _ in FIT_PROMISES]:
        by_group: dict[str, list[bool]] = {}
        for name, accepted, group in rows:
            if name == label:
                by_group.setdefault(group, []).append(bool(accepted))
        requests = sum(len(v) for v in by_group.values())
        if requests < PROMISE_MIN_REQUESTS or len(by_group) < PROMISE_MIN_GROUPS:
            continue
        cap = requests / PROMISE_MIN_GROUPS
        weight = {g: min(1.0, cap / len(v)) for g, v in by_group.items()}
        total = sum(weight[g] * len(v) for g, v in by_group.items())
        yes = sum(weight[g] * sum(v) for g, v in by_group.items())
        low, high = wilson(yes, total)
        if (high - low) / 2 > PROMISE_MAX_HALF_WIDTH:
            continue
        out[label] = {
            "share": yes / total,
            "low": low,
            "high": high,
            "requests": requests,
            "groups": len(by_group),
            "observed": yes / total,
        }
        if forecast and label in forecast:
            out[label]["forecast"] = float(forecast[label])
    return out


def checkable_promise(label: str, promises: Mapping[str, Mapping[str, float]] | None) -> str | None:
    """ "Of requests sent to Great fit brands, about 4 in 10 were accepted" when our data backs
    it (label_promises), else None: a fresh deployment promises nothing it cannot back."""
    found = (promises or {}).get(label)
    if not found:
        return None
    share, low, high = float(found["share"]), float(found["low"]), float(found["high"])
    tenths = round(10 * share)
    # "N in 10" when that is inside the 95% interval and hardly moves the share, else to the
    # nearest in 100: a share of 0.56 said as "6 in 10" promised what the next week's requests
    # broke (tests/bench/platform_sim.py, docs/decisions.md 2026-12-08).
    near = low <= tenths / 10 <= high and abs(tenths / 10 - share) <= PROMISE_TENTHS_SLACK
    said = f"{tenths} in 10" if near else f"{round(100 * share)} in 100"
    return f"Of requests sent to {label} brands, about {said} were accepted"
