"""Who is asking: the `Viewer`, made once at the API's door (issue 38).

A use case declares what it reads with its caller (`Reads`); the door (functions/api/chalicelib/
door.py) checks the token, reads the caller's user and brand with those items in ONE
BatchGetItem (and the account's brands or credit buckets at the same time, when declared), and
hands the use case a frozen Viewer: the user, the brand, the account, what the account may do
(`rights`, decided by tandem.services.entitlements), whether other brands' names are shown, the
brands hidden from this one, and the declared items, typed. No use case re-reads the caller
and no route passes a right as a flag.

The named declarations below are the use cases' own (each service's docstring names its).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, TypeVar

from tandem.domain import credits as credit_rules
from tandem.domain import entitlements as rules
from tandem.domain.ids import parse_id
from tandem.errors import Forbidden
from tandem.services import entitlements
from tandem.store.models import Account, Brand, BrandRelation, BrandSeen, Key, TandemModel, User
from tandem.store.pitch import FeatureSlot

M = TypeVar("M", bound=TandemModel)
Wanted = list[tuple[type[TandemModel], Key]]
# More items a use case reads with its caller: f(brand id, the path's parameters) -> keys.
More = Callable[[int, Mapping[str, str]], Wanted]


@dataclass(frozen=True)
class Reads:
    """What a use case reads with its caller (the door's one BatchGetItem, plus at most the
    account's brands and its credit buckets at the same time)."""

    account: bool = True  # the Account item: plan, names shown, billing's record
    seen: bool = False  # BrandSeen: what is new to the brand (menu counts, isNew)
    hidden: bool = False  # the brand's blocks and the suspended brands (tandem.services.visibility)
    feature_slot: bool = False  # the brand's Pitch Area feature (credits info's featureDone)
    brands: bool = False  # the account's brands (a Query, in parallel)
    buckets: bool = False  # the account's credit buckets (a Query, in parallel)
    more: More | None = None
    brand: bool = True  # a brand is needed (403 "Your account has no brand yet" without one)
    # The caller is checked with the screen's own second read (a list whose first read is its
    # brand's partition): the door checks the token, names the brand (the account's first one
    # when none is named) and hands the use case a `Pending`, which becomes the Viewer there.
    late: bool = False
    # The admin console: the door refuses anyone whose Viewer is not an admin (403), and reads
    # the token's own user (an admin acting as a member still uses the console as themselves).
    admin: bool = False

    def keys(self, brand_id: int | None, account_id: str, params: Mapping[str, str]) -> Wanted:
        wanted: Wanted = [(Account, Account.key(account_id))] if self.account else []
        if brand_id is None:
            return wanted
        if self.seen:
            wanted.append((BrandSeen, BrandSeen.key(brand_id)))
        if self.feature_slot:
            wanted.append((FeatureSlot, FeatureSlot.key(brand_id)))
        if self.hidden:
            wanted += _visibility().keys(brand_id)
        if self.more is not None:
            wanted += self.more(brand_id, params)
        return wanted


def _visibility() -> ModuleType:
    """tandem.services.visibility, loaded by the first screen that declares `hidden`: the
    dashboard (a cold start's first request) declares none and does not load it (nor the
    brand safety models, nor the request models those load)."""
    from tandem.services import visibility

    return visibility


# The use cases' declarations, by name.
CALLER = Reads(account=False, brand=False)  # the signed-in user alone (profile, settings)
ADMIN = Reads(account=False, brand=False, admin=True)  # the admin console: the admin's user alone
USER_BRANDS = Reads(account=False, brand=False, brands=True)  # the user and the account's brands
ACTING = Reads(account=False)  # the user and the brand it acts as
ACCOUNT = Reads()  # the user, the brand and the account (billing, creating a feature)
SEES = Reads(hidden=True)  # a brand's page, save / dismiss, a pitch, one feature, the Pitch Area
LISTS = Reads(seen=True, hidden=True)  # requests and declines: names, what is new, who is hidden
PITCH_MINE = Reads(feature_slot=True, hidden=True)  # the brand's own features and featureDone
CREDITS = Reads(hidden=True, feature_slot=True)  # a call that changes credits answers its credits info
DASHBOARD = Reads(seen=True, feature_slot=True, brands=True, buckets=True, brand=False)
DASHBOARD_OF_BRAND = Reads(seen=True, feature_slot=True, brands=True, buckets=True)


def _relation_with_other(brand_id: int, params: Mapping[str, str]) -> Wanted:
    """The brand's relation to the path's other brand (a connection's share)."""
    other = parse_id(params.get("otherBrandId"))
    return [(BrandRelation, BrandRelation.key(brand_id, other))] if other is not None else []


SHARE = Reads(account=False, hidden=True, more=_relation_with_other)
COLLAB_LIST = Reads(account=False, hidden=True)  # the brand's collaborations, proposing one
LIST_OF_BRAND = Reads(account=False, late=True)  # Matches, search, connections, member collabs


@dataclass(frozen=True)
class Viewer:
    """The caller of one request, checked: frozen, so no use case rewrites who is asking."""

    user: User
    brand: Brand | None
    account: Account | None
    names_shown: bool  # other brands' names are shown to this member (entitlements)
    hidden: frozenset[int]  # brands this one must not see (blocked either way, suspended)
    seen: BrandSeen | None = None
    feature_slot: FeatureSlot | None = None
    feature_read: bool = False  # the feature slot was declared (None then means: no feature)
    brands: tuple[Brand, ...] = ()
    buckets: tuple[credit_rules.Bucket, ...] | None = None
    impersonated_by: str | None = None  # the admin acting as this user
    found: Mapping[Key, TandemModel] = field(default_factory=dict)

    @property
    def brand_id(self) -> int:
        if self.brand is None:
            raise ValueError("this viewer acts as no brand")
        return int(self.brand.brand_id)

    @property
    def account_id(self) -> str:
        return self.user.account_id

    @property
    def is_admin(self) -> bool:
        return entitlements.is_admin(self.user)

    @property
    def feature_only(self) -> bool:
        return entitlements.feature_only(self.user, self.account)

    def rights(
        self, buckets: Sequence[credit_rules.Bucket] | None = None, now: int | None = None
    ) -> rules.Rights:
        """What this member may do now (tandem.services.entitlements): with the buckets read at
        the door unless fresher ones are given (a send reads them in its own retry loop)."""
        held = buckets if buckets is not None else (self.buckets or ())
        return entitlements.rights(self.account, held, now, user=self.user, feature=self.feature_done(now))

    def credits(
        self, buckets: Sequence[credit_rules.Bucket] | None = None, now: int | None = None
    ) -> dict[str, Any]:
        """This member's Credits info (tandem.services.entitlements.credits_info), with the
        buckets read at the door unless fresher ones are given (a send's, after its charge)."""
        held = buckets if buckets is not None else (self.buckets or ())
        return entitlements.credits_info(
            self.account, held, now, user=self.user, feature=self.feature_done(now)
        )

    def feature_done(self, now: int | None = None) -> dict | None:
        """Credits info's featureDone, when the brand's Pitch Area feature was declared."""
        if not self.feature_read:
            return None
        return entitlements.feature_done(self.feature_slot, self.account, now)

    def own_brand(self, brand_id: int) -> Brand:
        """A brand of the caller's account named in the path, whichever brand is selected
        (the account's brands declared: `Reads.brands`); another account's brand is a 403."""
        for brand in self.brands:
            if int(brand.brand_id) == brand_id:
                return brand
        raise Forbidden("You don't have access to this brand")

    def item(self, model: type[M], *key: object) -> M | None:
        """A declared item (`Reads.more`), typed by its model; None when it does not exist."""
        found = self.found.get(model.key(*key))
        return found if isinstance(found, model) else None


@dataclass(frozen=True)
class Pending:
    """A caller the door let in on its token, for a screen that checks it with its own second
    read (`Reads.late`): the screen reads `keys` in that read's BatchGetItem and gets its Viewer
    from `viewer(found, brand, ...)`, which raises 401 / 403 before anything is shown or written.
    A use case given a Pending reads nothing of the caller's elsewhere."""

    brand_id: int
    keys: tuple[tuple[type[TandemModel], Key], ...]
    check: Callable[[Mapping[Key, TandemModel], Brand | None], tuple[User, str | None]]

    def viewer(
        self,
        found: Mapping[Key, TandemModel],
        brand: Brand | None,
        account: Account | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> Viewer:
        """The Viewer, once the caller's items in `found` are checked against `brand`."""
        user, admin_id = self.check(found, brand)
        if brand is None:  # checked above: a brand that does not exist is the caller's 403
            raise Forbidden("You don't have access to this brand")
        return replace(acting_as(brand, account, user, hidden), impersonated_by=admin_id)


def make(
    user: User,
    brand: Brand | None,
    found: Mapping[Key, TandemModel],
    reads: Reads,
    *,
    brands: Sequence[Brand] = (),
    buckets: Sequence[credit_rules.Bucket] | None = None,
    impersonated_by: str | None = None,
) -> Viewer:
    """The Viewer from what the door read (the caller already checked against `brand`)."""
    account = found.get(Account.key(user.account_id)) if reads.account else None
    account = account if isinstance(account, Account) else None
    brand_id = int(brand.brand_id) if brand is not None else None
    seen = found.get(BrandSeen.key(brand_id)) if brand_id is not None and reads.seen else None
    slot = found.get(FeatureSlot.key(brand_id)) if brand_id is not None and reads.feature_slot else None
    return Viewer(
        user=user,
        brand=brand,
        account=account,
        names_shown=entitlements.sees_brand_names(account, user),
        hidden=_visibility().hidden_from(brand_id, dict(found)) if reads.hidden and brand_id else frozenset(),
        seen=(seen if isinstance(seen, BrandSeen) else BrandSeen.at(brand_id))
        if reads.seen and brand_id
        else None,
        feature_slot=slot if isinstance(slot, FeatureSlot) else None,
        feature_read=reads.feature_slot and brand_id is not None,
        brands=tuple(brands),  # Brand.of_account's order: the default brand first
        buckets=tuple(buckets) if buckets is not None else None,
        impersonated_by=impersonated_by,
        found=dict(found),
    )


def acting_as(
    brand: Brand, account: Account | None, user: User | None, hidden: frozenset[int] = frozenset()
) -> Viewer:
    """A Viewer from items read already (a screen that checks its caller in its own second read:
    Matches, search). `user` None: the account acting through no one user (a job, the seed)."""
    acting = user if user is not None else User(account_id=brand.account_id, access="member")
    return Viewer(
        user=acting,
        brand=brand,
        account=account,
        names_shown=entitlements.sees_brand_names(account, acting),
        hidden=hidden,
    )


def of_brand(brand: Brand, user: User | None = None) -> Viewer:
    """A Viewer for a job that acts as a brand without a request (the demo seed, a bench): the
    brand's account and who is hidden from it read here."""
    hidden = _visibility().hidden_from(int(brand.brand_id))
    return acting_as(brand, Account.find(brand.account_id), user, hidden)
