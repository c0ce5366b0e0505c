"""Video Guides (SPEC section 3 "Video": slug, videoId, title, type, pageNames, ignore), from
`data/videos.toml`.

We have no recordings yet and will not point members at other people's videos: a guide's
`video_id` is the id of our own recording, filled in by the team when it exists, and empty
until then. Every guide carries a written description and outline and a poster
(`/videos/<slug>.svg`), so the popup is useful without a video, and when the embed cannot load
it offers the plain link (`watchUrl`).

`GET videos` answers `{"videos": videos_payload()}`; `PUT users/video-view/{slug}` checks the
slug with `get(slug)` (None: 404).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from tandem.content import ContentError, check_keys, load_toml, require

TYPES = ("youtube", "wistia")
PAGE_NAMES = (
    "dashboard",
    "matches",
    "requests",
    "connections",
    "declines",
    "pitch",
    "inspiration",
    "brands",
    "subscriptions",
    "notifications",
)
_IDS = {"youtube": re.compile(r"^[A-Za-z0-9_-]{11}$"), "wistia": re.compile(r"^[a-z0-9]{10}$")}
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_FIELDS = {"slug", "title", "type", "video_id", "page_names", "ignore", "description", "outline"}


@dataclass(frozen=True)
class VideoGuide:
    slug: str
    title: str
    type: str
    video_id: str | None
    page_names: tuple[str, ...]
    ignore: bool
    description: str
    outline: tuple[str, ...]

    @property
    def poster(self) -> str:
        return f"/videos/{self.slug}.svg"

    @property
    def embed_url(self) -> str | None:
        """The player's iframe address: youtube-nocookie (no tracking cookies until play) or Wistia."""
        if not self.video_id:
            return None
        if self.type == "youtube":
            return f"https://www.youtube-nocookie.com/embed/{self.video_id}?rel=0"
        return f"https://fast.wistia.net/embed/iframe/{self.video_id}"

    @property
    def watch_url(self) -> str | None:
        """The plain link shown when the embed cannot load."""
        if not self.video_id:
            return None
        if self.type == "youtube":
            return f"https://www.youtube.com/watch?v={self.video_id}"
        return f"https://fast.wistia.net/embed/iframe/{self.video_id}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "videoId": self.video_id,
            "title": self.title,
            "type": self.type,
            "pageNames": list(self.page_names),
            "ignore": self.ignore,
            "description": self.description,
            "outline": list(self.outline),
            "poster": self.poster,
            "embedUrl": self.embed_url,
            "watchUrl": self.watch_url,
        }


def _load_guide(raw: Any, number: int) -> VideoGuide:
    where = f"videos.toml guide {number}"
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: must be a table")
    check_keys(raw, _FIELDS, where)
    slug = require(raw, "slug", str, where)
    where = f"videos.toml guide '{slug}'"
    if not _SLUG.match(slug):
        raise ContentError(f"{where}: slug must be lower-case words joined by '-'")
    kind = require(raw, "type", str, where)
    if kind not in TYPES:
        raise ContentError(f"{where}: type must be youtube or wistia")
    if not isinstance(raw.get("video_id"), str):
        raise ContentError(f"{where}: 'video_id' must be text (\"\" until the video is recorded)")
    video_id = raw["video_id"].strip() or None
    if video_id and not _IDS[kind].match(video_id):
        raise ContentError(f"{where}: '{video_id}' is not a {kind} video id")
    pages = require(raw, "page_names", list, where)
    unknown = [p for p in pages if p not in PAGE_NAMES]
    if unknown or len(set(pages)) != len(pages):
        raise ContentError(f"{where}: page_names must be distinct names from {', '.join(PAGE_NAMES)}")
    outline = require(raw, "outline", list, where)
    if not outline or not all(isinstance(line, str) and line.strip() for line in outline):
        raise ContentError(f"{where}: the outline needs at least one line of text")
    return VideoGuide(
        slug=slug,
        title=require(raw, "title", str, where).strip(),
        type=kind,
        video_id=video_id,
        page_names=tuple(pages),
        ignore=require(raw, "ignore", bool, where),
        description=require(raw, "description", str, where).strip(),
        outline=tuple(line.strip() for line in outline),
    )


@cache
def guides() -> tuple[VideoGuide, ...]:
    raw = require(load_toml("videos.toml"), "guides", list, "videos.toml")
    loaded = tuple(_load_guide(entry, number) for number, entry in enumerate(raw, start=1))
    slugs = [g.slug for g in loaded]
    if len(set(slugs)) != len(slugs):
        raise ContentError("videos.toml: two guides share a slug")
    return loaded


def get(slug: str) -> VideoGuide | None:
    return next((g for g in guides() if g.slug == slug), None)


def for_page(page: str) -> list[VideoGuide]:
    """The guides a page's "Guide" button offers (ignored guides left out)."""
    return [g for g in guides() if page in g.page_names and not g.ignore]


def videos_payload() -> list[dict[str, Any]]:
    """Every guide, with `ignore` so the client leaves those out (SPEC lists the flag)."""
    return [g.to_dict() for g in guides()]
