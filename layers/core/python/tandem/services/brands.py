"""Brand lookups and the compact profile the matcher works on."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any

import boto3
from botocore.config import Config

from tandem.config import settings
from tandem.domain import brand_profile
from tandem.domain.brand_profile import CONTACT_FIELDS, SOCIAL_NETWORKS
from tandem.domain.brand_profile import logo_url as url_of
from tandem.errors import NotFound
from tandem.integrations.aws import client
from tandem.observability import logger
from tandem.services import match_index, match_runs
from tandem.services.viewer import Viewer
from tandem.store.ids import next_id, next_ids
from tandem.store.models import Audience, Brand, Contact, SocialLinks, save_all


def get_brand(brand_id: int) -> Brand:
    brand = Brand.find(brand_id)
    if brand is None:
        raise NotFound("Brand not found")
    return brand


def brands_of_account(account_id: str) -> list[Brand]:
    return Brand.of_account(account_id)


def all_brands() -> Iterator[Brand]:
    return Brand.every()


def all_brand_ids() -> list[int]:
    return [int(b.brand_id) for b in all_brands()]


def get_many(brand_ids: Iterable[int]) -> list[Brand]:
    return Brand.find_many(brand_ids)


def create_brand(**fields: Any) -> Brand:
    """A new brand, saved (fields as for `new_brand`)."""
    brand = new_brand(**fields)
    brand.save(condition=Brand.pk.does_not_exist())
    return brand


def index_new(brand: Brand) -> None:
    """Put a brand made outside a profile save (a sign-up's first brand) into the match index at
    once, so brand search finds it and the next match runs see it without waiting for the
    nightly rebuild. A busy index never fails the sign-up: the nightly rebuild catches up."""
    try:
        match_index.refresh(brand)
    except match_index.IndexBusy:
        logger.warning("Match index busy; brand %s indexed by the nightly rebuild", brand.brand_id)


def create_brands(many: Iterable[dict[str, Any]]) -> list[Brand]:
    """New brands, saved, with ids in the order given (each `fields` as for `new_brand`): one
    counter update for all their ids and BatchWriteItem, 25 brands a call, instead of two
    round trips per brand. Ids come from the counter, so no brand can already hold one and
    the puts need no condition (the local seed creates its population this way)."""
    many = list(many)
    if not many:
        return []
    made = [
        new_brand(**fields, brand_id=brand_id)
        for fields, brand_id in zip(many, next_ids("brand", len(many)), strict=True)
    ]
    save_all(Brand, made)
    return made


def new_brand(
    *,
    account_id: str,
    name: str,
    category: str = "",
    description: str = "",
    website: str | None = None,
    company_size: str = "",
    audience_size: str = "",
    niche: str = "",
    price_tier: str = "",
    values: Iterable[str] = (),
    collab_kinds: Iterable[str] = (),
    countries: Iterable[str] = (),
    age_bands: Iterable[str] = (),
    genders: Iterable[str] = (),
    social: dict[str, str | None] | None = None,
    contact: dict[str, str | None] | None = None,
    hide_name: bool = False,
    brand_id: int | None = None,
) -> Brand:
    """A brand with a fresh id (or `brand_id`, one reserved with tandem.store.ids.next_ids),
    not saved yet (sign-up saves it in its transaction)."""

    if brand_id is None:
        brand_id = next_id("brand")
    brand = Brand.new(
        brand_id,
        account_id,
        name=name,
        category=category,
        description=description,
        website=website,
        company_size=company_size,
        audience_size=audience_size,
        niche=niche,
        price_tier=price_tier,
        values=set(values) or None,
        collab_kinds=set(collab_kinds) or None,
        audience=Audience(
            countries=set(countries) or None,
            age_bands=set(age_bands) or None,
            genders=set(genders) or None,
        ),
        social=SocialLinks(**social) if social else None,
        contact=Contact(**contact) if contact else None,
        hide_name=hide_name,
        created_at=datetime.now(UTC),
    )
    return brand


# ---------------------------------------------------------------- profiles (API: Brands)


def logo_url(brand: Brand) -> str | None:
    """Logos are served from the assets bucket under /assets/ (CloudFront; the local server)."""
    return url_of(brand.logo_key)


def _sorted(values: Iterable[str] | None) -> list[str]:
    return sorted(values or ())


def audience_json(brand: Brand) -> dict[str, list[str]]:
    audience = brand.audience
    return {
        "ageBands": _sorted(audience.age_bands if audience else None),
        "genders": _sorted(audience.genders if audience else None),
        "countries": _sorted(audience.countries if audience else None),
    }


def social_json(brand: Brand) -> dict[str, str | None]:
    return {n: (getattr(brand.social, n, None) if brand.social else None) for n in SOCIAL_NETWORKS}


def contact_json(brand: Brand) -> dict[str, str | None]:
    return {f: (getattr(brand.contact, f, None) if brand.contact else None) for f in CONTACT_FIELDS}


def profile_json(brand: Brand) -> dict[str, Any]:
    """The BrandProfile of docs/api.md: every field, for the brand's own account."""
    return {
        "id": int(brand.brand_id),
        "name": brand.name,
        "logoUrl": logo_url(brand),
        "website": brand.website or None,
        "description": brand.description or "",
        "category": brand.category or "",
        "companySize": brand.company_size or "",
        "audienceSize": brand.audience_size or "",
        "niche": brand.niche or "",
        "priceTier": brand.price_tier or "",
        "audience": audience_json(brand),
        "values": _sorted(brand.values),
        "collabKinds": _sorted(brand.collab_kinds),
        "social": social_json(brand),
        "contact": contact_json(brand),
        "hideName": bool(brand.hide_name),
    }


def name_notice(brand: Brand) -> str | None:
    """What the owner is told on saving a description that names the brand while its name is
    hidden (brand_profile.name_notice)."""
    return brand_profile.name_notice(brand, (brand.description or "",), brand_profile.NAMES_BRAND)


def _comparable(brand: Brand, attr: str) -> Any:
    """A model value in the shape `clean_profile` returns, to tell what a save changes."""
    if attr in ("values", "collab_kinds"):
        return _sorted(getattr(brand, attr))
    if attr == "audience":
        a = audience_json(brand)
        return {"age_bands": a["ageBands"], "genders": a["genders"], "countries": a["countries"]}
    if attr == "social":
        return social_json(brand)
    if attr == "contact":
        return contact_json(brand)
    if attr == "hide_name":
        return bool(brand.hide_name)
    if attr == "website":
        return brand.website or None
    return getattr(brand, attr) or ""


def _set_action(attr: str, value: Any) -> Any:
    column = getattr(Brand, attr)
    if attr in ("values", "collab_kinds"):
        return column.set(set(value)) if value else column.remove()
    if attr in ("website", "logo_key"):
        return column.set(value) if value else column.remove()
    if attr == "audience":
        return column.set(Audience(**{k: set(v) or None for k, v in value.items()}))
    if attr == "social":
        links = {k: v for k, v in value.items() if v}
        return column.set(SocialLinks(**links)) if links else column.remove()
    if attr == "contact":
        details = {k: v for k, v in value.items() if v}
        return column.set(Contact(**details)) if details else column.remove()
    return column.set(value)


def _start_run(brand_id: int, *, created: bool, changed: set[str]) -> str | None:
    """Start a match run when the profile change matters; a failure to start never loses the save
    (the run is recorded as failed and the member can run matching again)."""
    try:
        run = match_runs.profile_changed(brand_id, created=created, changed=changed)
    except Exception:
        logger.exception("Could not start a match run for brand %s", brand_id)
        return None
    return run.run_id if run else None


def create_profile(account_id: str, body: dict[str, Any]) -> tuple[Brand, str | None]:
    """POST brands: a new brand of `account_id`, validated as a whole; nothing saved on error."""
    clean = brand_profile.clean_profile(body, creating=True)
    if "logoKey" in body and body["logoKey"] is not None:
        raise brand_profile.ProfileInvalid({"logoKey": "Add a logo after the brand is created"})
    if unstorable := _unstorable(clean):
        raise brand_profile.ProfileInvalid(unstorable)
    audience = clean.get("audience", {})
    brand = create_brand(
        account_id=account_id,
        name=clean["name"],
        category=clean.get("category", ""),
        description=clean.get("description", ""),
        website=clean.get("website"),
        company_size=clean.get("company_size", ""),
        audience_size=clean.get("audience_size", ""),
        niche=clean.get("niche", ""),
        price_tier=clean.get("price_tier", ""),
        values=clean.get("values", ()),
        collab_kinds=clean.get("collab_kinds", ()),
        countries=audience.get("countries", ()),
        age_bands=audience.get("age_bands", ()),
        genders=audience.get("genders", ()),
        social={k: v for k, v in clean.get("social", {}).items() if v} or None,
        contact={k: v for k, v in clean.get("contact", {}).items() if v} or None,
        hide_name=clean.get("hide_name", False),
    )
    return brand, _start_run(int(brand.brand_id), created=True, changed=set(clean))


UNSTORABLE = "Contains a character that can't be saved"


def _unstorable(clean: dict[str, Any]) -> dict[str, str]:
    """Text the table cannot hold (a lone surrogate is not UTF-8), found before anything is
    written: a store that refused it half-way could leave part of a save behind."""

    def bad(value: Any) -> bool:
        if not isinstance(value, str):
            return False
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    errors = {}
    for attr, value in clean.items():  # text lives in top-level fields and in social / contact
        if bad(value):
            errors[attr] = UNSTORABLE
        elif isinstance(value, dict):
            errors.update({f"{attr}.{k}": UNSTORABLE for k, v in value.items() if bad(v)})
    return errors


def _checked_logo_key(brand_id: int, key: Any) -> tuple[str | None, str | None]:
    """(key, None) for an uploaded logo of this brand, (None, None) to remove the logo,
    (None, message) when the key is not an upload of this brand's or the file is not acceptable."""
    if key is None or key == "":
        return None, None
    if not brand_profile.logo_key_belongs(brand_id, key):
        return None, brand_profile.LOGO_KEY_MESSAGE
    try:
        head = client("s3").head_object(Bucket=settings().assets_bucket, Key=key)
    except Exception as exc:  # botocore ClientError: 404 / 403 for a key that was never uploaded
        code = str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))
        if code in ("404", "403", "NoSuchKey", "NotFound"):
            return None, brand_profile.LOGO_KEY_MESSAGE
        raise
    if int(head.get("ContentLength", 0)) > brand_profile.LOGO_MAX_BYTES:
        return None, brand_profile.LOGO_SIZE_MESSAGE
    content_type = str(head.get("ContentType", "")).split(";")[0].strip().lower()
    if content_type not in brand_profile.LOGO_TYPES:
        return None, brand_profile.LOGO_TYPE_MESSAGE
    return key, None


