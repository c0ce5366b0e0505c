"""What each type of account includes (SPEC sections 2 and 6).

A feature-only account (user access 'feature') buys Pitch Area features: it has the dashboard,
the Pitch Area, the pitches it receives (requests it can accept or decline), its profile,
notifications and billing, and nothing of the matching side of Tandem. API routes name the
area they belong to (`chalicelib.http.route(..., area=...)`); the caller's check refuses an
area their account type does not include (`refusal`), before anything is read for them or
written.
"""

from __future__ import annotations

from tandem.errors import Forbidden

MATCHES = "matches"  # match lists, save / dismiss, match runs
CONNECTIONS = "connections"
DECLINES = "declines"
SEND_REQUESTS = "send-requests"  # sending a connection request, cancelling a sent one
PITCHING = "pitching"  # pitching to a feature (1 credit; the credits info's canPitch)
COLLAB_IDEAS = "collab-ideas"
VIDEO_GUIDES = "video-guides"
COLLABORATIONS = "collaborations"  # planning and running collaborations with connections

AREAS: dict[str, str] = {  # area -> what the member reads in the refusal
    MATCHES: "Matches",
    CONNECTIONS: "Connections",
    DECLINES: "Declines",
    SEND_REQUESTS: "Sending connection requests",
    PITCHING: "Pitching to a feature",
    COLLAB_IDEAS: "Collab Ideas",
    VIDEO_GUIDES: "Video Guides",
    COLLABORATIONS: "Collaborations",
}

FEATURE_ONLY = "feature"
ADMIN = "admin"  # a Tandem team member: the admin console, acting as another user
EXCLUDED: dict[str, frozenset[str]] = {
    FEATURE_ONLY: frozenset(
        {MATCHES, CONNECTIONS, DECLINES, SEND_REQUESTS, PITCHING, COLLAB_IDEAS, VIDEO_GUIDES, COLLABORATIONS}
    ),
}

NOT_INCLUDED_CODE = "not_in_account"


def is_feature_only(access: str | None) -> bool:
    """The user type 'feature' (SPEC section 6): the one test of it (tandem.domain.entitlements
    folds it into every right; nothing else compares a user's access with it)."""
    return access == FEATURE_ONLY


def is_admin(access: str | None) -> bool:
    """The user type 'admin': the one test of it (tandem.domain.entitlements.is_admin)."""
    return access == ADMIN


class NotIncluded(Forbidden):
    """403 with a machine code: the account type does not include this area."""

    code = NOT_INCLUDED_CODE


def includes(access: str, area: str | None) -> bool:
    if area is not None and area not in AREAS:
        raise ValueError(f"Unknown area {area!r}")
    return area is None or area not in EXCLUDED.get(access, frozenset())


def refusal(access: str, area: str | None) -> str | None:
    """The message for a user of `access` asking for `area`, or None when it is included."""
    if includes(access, area):
        return None
    verb = "is" if area in (SEND_REQUESTS, PITCHING) else "are"
    return f"{AREAS[area]} {verb} not included in a feature-only account."


def check(access: str, area: str | None) -> None:
    message = refusal(access, area)
    if message is not None:
        raise NotIncluded(message)
