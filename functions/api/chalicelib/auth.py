"""Who is calling, and may they act for the brand they name?

Every private route checks the caller: the Bearer token must be a valid access token, the
user it names must exist, and the brand named in the `X-Brand-Id` header (and in the path,
where the route has one) must belong to the user's account. The header is never trusted on its
own. Admins may act as another user with `X-Impersonate-User` (a user id or email), only where
the stage allows it.

The checks read nothing on their own: the caller's user and the selected brand are read with
what the screen reads anyway (`member_for_brand(..., also=...)`: one BatchGetItem), or, for a
screen whose first read is the brand's partition, with its second read (`pending_for` gives the
screen a tandem.services.viewer.Pending it turns into its Viewer there). Nothing is shown or written before
the check passed. The same check refuses a route whose area (`route(..., area=...)`) the user's
account type does not include (tandem.domain.account_types: feature-only accounts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from chalice.app import Request

from chalicelib.http import brand_id_param, current_area
from tandem.config import settings
from tandem.domain import account_types
from tandem.domain import entitlements as rules
from tandem.errors import Forbidden, SessionEnded, Unauthorized
from tandem.observability import logger
from tandem.services import accounts, credits, entitlements, tokens
from tandem.services import viewer as viewers
from tandem.services.viewer import M, Pending, Reads, Viewer
from tandem.store.items import get_many
from tandem.store.models import Brand, Key, TandemModel, User

BRAND_HEADER = "x-brand-id"
IMPERSONATE_HEADER = "x-impersonate-user"
SIGN_IN = "Please sign in to continue"
NO_ACCESS = "You don't have access to this brand"
NO_BRAND = "Your account has no brand yet"

# Extra items a route reads with the caller's: f(brand id, account id) -> [(Model, key)].
Also = Callable[[int | None, str], list[tuple[type[TandemModel], Key]]]
# Reads a route makes at the same time as the caller's (by the token's account id): name -> f.
Alongside = dict[str, Callable[[str], Any]]
_pool: ThreadPoolExecutor | None = None


def _in_parallel(reads: Alongside, account_id: str) -> dict[str, Future]:
    """Start `reads` on a small shared pool (each is one DynamoDB call: the member waits for the
    slowest, not for their sum). Their results are used only once the caller is verified."""
    global _pool
    if not reads:
        return {}
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="reads")
    return {name: _pool.submit(read, account_id) for name, read in reads.items()}


@dataclass
class Member:
    user: User
    brand: Brand | None
    found: dict[Key, Any] = field(default_factory=dict)  # the route's extra items, by key
    impersonated_by: str | None = None
    owned: list[Brand] | None = None
    alongside: dict[str, Any] = field(default_factory=dict)  # the route's parallel reads, by name

    @property
    def brands(self) -> list[Brand]:
        """The account's brands, the default first (one Query, the first time it is asked for)."""
        if self.owned is None:
            self.owned = Brand.of_account(self.user.account_id)
        return self.owned

    def item(self, model: type[M], *args: Any) -> M | None:
        return self.found.get(model.key(*args))


def _headers(request: Request) -> dict[str, str]:
    return {k.lower(): v for k, v in (request.headers or {}).items()}


def _bearer(headers: dict[str, str]) -> str:
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized(SIGN_IN)
    return token.strip()


@dataclass
class Caller:
    """A verified access token and the brand it asks to act as; the user is not read yet.
    The door's `pending_for` hands its keys and its check to a screen as a Pending."""

    user_id: str
    account_id: str
    brand_id: int | None
    acting: User | None = None  # the user an admin acts as (read already)
    admin_id: str | None = None
    owned: list[Brand] | None = None  # the account's brands, when the default brand was looked up
    version: int = 0  # the token's user token_version: a reset or password change moves it on

    def keys(self) -> list[tuple[type[TandemModel], Key]]:
        return [] if self.acting is not None else [(User, User.key(self.user_id))]

    def user(self, found: dict[Key, Any]) -> User:
        if self.acting is not None:
            user = self.acting  # checked with its admin's own token in signed_in_user
        else:
            user = found.get(User.key(self.user_id))
            if user is None or user.account_id != self.account_id:
                raise Unauthorized(SIGN_IN)
            accounts.check_token_version(user, self.version)  # a token from before a password reset
        # The one check of account types: the route's area must be part of the user's type.
        account_types.check(user.access, current_area.get())
        return user

    def verify(self, found: dict[Key, Any], brand: Brand | None) -> Member:
        user = self.user(found)
        if brand is None or brand.account_id != user.account_id:
            raise Forbidden(NO_ACCESS)
        logger.thread_safe_append_keys(user=user.user_id, brand=int(brand.brand_id))
        return Member(user=user, brand=brand, found=found, impersonated_by=self.admin_id, owned=self.owned)


def signed_in_user(request: Request) -> tuple[User, str | None]:
    """The caller (or the user an admin acts as) and, when impersonating, the admin's id."""
    headers = _headers(request)
    claims = tokens.verify_access_token(_bearer(headers))
    user = accounts.user_for_token(claims.user_id, claims.version)
    target = headers.get(IMPERSONATE_HEADER, "").strip()
    if not target:
        return user, None
    if not entitlements.is_admin(user) or not settings().allows_impersonation:
        raise SessionEnded("You can't act as another user")
    other = accounts.find_user_by_email(target) if "@" in target else accounts.get_user(target)
    if other is None:
        raise SessionEnded("No user to act as")
    return other, user.user_id


