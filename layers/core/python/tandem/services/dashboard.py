"""The dashboard response of SPEC section 3, with the fields that exist so far.

Three DynamoDB calls, all made at the door with the caller's check (tandem.services.viewer
DASHBOARD): one BatchGetItem of the user, the account, the selected brand, what is new to it
(BrandSeen: the menu counts and the open match run) and its Pitch Area feature; the account's
brands (userBrands) and its credit buckets, at the same time.
"""

from __future__ import annotations

from typing import Any

from tandem.services import content, credits, entitlements
from tandem.services.viewer import Viewer
from tandem.store import news


def build(viewer: Viewer) -> dict[str, Any]:
    """The dashboard from what the door read with the caller (tandem.services.viewer.DASHBOARD:
    the account, what is new to the brand, its Pitch Area feature; the account's brands and
    credit buckets at the same time)."""
    brand, user = viewer.brand, viewer.user
    if brand is None:  # e.g. a Tandem admin: no brand of their own
        return {
            "menuCounts": dict.fromkeys(("dashboard", "matches", "requests", "connections", "declines"), 0),
            "dashboard": {"brandId": None, "brandName": None},
            "userBrands": [],
            "whatsNew": [],
            "matchRunOutstanding": False,
            "matchRunId": None,
            "credits": entitlements.credits_info(None, [], user=user),
            **_brand_names(viewer),
        }
    brand_id = viewer.brand_id
    seen = viewer.seen if viewer.seen is not None else news.read(brand_id)
    open_run = news.open_run_of(seen)
    held = viewer.buckets if viewer.buckets is not None else credits.buckets(viewer.account_id)
    credits_info = viewer.credits(held)
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
        "userBrands": [{"id": int(b.brand_id), "name": b.name} for b in viewer.brands],
        "whatsNew": content.whats_new_now(),
        "matchRunOutstanding": open_run is not None,
        "matchRunId": open_run,
        **_brand_names(viewer),
    }


def _brand_names(viewer: Viewer) -> dict[str, bool]:
    """showingBrandNames: this member sees other brands' names in Matches (a subscription);
    showingBrandNamesGlobal: names are shown in Matches platform-wide; brandInfoPublic: the
    selected brand's own name is visible to others (not hidden)."""
    return {
        "showingBrandNames": viewer.brand is not None and viewer.names_shown,
        "showingBrandNamesGlobal": entitlements.NAMES_SHOWN_GLOBALLY,
        "brandInfoPublic": viewer.brand is not None and not viewer.brand.hide_name,
    }
