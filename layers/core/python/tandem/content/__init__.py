"""The content members read that is written by the team, not by members: Collab Ideas and the
calendar of retail moments (SPEC section 1 "Collab Ideas"), the Video Guides list and the
dashboard's whatsNew.

Writers edit the TOML files under `data/` (TOML because it holds multi-line Markdown without
escaping, and `tomllib` is in the standard library). Each module here loads its file once,
checks every entry and raises `ContentError`, naming the file and the entry, when something
is missing or wrong: `tests/unit/test_content.py` loads everything, so a broken edit fails CI
instead of a page.

Guides are "light Markdown", the subset a small renderer needs: paragraphs, `### ` headings,
`- ` bullets, `1. ` numbered steps and `**bold**`. No links, images, tables or HTML.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"


class ContentError(ValueError):
    """A content file is missing a field or has a wrong value; the message says where."""


@cache
def load_toml(relative: str) -> dict[str, Any]:
    path = DATA_DIR / relative
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ContentError(f"{relative}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{relative}: {exc}") from exc


def require(entry: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """entry[key], checked to be present, of `kind` and (for text) not blank."""
    if key not in entry:
        raise ContentError(f"{where}: '{key}' is missing")
    value = entry[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise ContentError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    if isinstance(value, str) and not value.strip():
        raise ContentError(f"{where}: '{key}' is empty")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def check_keys(entry: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise ContentError(f"{where}: unknown field(s) {', '.join(unknown)}")