def update_profile(brand: Brand, body: dict[str, Any]) -> tuple[Brand, str | None]:
    """PUT brands/{brandId}: any BrandProfile fields (and `logoKey`); all checked before anything
    is written. Starts a match run when a field that matters for matching changed."""

    brand_id = int(brand.brand_id)
    errors: dict[str, str] = {}
    try:
        clean = brand_profile.clean_profile(
            body, creating=False, category=brand.category or "", niche=brand.niche or ""
        )
    except brand_profile.ProfileInvalid as exc:
        clean, errors = {}, dict(exc.errors)
    if "logoKey" in body:
        key, message = _checked_logo_key(brand_id, body["logoKey"])
        if message:
            errors["logoKey"] = message
        else:
            clean["logo_key"] = key
    errors.update(_unstorable(clean))
    if errors:
        message = errors["logoKey"] if list(errors) == ["logoKey"] else brand_profile.CHECK_FIELDS
        raise brand_profile.ProfileInvalid(errors, message)

    changed = {attr for attr, value in clean.items() if value != _comparable(brand, attr)}
    if "logo_key" in clean:
        changed.discard("logo_key")
        if clean["logo_key"] != (brand.logo_key or None):
            changed.add("logo_key")
    if not changed:
        return brand, None
    old_logo = brand.logo_key
    actions = [_set_action(attr, clean[attr]) for attr in sorted(changed)]
    actions.append(Brand.updated_at.set(datetime.now(UTC)))
    brand.update(actions=actions, condition=Brand.pk.exists())
    if "logo_key" in changed and old_logo:
        _delete_logo(old_logo)
    run_id = _start_run(brand_id, created=False, changed=changed)
    return brand, run_id


