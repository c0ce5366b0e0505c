"""Who is calling, and may they act for the brand they name?

Every private route calls `member_for_brand`: the Bearer token must be a valid access token,
and the brand named in the `X-Brand-Id` header (and in the path, where the route has one) must
belong to the caller's account. The header is never trusted on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.http import brand_id_param
from tandem.errors import Forbidden, Unauthorized
from tandem.services import brands, tokens
from tandem.store.models import Brand

BRAND_HEADER = "x-brand-id"


@dataclass(frozen=True)
class Member:
    claims: tokens.AccessClaims
    brand: Brand
    brands: list[Brand]


def _bearer(headers: dict[str, str]) -> str:
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Please sign in to continue")
    return token.strip()


def member_for_brand(request, path_brand: str | None = None) -> Member:  # noqa: ANN001
    headers = {k.lower(): v for k, v in (request.headers or {}).items()}
    claims = tokens.verify_access_token(_bearer(headers))
    owned = brands.brands_of_account(claims.account_id)
    if not owned:
        raise Forbidden("Your account has no brand yet")
    wanted: int | None = None
    header = headers.get(BRAND_HEADER, "default").strip()
    if header and header != "default":
        wanted = brand_id_param(header)
    if path_brand is not None:
        from_path = brand_id_param(path_brand)
        if wanted is not None and wanted != from_path:
            raise Forbidden("The brand in the address does not match the selected brand")
        wanted = from_path
    by_id = {int(b.brand_id): b for b in owned}
    if wanted is None:
        brand = min(owned, key=lambda b: int(b.brand_id))
    elif wanted in by_id:
        brand = by_id[wanted]
    else:
        raise Forbidden("You don't have access to this brand")
    return Member(claims=claims, brand=brand, brands=sorted(owned, key=lambda b: int(b.brand_id)))
