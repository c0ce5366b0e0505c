"""Collab Ideas (SPEC section 3 "Collab idea"): 26 guides to ways two small brands can work
together, written by the team in `data/ideas/<slug>.toml`, listed in the order of
`data/collab_ideas.toml`, which also holds the one benefit label map and the effort labels.

`GET collab` answers `{"list": ideas_payload(), "benefits": BENEFITS}` (and may add
`efforts`); `filter_ideas` applies the page's effort and benefit filters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from tandem.content import ContentError, check_keys, load_toml, require

IDEA_COUNT = 26  # SPEC section 9
EFFORTS = ("minimal", "some", "maximum")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
IMAGE_DIR = "/collab"
EXAMPLE_IMAGE = re.compile(r"^/collab/(?:examples/)?[a-z0-9-]+\.svg$")
CONTENT_WORDS = (250, 450)
_IDEA_FIELDS = {
    "slug",
    "title",
    "effort",
    "benefits",
    "examples",
    "example_title",
    "content",
    "template_info",
}


@dataclass(frozen=True)
class Example:
    image: str
    link: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"image": self.image, "link": self.link} if self.link else {"image": self.image}


@dataclass(frozen=True)
class CollabIdea:
    slug: str
    title: str
    image: str
    content: str
    effort: str
    benefits: tuple[str, ...]
    examples: tuple[Example, ...]
    example_title: str
    template_info: str

    def to_dict(self) -> dict[str, Any]:
        """The SPEC's Collab idea, as `GET collab` lists it."""
        return {
            "slug": self.slug,
            "title": self.title,
            "image": self.image,
            "content": self.content,
            "effort": self.effort,
            "benefits": list(self.benefits),
            "examples": [example.to_dict() for example in self.examples],
            "example_title": self.example_title,
            "template_info": self.template_info,
        }


def word_count(markdown: str) -> int:
    """Words a reader reads: Markdown markers (#, -, 1., **) do not count."""
    return len(re.findall(r"[A-Za-z0-9£$€'’&/.,%-]*[A-Za-z0-9]", markdown))


@cache
def benefits() -> dict[str, str]:
    """The one benefit label map: key -> label, in display order."""
    index = load_toml("collab_ideas.toml")
    labels = require(index, "benefits", dict, "collab_ideas.toml")
    for key, label in labels.items():
        if not SLUG.match(key.replace("_", "-")) or not isinstance(label, str) or not label.strip():
            raise ContentError(f"collab_ideas.toml: benefit '{key}' needs a snake_case key and a label")
    return dict(labels)


@cache
def effort_labels() -> dict[str, str]:
    index = load_toml("collab_ideas.toml")
    labels = require(index, "efforts", dict, "collab_ideas.toml")
    if tuple(labels) != EFFORTS or not all(isinstance(v, str) and v.strip() for v in labels.values()):
        raise ContentError(
            f"collab_ideas.toml: efforts must label exactly {', '.join(EFFORTS)}, in that order"
        )
    return dict(labels)


def _load_idea(slug: str, known_benefits: dict[str, str]) -> CollabIdea:
    where = f"ideas/{slug}.toml"
    entry = load_toml(where)
    check_keys(entry, _IDEA_FIELDS, where)
    if require(entry, "slug", str, where) != slug:
        raise ContentError(f"{where}: slug '{entry['slug']}' differs from the file name")
    effort = require(entry, "effort", str, where)
    if effort not in EFFORTS:
        raise ContentError(f"{where}: effort '{effort}' is not one of {', '.join(EFFORTS)}")
    keys = require(entry, "benefits", list, where)
    if not keys or len(set(keys)) != len(keys):
        raise ContentError(f"{where}: benefits must be a non-empty list without repeats")
    for key in keys:
        if key not in known_benefits:
            raise ContentError(f"{where}: benefit '{key}' is not in the benefit map")
    examples = []
    for number, raw in enumerate(require(entry, "examples", list, where), start=1):
        spot = f"{where} example {number}"
        if not isinstance(raw, dict):
            raise ContentError(f"{spot}: must be a table with an image")
        check_keys(raw, {"image", "link"}, spot)
        image = require(raw, "image", str, spot)
        if not EXAMPLE_IMAGE.match(image):
            raise ContentError(f"{spot}: image '{image}' must be an SVG under /collab/")
        link = raw.get("link")
        if link is not None and not (isinstance(link, str) and re.match(r"^(/|https://)\S+$", link)):
            raise ContentError(f"{spot}: link must be a path in the app or an https:// address")
        examples.append(Example(image, link))
    if not examples:
        raise ContentError(f"{where}: at least one example is needed")
    content = require(entry, "content", str, where).strip()
    words = word_count(content)
    if not CONTENT_WORDS[0] <= words <= CONTENT_WORDS[1]:
        raise ContentError(
            f"{where}: the guide has {words} words; it should have {CONTENT_WORDS[0]} to {CONTENT_WORDS[1]}"
        )
    template = require(entry, "template_info", str, where).strip()
    if "[" not in template:
        raise ContentError(f"{where}: the template needs [brackets] for the member to fill in")
    return CollabIdea(
        slug=slug,
        title=require(entry, "title", str, where).strip(),
        image=f"{IMAGE_DIR}/{slug}.svg",
        content=content,
        effort=effort,
        benefits=tuple(keys),
        examples=tuple(examples),
        example_title=require(entry, "example_title", str, where).strip(),
        template_info=template,
    )


@cache
def ideas() -> tuple[CollabIdea, ...]:
    """All ideas in display order, each checked (ContentError names the file at fault)."""
    index = load_toml("collab_ideas.toml")
    order = require(index, "order", list, "collab_ideas.toml")
    if len(set(order)) != len(order):
        raise ContentError("collab_ideas.toml: a slug appears twice in 'order'")
    for slug in order:
        if not isinstance(slug, str) or not SLUG.match(slug):
            raise ContentError(f"collab_ideas.toml: '{slug}' is not a slug (lower-case words joined by '-')")
    known = benefits()
    loaded = tuple(_load_idea(slug, known) for slug in order)
    if len(loaded) != IDEA_COUNT:
        raise ContentError(f"collab_ideas.toml: {len(loaded)} ideas listed; the plan promises {IDEA_COUNT}")
    titles = [idea.title.casefold() for idea in loaded]
    if len(set(titles)) != len(titles):
        raise ContentError("collab_ideas.toml: two ideas share a title")
    return loaded


@cache
def slugs() -> frozenset[str]:
    return frozenset(idea.slug for idea in ideas())


def get(slug: str) -> CollabIdea | None:
    return next((idea for idea in ideas() if idea.slug == slug), None)


def filter_ideas(effort: str | None = None, benefit: str | None = None) -> list[CollabIdea]:
    """The ideas with this effort and/or this benefit, in display order. An unknown effort or
    benefit raises ValueError with a message a route can answer with a 400."""
    if effort is not None and effort not in EFFORTS:
        raise ValueError(f"Unknown effort '{effort}': use one of {', '.join(EFFORTS)}.")
    if benefit is not None and benefit not in benefits():
        raise ValueError(f"Unknown benefit '{benefit}'.")
    return [
        idea
        for idea in ideas()
        if (effort is None or idea.effort == effort) and (benefit is None or benefit in idea.benefits)
    ]


def ideas_payload() -> list[dict[str, Any]]:
    return [idea.to_dict() for idea in ideas()]