def _delete_logo(key: str) -> None:
    try:
        client("s3").delete_object(Bucket=settings().assets_bucket, Key=key)
    except Exception:  # a stale object costs pennies; never fail the save for it
        logger.warning("Could not delete the replaced logo %s", key)


LOGO_UPLOAD_SECONDS = 600


def _presigner() -> Any:
    """S3 client for presigned POSTs: the bucket's regional address in AWS (the global one
    answers a new bucket outside us-east-1 with a redirect a browser's POST does not follow)."""
    current = settings()
    return client("s3") if current.endpoint_url else _regional_s3(current.region)


@cache
def _regional_s3(region: str) -> Any:
    return boto3.client(
        "s3",
        region_name=region,
        endpoint_url=f"https://s3.{region}.amazonaws.com",
        config=Config(s3={"addressing_style": "virtual"}, signature_version="s3v4"),
    )


def logo_upload(brand: Brand, body: dict[str, Any]) -> dict[str, Any]:
    """POST brands/{brandId}/logo: a presigned S3 POST for one logo file. S3 itself enforces
    the type (Content-Type fixed) and the size (content-length-range) of what is posted."""

    content_type, _size = brand_profile.check_logo_upload(body)
    extension = brand_profile.LOGO_TYPES[content_type]
    key = f"{brand_profile.LOGO_PREFIX}/{int(brand.brand_id)}/{uuid.uuid4().hex}.{extension}"
    post = _presigner().generate_presigned_post(
        Bucket=settings().assets_bucket,
        Key=key,
        Fields={"Content-Type": content_type},
        Conditions=[
            {"Content-Type": content_type},
            ["content-length-range", 1, brand_profile.LOGO_MAX_BYTES],
        ],
        ExpiresIn=LOGO_UPLOAD_SECONDS,
    )
    return {
        "url": settings().assets_upload_url or post["url"],
        "fields": post["fields"],
        "key": key,
        "maxBytes": brand_profile.LOGO_MAX_BYTES,
    }


