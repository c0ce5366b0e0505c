"""The dashboard response of SPEC section 3, with the fields that exist so far."""

from __future__ import annotations

from typing import Any

from tandem.services import credits, match_runs, requests
from tandem.store.models import Brand


def build(brand: Brand | None, user_brands: list[Brand]) -> dict[str, Any]:
    if brand is None:  # e.g. a Tandem admin: no brand of their own
        return {
            "menuCounts": dict.fromkeys(("dashboard", "matches", "requests", "connections", "declines"), 0),
            "dashboard": {"brandId": None, "brandName": None},
            "userBrands": [],
            "whatsNew": [],
            "matchRunOutstanding": False,
            "matchRunId": None,
            "credits": _no_credits(),
            **_brand_names(None),
        }
    brand_id = int(brand.brand_id)
    open_run = match_runs.latest_open_run(brand_id)
    new_matches = match_runs.new_match_count(brand_id)
    new_items = requests.menu_counts(brand_id)  # new received requests, connections, declines
    return {
        "menuCounts": {
            "dashboard": 0,
            "matches": new_matches,
            "requests": new_items["requests"],
            "connections": new_items["connections"],
            "declines": new_items["declines"],
        },
        "dashboard": {"brandId": brand_id, "brandName": brand.name},
        "credits": credits.info(brand.account_id),
        "userBrands": [{"id": int(b.brand_id), "name": b.name} for b in user_brands],
        "whatsNew": [],
        "matchRunOutstanding": open_run is not None,
        "matchRunId": open_run.run_id if open_run else None,
        **_brand_names(brand),
    }


def _brand_names(brand: Brand | None) -> dict[str, bool]:
    """showingBrandNames: this member sees other brands' names in Matches (a subscription);
    showingBrandNamesGlobal: names are shown in Matches platform-wide; brandInfoPublic: the
    selected brand's own name is visible to others (not hidden)."""
    from tandem.domain.brand_profile import NAMES_SHOWN_GLOBALLY
    from tandem.services import accounts, matches

    account = accounts.get_account(brand.account_id) if brand is not None else None
    return {
        "showingBrandNames": brand is not None and matches.showing_brand_names(account),
        "showingBrandNamesGlobal": NAMES_SHOWN_GLOBALLY,
        "brandInfoPublic": brand is not None and not brand.hide_name,
    }


def _no_credits() -> dict[str, Any]:
    """Credits info for a caller without a brand (e.g. an admin): nothing to spend."""
    from tandem.domain import credits as credit_rules

    return credit_rules.credits_info(credit_rules.summary([], 0), status="none", valid_to=None)
