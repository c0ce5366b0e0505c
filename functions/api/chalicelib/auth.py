"""Who is calling, and may they act for the brand they name?

Every private route calls `member_for_brand`: the Bearer token must be a valid access token,
and the brand named in the `X-Brand-Id` header (and in the path, where the route has one) must
belong to the caller's account. The header is never trusted on its own. Admins may act as
another user with `X-Impersonate-User` (a user id or email), only where the stage allows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.http import brand_id_param
from tandem.config import settings
from tandem.errors import Forbidden, Unauthorized
from tandem.services import accounts, brands, tokens
from tandem.store.models import Brand, User

BRAND_HEADER = "x-brand-id"
IMPERSONATE_HEADER = "x-impersonate-user"


@dataclass(frozen=True)
class Member:
    user: User
    brand: Brand
    brands: list[Brand]
    impersonated_by: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.user.access == "admin"


def _headers(request) -> dict[str, str]:  # noqa: ANN001
    return {k.lower(): v for k, v in (request.headers or {}).items()}


def _bearer(headers: dict[str, str]) -> str:
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Please sign in to continue")
    return token.strip()


def signed_in_user(request) -> tuple[User, str | None]:  # noqa: ANN001
    """The caller (or the user an admin acts as) and, when impersonating, the admin's id."""
    headers = _headers(request)
    claims = tokens.verify_access_token(_bearer(headers))
    user = accounts.user_for_token(claims.user_id, claims.version)
    target = headers.get(IMPERSONATE_HEADER, "").strip()
    if not target:
        return user, None
    if user.access != "admin" or not settings().allows_impersonation:
        raise Forbidden("You can't act as another user")
    other = accounts.find_user_by_email(target) if "@" in target else accounts.get_user(target)
    if other is None:
        raise Forbidden("No user to act as")
    return other, user.user_id


def member_for_brand(request, path_brand: str | None = None, need_brand: bool = True) -> Member:  # noqa: ANN001
    user, admin_id = signed_in_user(request)
    owned = sorted(brands.brands_of_account(user.account_id), key=lambda b: int(b.brand_id))
    wanted: int | None = None
    header = _headers(request).get(BRAND_HEADER, "default").strip()
    if header and header != "default":
        wanted = brand_id_param(header)
    if path_brand is not None:
        from_path = brand_id_param(path_brand)
        if wanted is not None and wanted != from_path:
            raise Forbidden("The brand in the address does not match the selected brand")
        wanted = from_path
    by_id = {int(b.brand_id): b for b in owned}
    if wanted is not None and wanted not in by_id:
        raise Forbidden("You don't have access to this brand")
    if not owned:
        if need_brand:
            raise Forbidden("Your account has no brand yet")
        return Member(user=user, brand=None, brands=[], impersonated_by=admin_id)  # type: ignore[arg-type]
    brand = by_id[wanted] if wanted is not None else owned[0]
    return Member(user=user, brand=brand, brands=owned, impersonated_by=admin_id)


def admin_only(request) -> User:  # noqa: ANN001
    headers = _headers(request)
    claims = tokens.verify_access_token(_bearer(headers))
    user = accounts.user_for_token(claims.user_id, claims.version)
    if user.access != "admin":
        raise Forbidden("Only Tandem admins can do that")
    return user
