"""Video Guides (SPEC section 3 "Video": slug, videoId, title, type, pageNames, ignore), from
`data/videos.toml`.

Three types. SPEC's two, for editorial videos on our own channel: `youtube` and `wistia`, whose
`video_id` the team fills in (empty until then). And ours, `recorded`: the guide is recorded from
the running app by its Playwright script (tests/e2e/guides/, `make guides`), which walks the
screens its outline explains and writes the video (WebM), WebVTT captions (one cue per outline
line) and a poster frame under `media/guides/`. Deploys upload `media/` to the assets bucket
(CloudFront serves it at `/assets/`), the local stack serves the same files; the recording's
file names carry their content hash, so a re-recording is never served stale from a cache.
`data/guide_recordings.json`, written by `make guides`, says which guides are recorded and
where their files are; a `recorded` guide missing from it is shown as a written guide.

Every guide carries a written description and outline and an illustration
(`/videos/<slug>.svg`, the poster until a recording gives its own), so the popup is useful
without a video, and when an embed cannot load it offers the plain link (`watchUrl`).

`GET videos` answers `{"videos": videos_payload()}`; `PUT users/video-view/{slug}` checks the
slug with `get(slug)` (None: 404).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from tandem.content import DATA_DIR, ContentError, check_keys, load_toml, require

TYPES = ("youtube", "wistia", "recorded")
RECORDINGS_FILE = "guide_recordings.json"
MEDIA_URL = "/assets/"  # CloudFront's path to the assets bucket (and the local stack's)
_RECORDING_FIELDS = {"video", "captions", "poster", "seconds", "bytes", "steps"}
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
_IDS = {
    "youtube": re.compile(r"^[A-Za-z0-9_-]{11}$"),
    "wistia": re.compile(r"^[a-z0-9]{10}$"),
    "recorded": re.compile(r"^$"),  # a recording is found by its slug, never by an id
}
_KEY = re.compile(r"^guides/[a-z0-9-]+\.[0-9a-f]{12}\.(?:webm|vtt|jpg)$")


@dataclass(frozen=True)
class Recording:
    """A guide recorded from the app: the assets bucket's keys of its files, and its length."""

    video: str
    captions: str
    poster: str
    seconds: float
    bytes: int
    steps: int


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
    def illustration(self) -> str:
        return f"/videos/{self.slug}.svg"

    @property
    def recording(self) -> Recording | None:
        return recordings().get(self.slug) if self.type == "recorded" else None

    @property
    def poster(self) -> str:
        recording = self.recording
        return MEDIA_URL + recording.poster if recording else self.illustration

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
        recording = self.recording
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
            # A recorded guide: the video and its captions (WebVTT), played by the browser itself.
            "src": MEDIA_URL + recording.video if recording else None,
            "captions": MEDIA_URL + recording.captions if recording else None,
            "seconds": recording.seconds if recording else None,
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
        raise ContentError(f"{where}: type must be youtube, wistia or recorded")
    if not isinstance(raw.get("video_id"), str):
        raise ContentError(f"{where}: 'video_id' must be text (\"\" until the video is recorded)")
    video_id = raw["video_id"].strip() or None
    if video_id and not _IDS[kind].match(video_id):
        if kind == "recorded":
            raise ContentError(f"{where}: a recorded guide has no video_id (make guides records it)")
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


def _load_recording(slug: str, raw: Any) -> Recording:
    where = f"{RECORDINGS_FILE} '{slug}'"
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: must be an object")
    check_keys(raw, _RECORDING_FIELDS, where)
    for field in ("video", "captions", "poster"):
        key = require(raw, field, str, where)
        if not _KEY.match(key) or not key.startswith(f"guides/{slug}."):
            raise ContentError(f"{where}: '{field}' must be guides/{slug}.<hash>.<webm|vtt|jpg>")
    seconds = require(raw, "seconds", (int, float), where)
    size = require(raw, "bytes", int, where)
    steps = require(raw, "steps", int, where)
    if seconds <= 0 or size <= 0 or steps <= 0:
        raise ContentError(f"{where}: seconds, bytes and steps must be more than 0")
    return Recording(raw["video"], raw["captions"], raw["poster"], float(seconds), size, steps)


@cache
def recordings() -> dict[str, Recording]:
    """The recorded guides, by slug (`make guides` writes the file; none when it is absent)."""
    path = DATA_DIR / RECORDINGS_FILE
    if not path.is_file():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ContentError(f"{RECORDINGS_FILE}: {exc}") from exc
    listed = require(raw, "guides", dict, RECORDINGS_FILE)
    return {slug: _load_recording(slug, entry) for slug, entry in listed.items()}


def get(slug: str) -> VideoGuide | None:
    return next((g for g in guides() if g.slug == slug), None)


def for_page(page: str) -> list[VideoGuide]:
    """The guides a page's "Guide" button offers (ignored guides left out)."""
    return [g for g in guides() if page in g.page_names and not g.ignore]


def videos_payload() -> list[dict[str, Any]]:
    """Every guide, with `ignore` so the client leaves those out (SPEC lists the flag)."""
    return [g.to_dict() for g in guides()]