def caller(
    request: Request,
    path_brand: str | None = None,
    default_brand: bool = False,
    as_self: bool = False,
) -> Caller:
    """The token checked and the brand chosen, without reading the user. With `default_brand`,
    no brand named means the account's first brand (one Query; 403 when it has none). With
    `as_self`, the token's own user and no brand (the admin console, even while acting as
    another user)."""
    headers = _headers(request)
    claims = tokens.verify_access_token(_bearer(headers))
    found = Caller(
        user_id=claims.user_id, account_id=claims.account_id, brand_id=None, version=claims.version
    )
    if as_self:
        logger.thread_safe_append_keys(user=found.user_id)
        return found
    if headers.get(IMPERSONATE_HEADER, "").strip():
        acting, admin_id = signed_in_user(request)
        found = Caller(acting.user_id, acting.account_id, None, acting=acting, admin_id=admin_id)
    logger.thread_safe_append_keys(user=found.user_id)
    header = headers.get(BRAND_HEADER, "default").strip()
    if header and header != "default":
        found.brand_id = brand_id_param(header)
    if path_brand is not None:
        from_path = brand_id_param(path_brand)
        if found.brand_id is not None and found.brand_id != from_path:
            raise Forbidden("The brand in the address does not match the selected brand")
        found.brand_id = from_path
    if found.brand_id is None and default_brand:
        found.owned = Brand.of_account(found.account_id)
        if not found.owned:
            raise Forbidden(NO_BRAND)
        found.brand_id = int(found.owned[0].brand_id)
    return found


def member_for_brand(
    request: Request,
    path_brand: str | None = None,
    need_brand: bool = True,
    also: Also | None = None,
    alongside: Alongside | None = None,
) -> Member:
    """The signed-in member and the brand they act as, checked, with the route's extra items
    (`also(brand id, account id)`) read in the same BatchGetItem, and its `alongside` reads
    (`f(account id)`) made at the same time (`member.alongside[name]`)."""
    who = caller(request, path_brand)
    reads = dict(alongside or {})
    if who.brand_id is None:  # no brand named: the account's first one, if any
        reads.pop("brands", None)
        who.owned = Brand.of_account(who.account_id)
        if who.owned:
            who.brand_id = int(who.owned[0].brand_id)
        elif need_brand:
            raise Forbidden(NO_BRAND)
    started = _in_parallel(reads, who.account_id)
    wanted = who.keys() + (also(who.brand_id, who.account_id) if also else [])
    if who.brand_id is not None and who.owned is None:
        wanted.append((Brand, Brand.key(who.brand_id)))
    found = get_many(wanted, consistent=True) if wanted else {}
    if who.brand_id is None:
        user = who.user(found)
        member = Member(user=user, brand=None, found=found, impersonated_by=who.admin_id, owned=[])
    else:
        brand = next((b for b in who.owned or () if int(b.brand_id) == who.brand_id), None)
        member = who.verify(found, brand or found.get(Brand.key(who.brand_id)))
    member.alongside = {name: future.result() for name, future in started.items()}
    if "brands" in member.alongside and member.owned is None:
        member.owned = member.alongside["brands"]
    return member


def viewer_for(
    request: Request, reads: Reads, params: dict[str, str], path_brand: str | None = None
) -> Viewer:
    """The door: the caller checked and the use case's declared `reads` made with it (one
    BatchGetItem; the account's brands and buckets at the same time when declared), as a Viewer.
    An admin route's Viewer must be an admin's (the right is the entitlements owner's)."""
    if reads.admin:
        who = caller(request, as_self=True)
        viewer = viewers.make(accounts.user_for_token(who.user_id, who.version), None, {}, reads)
        if not viewer.is_admin:
            raise Forbidden(rules.ADMINS_ONLY)
        return viewer
    alongside: Alongside = {}
    if reads.brands:
        alongside["brands"] = Brand.of_account
    if reads.buckets:
        alongside["buckets"] = credits.buckets

    def also(brand_id: int | None, account_id: str) -> list[tuple[type[TandemModel], Key]]:
        return reads.keys(brand_id, account_id, params)

    member = member_for_brand(request, path_brand, need_brand=reads.brand, also=also, alongside=alongside)
    return viewers.make(
        member.user,
        member.brand,
        member.found,
        reads,
        brands=(member.owned or []) if reads.brands else (),
        buckets=member.alongside.get("buckets"),
        impersonated_by=member.impersonated_by,
    )


def pending_for(request: Request, path_brand: str | None = None) -> Pending:
    """The door for a screen that checks its caller with its own second read (`Reads.late`):
    the token checked and the brand chosen (the account's first one when none is named), the
    user read and checked by the screen through the Pending."""
    who = caller(request, path_brand, default_brand=True)

    def check(found: Mapping[Key, TandemModel], brand: Brand | None) -> tuple[User, str | None]:
        member = who.verify(dict(found), brand)
        return member.user, member.impersonated_by

    return Pending(brand_id=int(who.brand_id or 0), keys=tuple(who.keys()), check=check)