# ---------------------------------------------------------------- the account's own brands


def account_brands(viewer: Viewer) -> dict[str, Any]:
    """GET brands: the account's brands' profiles (reads: USER_BRANDS)."""
    return {"brands": [profile_json(b) for b in viewer.brands]}


def own_profile(viewer: Viewer, brand_id: int) -> dict[str, Any]:
    """GET brands/{id}: one of the account's brands (403 for another account's)."""
    return {"brand": profile_json(viewer.own_brand(brand_id))}


def _saved(brand: Brand, run_id: str | None) -> dict[str, Any]:
    return {"brand": profile_json(brand), "runId": run_id, "notice": name_notice(brand)}


def create(viewer: Viewer, body: dict[str, Any]) -> dict[str, Any]:
    """POST brands: a new brand of the caller's account -> {brand, runId, notice}."""
    return _saved(*create_profile(viewer.account_id, body))


def update(viewer: Viewer, brand_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """PUT brands/{id}: one of the account's brands changed -> {brand, runId, notice}."""
    return _saved(*update_profile(viewer.own_brand(brand_id), body))


def upload_logo(viewer: Viewer, brand_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """POST brands/{id}/logo: an upload URL for one of the account's brands."""
    return logo_upload(viewer.own_brand(brand_id), body)
