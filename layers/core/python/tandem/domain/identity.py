"""How a brand appears to whoever looks at it (issue 38): its name, logo, description and
whether its name is visible, decided in ONE place for every list, page and email.

- its own account, a connected brand, and a brand that named itself to the viewer (a block
  made with its name shown) are seen as they are;
- a brand that reached the viewer itself (a request or a pitch it sent, an email about it) is
  seen unless it hides its name;
- any other brand is seen only when the viewer's plan shows names (`viewer.names_shown`,
  tandem.domain.entitlements.names_shown: the platform switch and the plan are folded in there)
  and the brand does not hide its name.

A masked brand shows a masked name ('A food & drink brand'), no logo, and a description with its
name and website taken out (either would give the name away). No I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tandem.domain.brand_profile import logo_url, masked_description, masked_name, masked_text

OWN = "own"  # a brand of the viewer's own account
CONNECTED = "connected"  # connected with the viewer's brand
NAMED = "named"  # it named itself to the viewer (e.g. the viewer blocked it by its name)
INTRODUCED = "introduced"  # it reached the viewer itself: a request or pitch it sent, an email
STRANGER = "stranger"  # anyone else: Matches, search, the Pitch Area, requests the viewer sent
RELATIONS = (OWN, CONNECTED, NAMED, INTRODUCED, STRANGER)


class Looking(Protocol):
    """Who looks: tandem.services.viewer.Viewer (None: nobody signed in, an email's reader)."""

    @property
    def account_id(self) -> str: ...

    @property
    def names_shown(self) -> bool: ...


@dataclass(frozen=True)
class Looker:
    """Who looks where no signed-in Viewer does: an account seeing its own (an admin's answer
    as the owner reads it), or no one (an email, a quick-action page)."""

    account_id: str | None = None
    names_shown: bool = False


@dataclass(frozen=True)
class Identity:
    name: str
    name_visible: bool
    logo_url: str | None
    description: str
    category: str
    real_name: str  # to take out of what the brand wrote when it is masked

    def text(self, value: str) -> str:
        """What the brand wrote, with its name taken out when it is masked."""
        return value if self.name_visible else masked_text(value, self.real_name)

    def summary(self, brand_id: int) -> dict[str, Any]:
        """The API's BrandSummary {id, name, logoUrl, category}."""
        return {"id": brand_id, "name": self.name, "logoUrl": self.logo_url, "category": self.category}


def _logo(brand: Any) -> str | None:
    kept = getattr(brand, "logo_url", None)  # a summary kept on a request or a feature
    return kept if kept is not None else logo_url(getattr(brand, "logo_key", None))


def identity(viewer: Looking | None, brand: Any, relation: str = STRANGER) -> Identity:
    """`brand`: a brand (tandem.store Brand) or the summary a request or feature kept of it:
    name, category, hide_name, and logo_key or logo_url; description and website when it has
    them; account_id when it has one (a brand of the viewer's own account is always seen)."""
    if relation not in RELATIONS:
        raise ValueError(f"Unknown relation {relation!r}")
    hides = bool(getattr(brand, "hide_name", False))
    mine = viewer.account_id if viewer is not None else None
    own = mine is not None and getattr(brand, "account_id", None) == mine
    if own or relation in (OWN, CONNECTED, NAMED):
        visible = True
    elif relation == INTRODUCED:
        visible = not hides
    else:
        visible = viewer is not None and viewer.names_shown and not hides
    name, category = brand.name or "", (brand.category or "").strip()
    description = getattr(brand, "description", None) or ""
    return Identity(
        name=name if visible else masked_name(category),
        name_visible=visible,
        logo_url=_logo(brand) if visible else None,
        description=description
        if visible
        else masked_description(description, name, getattr(brand, "website", None)),
        category=brand.category or "",
        real_name=name,
    )
