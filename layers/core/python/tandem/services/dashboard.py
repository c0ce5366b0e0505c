"""The dashboard response of SPEC section 3, with the fields that exist so far.

Three DynamoDB calls with the caller's check: one BatchGetItem of the user, the account, the
selected brand and what is new to it (BrandSeen: the menu counts and the open match run), the
account's brands (userBrands) and its credit buckets.
"""

from __future__ import annotations

from typing import Any

from tandem.services import content, credits, entitlements
from tandem.store import news
from tandem.store.models import Account, Brand, BrandSeen, Key, TandemModel, User
from tandem.store.pitch import FeatureSlot


def with_caller(brand_id: int | None, account_id: str) -> list[tuple[type[TandemModel], Key]]:
    """What the dashboard reads with the caller (one BatchGetItem): the account, what is new to
    the brand and its Pitch Area feature (credits.featureDone)."""
    wanted: list[tuple[type[TandemModel], Key]] = [(Account, Account.key(account_id))]
    if brand_id is not None:
        wanted.append((BrandSeen, BrandSeen.key(brand_id)))
        wanted.append((FeatureSlot, FeatureSlot.key(brand_id)))
    return wanted


# Read at the same time as the caller's items: the account's brands (userBrands) and its
# credit buckets. The dashboard waits for one round trip instead of three.
ALONGSIDE = {"brands": Brand.of_account, "buckets": credits.buckets}


def build(
    brand: Brand | None,
    user_brands: list[Brand],
    account: Account | None = None,
    seen: BrandSeen | None = None,
    buckets: list | None = None,
    feature_slot: Any = None,
    user: User | None = None,
) -> dict[str, Any]:
    """`account`, `seen`, `buckets`, `feature_slot`: what the caller read already (else read
    here; the feature slot only when given, as the dashboard route reads it)."""
    if brand is None:  # e.g. a Tandem admin: no brand of their own
        return {
            "menuCounts": dict.fromkeys(("dashboard", "matches", "requests", "connections", "declines"), 0),
            "dashboard": {"brandId": None, "brandName": None},
            "userBrands": [],
            "whatsNew": [],
            "matchRunOutstanding": False,
            "matchRunId": None,
            "credits": entitlements.credits_info(None, [], user=user),
            **_brand_names(None, None, user),
        }
    brand_id = int(brand.brand_id)
    if account is None:
        account = Account.find(brand.account_id)
    if seen is None:
        seen = news.read(brand_id)
    open_run = news.open_run_of(seen)
    credits_info = entitlements.credits_info(
        account,
        buckets if buckets is not None else credits.buckets(brand.account_id),
        user=user,
        feature=entitlements.feature_done(feature_slot, account),
    )
    return {
        "menuCounts": {
            "dashboard": 0,
            "matches": news.count(seen, news.MATCHES),
            "requests": news.count(seen, news.REQUESTS),  # new received requests
            "connections": news.count(seen, news.CONNECTIONS),  # its requests accepted since
            "declines": news.count(seen, news.DECLINES),  # its requests declined since
        },
        # Suspended by the team (issue 27): the dashboard shows a notice with a way to reply.
        "dashboard": {"brandId": brand_id, "brandName": brand.name, "suspended": bool(brand.suspended)},
        "credits": credits_info,
        "userBrands": [{"id": int(b.brand_id), "name": b.name} for b in user_brands],
        "whatsNew": content.whats_new_now(),
        "matchRunOutstanding": open_run is not None,
        "matchRunId": open_run,
        **_brand_names(brand, account, user),
    }


def _brand_names(brand: Brand | None, account: Account | None, user: User | None) -> dict[str, bool]:
    """showingBrandNames: this member sees other brands' names in Matches (a subscription);
    showingBrandNamesGlobal: names are shown in Matches platform-wide; brandInfoPublic: the
    selected brand's own name is visible to others (not hidden)."""
    return {
        "showingBrandNames": brand is not None and entitlements.sees_brand_names(account, user),
        "showingBrandNamesGlobal": entitlements.NAMES_SHOWN_GLOBALLY,
        "brandInfoPublic": brand is not None and not brand.hide_name,
    }
