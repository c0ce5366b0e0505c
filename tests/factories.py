"""Test data built through the domain services (the same path the app uses)."""

from __future__ import annotations

from tandem.services import accounts, brands, tokens


def member(email: str = "member@example.com", brand_names: tuple[str, ...] = ("Oat & Co",), **profile):
    account, user = accounts.create_account_with_user(email=email, name="Mia Member", password=None)
    owned = [brands.create_brand(account_id=account.account_id, name=name, **profile) for name in brand_names]
    token = tokens.issue_access_token(user.user_id, account.account_id, user.access)
    return user, owned, token


def auth_headers(token: str, brand_id: int | str = "default") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "X-Brand-Id": str(brand_id)}


def population(count: int, account_id: str = "population") -> list:
    kinds = ["giveaways", "newsletter swaps", "content swaps", "events", "bundles", "co-branded products"]
    values = ["sustainable", "vegan", "local", "family", "premium", "playful"]
    countries = ["GB", "US", "IE", "FR", "DE"]
    made = []
    for i in range(count):
        made.append(
            brands.create_brand(
                account_id=f"{account_id}-{i}",
                name=f"Brand {i}",
                category=["food", "beauty", "home", "fashion"][i % 4],
                collab_kinds=[kinds[i % 6], kinds[(i + 2) % 6]],
                values=[values[i % 6], values[(i + 3) % 6]],
                countries=[countries[i % 5]],
                age_bands=["25-34"] if i % 2 else ["35-44"],
            )
        )
    return made
