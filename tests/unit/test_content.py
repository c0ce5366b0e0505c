"""The team-written content: Collab Ideas, the calendar, Video Guides and What's new.

Loading each file runs its checks, so a broken edit fails here rather than on a member's page.
"""

import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta
from pathlib import Path

import pytest

from tandem.content import ContentError, calendar, collab_ideas, videos, whats_new

REPO = Path(__file__).resolve().parents[2]
PUBLIC = REPO / "web" / "public"
SVG = "{http://www.w3.org/2000/svg}"
FORBIDDEN = re.compile(r"lorem|ipsum|\bTODO\b|\bTBD\b|placeholder|\bxxx\b|coming soon", re.IGNORECASE)
AMERICAN = re.compile(
    r"\b(color\w*|favor\w*|organiz\w*|behavior\w*|analyz\w*|center\w*|catalog\b|traveling|jewelry|"
    r"program\b|neighbor\w*|enroll\b|mom\b)",
    re.IGNORECASE,
)


def public_file(path: str) -> Path:
    assert path.startswith("/"), path
    return PUBLIC / path.lstrip("/")


# ------------------------------------------------------------------------------ Collab Ideas


def test_there_are_26_ideas_with_unique_slugs_and_titles():
    ideas = collab_ideas.ideas()
    assert len(ideas) == 26 == collab_ideas.IDEA_COUNT
    assert len({i.slug for i in ideas}) == 26
    assert len({i.title.casefold() for i in ideas}) == 26


def test_every_idea_has_every_field_of_the_spec_typed():
    benefit_map = collab_ideas.benefits()
    for idea in collab_ideas.ideas():
        payload = idea.to_dict()
        assert set(payload) == {
            "slug",
            "title",
            "image",
            "content",
            "effort",
            "benefits",
            "examples",
            "example_title",
            "template_info",
        }
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", payload["slug"])
        for key in ("title", "image", "content", "example_title", "template_info"):
            assert isinstance(payload[key], str) and payload[key].strip(), (idea.slug, key)
        assert payload["effort"] in ("minimal", "some", "maximum")
        assert payload["benefits"] and all(key in benefit_map for key in payload["benefits"])
        assert payload["examples"], idea.slug
        for example in payload["examples"]:
            assert set(example) <= {"image", "link"} and isinstance(example["image"], str)


def test_the_benefit_and_effort_maps_have_labels():
    labels = collab_ideas.benefits()
    assert {
        "awareness",
        "new_customers",
        "email_list",
        "sales",
        "content",
        "community",
        "credibility",
    } <= set(labels)
    assert all(isinstance(v, str) and v[0].isupper() for v in labels.values())
    assert collab_ideas.effort_labels() == {
        "minimal": "Minimal effort",
        "some": "Some effort",
        "maximum": "Maximum effort",
    }
    used = {b for idea in collab_ideas.ideas() for b in idea.benefits}
    assert used == set(labels), "every benefit in the map is used by some idea (a filter never empty)"
    assert {idea.effort for idea in collab_ideas.ideas()} == {"minimal", "some", "maximum"}


def test_every_picture_the_ideas_name_is_shipped():
    for idea in collab_ideas.ideas():
        assert idea.image == f"/collab/{idea.slug}.svg"
        assert public_file(idea.image).is_file(), idea.image
        for example in idea.examples:
            assert public_file(example.image).is_file(), example.image


def test_guides_are_real_guides_in_light_markdown():
    for idea in collab_ideas.ideas():
        words = collab_ideas.word_count(idea.content)
        assert 250 <= words <= 450, (idea.slug, words)
        for heading in ("### When it works", "### Step by step", "### Pitfalls", "### Agree in writing"):
            assert heading in idea.content, (idea.slug, heading)
        assert re.search(r"^1\. ", idea.content, re.MULTILINE), idea.slug
        # The subset a small renderer handles: no links, images, tables or HTML.
        assert not re.search(r"\]\(|<[a-z/]|^\|", idea.content, re.MULTILINE), idea.slug


def test_templates_are_fill_in_the_blanks():
    for idea in collab_ideas.ideas():
        blanks = re.findall(r"\[[^\]\n]+\]", idea.template_info)
        assert len(blanks) >= 5, idea.slug
        assert idea.template_info.count("[") == idea.template_info.count("]"), idea.slug


def test_no_unfinished_text_invented_addresses_or_american_spelling():
    for idea in collab_ideas.ideas():
        text = " ".join((idea.title, idea.content, idea.example_title, idea.template_info))
        assert not FORBIDDEN.search(text), (idea.slug, FORBIDDEN.search(text))
        assert not re.search(r"https?://|www\.|\.com\b|\.co\.uk\b", text), idea.slug
        assert not AMERICAN.search(text), (idea.slug, AMERICAN.search(text))


def test_filters_by_effort_and_benefit():
    minimal = collab_ideas.filter_ideas(effort="minimal")
    assert minimal and all(i.effort == "minimal" for i in minimal)
    email = collab_ideas.filter_ideas(benefit="email_list")
    assert email and all("email_list" in i.benefits for i in email)
    both = collab_ideas.filter_ideas(effort="minimal", benefit="email_list")
    assert {i.slug for i in both} == {i.slug for i in minimal} & {i.slug for i in email}
    assert len(collab_ideas.filter_ideas()) == 26
    with pytest.raises(ValueError, match="Unknown effort 'huge'"):
        collab_ideas.filter_ideas(effort="huge")
    with pytest.raises(ValueError, match="Unknown benefit"):
        collab_ideas.filter_ideas(benefit="fame")


def test_get_finds_an_idea_by_slug():
    assert collab_ideas.get("newsletter-swap").title == "Newsletter swap"
    assert collab_ideas.get("no-such-idea") is None


GOOD_IDEA = {
    "slug": "joint-giveaway",
    "title": "Joint giveaway",
    "effort": "minimal",
    "benefits": ["awareness"],
    "examples": [{"image": "/collab/examples/joint-giveaway.svg"}],
    "example_title": "Two brands",
    "content": "word " * 300,
    "template_info": "Hi [name]",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"effort": "lots"}, "effort 'lots' is not one of minimal, some, maximum"),
        ({"benefits": ["fame"]}, "benefit 'fame' is not in the benefit map"),
        ({"benefits": []}, "benefits must be a non-empty list"),
        ({"slug": "other"}, "differs from the file name"),
        ({"title": "  "}, "'title' is empty"),
        ({"content": "too short"}, "the guide has 2 words"),
        ({"template_info": "no blanks"}, "needs [brackets]"),
        ({"examples": []}, "at least one example"),
        ({"examples": [{"image": "/elsewhere/x.png"}]}, "must be an SVG under /collab/"),
        ({"examples": [{"image": "/collab/x.svg", "link": "ftp://x"}]}, "link must be a path in the app"),
        ({"colour": "red"}, "unknown field(s) colour"),
    ],
)
def test_a_broken_idea_file_is_refused_with_a_clear_message(monkeypatch, change, message):
    entry = {**GOOD_IDEA, **change}
    monkeypatch.setattr(collab_ideas, "load_toml", lambda _: entry)
    with pytest.raises(ContentError) as caught:
        collab_ideas._load_idea("joint-giveaway", {"awareness": "Brand awareness"})
    assert "ideas/joint-giveaway.toml" in str(caught.value)
    assert message in str(caught.value)


def test_a_missing_field_is_named(monkeypatch):
    entry = {k: v for k, v in GOOD_IDEA.items() if k != "example_title"}
    monkeypatch.setattr(collab_ideas, "load_toml", lambda _: entry)
    with pytest.raises(ContentError, match="'example_title' is missing"):
        collab_ideas._load_idea("joint-giveaway", {"awareness": "Brand awareness"})


# ---------------------------------------------------------------------------- Illustrations


def test_every_illustration_is_small_valid_svg_without_text():
    files = sorted((PUBLIC / "collab").rglob("*.svg")) + sorted((PUBLIC / "videos").glob("*.svg"))
    assert len(files) == 26 * 2 + len(videos.guides())
    for path in files:
        assert path.stat().st_size < 4_096, path
        root = ET.parse(path).getroot()
        assert root.tag == f"{SVG}svg" and root.get("viewBox"), path
        assert root.find(f".//{SVG}text") is None, f"{path} has text to translate"
        assert root.find(f".//{SVG}image") is None, f"{path} embeds a bitmap"


def test_no_illustration_is_left_over():
    named = {i.image for i in collab_ideas.ideas()} | {
        e.image for i in collab_ideas.ideas() for e in i.examples
    }
    named |= {g.illustration for g in videos.guides()}
    shipped = {
        "/" + str(p.relative_to(PUBLIC))
        for p in list((PUBLIC / "collab").rglob("*.svg")) + list((PUBLIC / "videos").glob("*.svg"))
    }
    assert shipped == named


# -------------------------------------------------------------------------------- Calendar


@pytest.mark.parametrize(
    ("year", "easter"),
    [
        (2024, date(2024, 3, 31)),
        (2025, date(2025, 4, 20)),
        (2026, date(2026, 4, 5)),
        (2027, date(2027, 3, 28)),
        (2028, date(2028, 4, 16)),
        (2030, date(2030, 4, 21)),
        (2038, date(2038, 4, 25)),  # the latest possible
        (2285, date(2285, 3, 22)),  # the earliest possible
    ],
)
def test_easter_sunday(year, easter):
    assert calendar.easter_sunday(year) == easter


EXPECTED = {
    2026: {
        "valentines-day": date(2026, 2, 14),
        "lunar-new-year": date(2026, 2, 17),
        "pancake-day": date(2026, 2, 17),
        "international-womens-day": date(2026, 3, 8),
        "mothering-sunday": date(2026, 3, 15),
        "easter": date(2026, 4, 5),
        "earth-day": date(2026, 4, 22),
        "mothers-day-us": date(2026, 5, 10),
        "memorial-day": date(2026, 5, 25),
        "pride-month": date(2026, 6, 1),
        "global-wellness-day": date(2026, 6, 13),
        "fathers-day": date(2026, 6, 21),
        "plastic-free-july": date(2026, 7, 1),
        "back-to-school-us": date(2026, 8, 1),
        "back-to-school-uk": date(2026, 9, 1),
        "halloween": date(2026, 10, 31),
        "diwali": date(2026, 11, 8),
        "singles-day": date(2026, 11, 11),
        "thanksgiving": date(2026, 11, 26),
        "black-friday": date(2026, 11, 27),
        "small-business-saturday-us": date(2026, 11, 28),
        "cyber-monday": date(2026, 11, 30),
        "giving-tuesday": date(2026, 12, 1),
        "small-business-saturday-uk": date(2026, 12, 5),
        "christmas": date(2026, 12, 25),
        "boxing-day": date(2026, 12, 26),
    },
    2027: {
        "lunar-new-year": date(2027, 2, 6),
        "pancake-day": date(2027, 2, 9),
        "mothering-sunday": date(2027, 3, 7),
        "easter": date(2027, 3, 28),
        "mothers-day-us": date(2027, 5, 9),
        "memorial-day": date(2027, 5, 31),
        "global-wellness-day": date(2027, 6, 12),
        "fathers-day": date(2027, 6, 20),
        "diwali": date(2027, 10, 29),
        "thanksgiving": date(2027, 11, 25),
        "black-friday": date(2027, 11, 26),
        "small-business-saturday-us": date(2027, 11, 27),
        "cyber-monday": date(2027, 11, 29),
        "giving-tuesday": date(2027, 11, 30),
        "small-business-saturday-uk": date(2027, 12, 4),
        "christmas": date(2027, 12, 25),
    },
}


@pytest.mark.parametrize("year", [2026, 2027])
def test_moment_dates(year):
    found = {o.moment.slug: o.start for o in calendar.occurrences(year)}
    for slug, expected in EXPECTED[year].items():
        assert found[slug] == expected, (year, slug)
    assert {o.moment.slug for o in calendar.occurrences(year)} == {m.slug for m in calendar.moments()}


def test_mothering_sunday_is_the_fourth_sunday_of_lent():
    moment = next(m for m in calendar.moments() if m.slug == "mothering-sunday")
    for year in range(2024, 2040):
        ash_wednesday = calendar.easter_sunday(year) - timedelta(days=46)
        lent = (ash_wednesday + timedelta(days=n) for n in range(46))
        sundays = [day for day in lent if day.weekday() == 6]
        assert moment.occurrence(year).start == sundays[3], year


def test_month_long_moments_end_with_their_month():
    by_slug = {o.moment.slug: o for o in calendar.occurrences(2028)}
    assert (by_slug["black-history-month-us"].start, by_slug["black-history-month-us"].end) == (
        date(2028, 2, 1),
        date(2028, 2, 29),
    )
    assert by_slug["pride-month"].end == date(2028, 6, 30)
    assert by_slug["back-to-school-uk"].end == date(2028, 9, 14)
    assert by_slug["christmas"].end == by_slug["christmas"].start


def test_every_moment_names_existing_ideas_countries_and_a_lead_time():
    known = collab_ideas.slugs()
    moments = calendar.moments()
    assert len({m.slug for m in moments}) == len(moments) >= 30
    for moment in moments:
        assert moment.ideas and set(moment.ideas) <= known, moment.slug
        assert set(moment.countries) <= {"GB", "US"} and moment.countries
        assert 1 <= moment.lead_weeks <= 26
        assert not FORBIDDEN.search(moment.description) and not AMERICAN.search(moment.description)
    for country in ("GB", "US"):
        assert len(calendar.occurrences(2026, [country])) >= 20


def test_the_brief_s_moments_are_all_there():
    slugs = {m.slug for m in calendar.moments()}
    assert {
        "valentines-day", "mothering-sunday", "mothers-day-us", "fathers-day", "easter", "pride-month",
        "back-to-school-uk", "back-to-school-us", "halloween", "black-friday", "cyber-monday",
        "small-business-saturday-uk", "small-business-saturday-us", "christmas", "boxing-day", "new-year",
        "dry-january", "veganuary", "international-womens-day", "earth-day", "mental-health-awareness-month",
        "singles-day", "lunar-new-year", "plastic-free-july",
    } <= slugs  # fmt: skip


def test_country_filter():
    gb = {o.moment.slug for o in calendar.occurrences(2026, ["GB"])}
    us = {o.moment.slug for o in calendar.occurrences(2026, ["US"])}
    assert "mothering-sunday" in gb and "mothering-sunday" not in us
    assert "thanksgiving" in us and "thanksgiving" not in gb
    assert "christmas" in gb & us


def test_upcoming_lists_what_to_plan_from_a_date_in_order():
    today = date(2026, 11, 23)
    upcoming = calendar.upcoming(today, ["GB"], within_days=60)
    slugs = [o.moment.slug for o in upcoming]
    assert slugs[:6] == [
        "movember",
        "black-friday",
        "cyber-monday",
        "giving-tuesday",
        "small-business-saturday-uk",
        "christmas",
    ]
    assert "thanksgiving" not in slugs  # US only
    assert "diwali" not in slugs  # already past
    assert "dry-january" in slugs and "lunar-new-year" not in slugs  # within 60 days / beyond
    assert [o.start for o in upcoming] == sorted(o.start for o in upcoming)
    movember = upcoming[0].to_dict(today)
    assert movember["ongoing"] is True and movember["end"] == "2026-11-30"
    assert calendar.upcoming(today, limit=3) == calendar.upcoming(today)[:3]


def test_upcoming_crosses_the_new_year():
    slugs = [o.moment.slug for o in calendar.upcoming(date(2026, 12, 27), ["GB"], within_days=40)]
    assert slugs[:3] == ["dry-january", "new-year", "veganuary"]
    assert "boxing-day" not in slugs and "christmas" not in slugs


def test_an_occurrence_says_when_to_start_planning():
    christmas = next(o for o in calendar.occurrences(2026) if o.moment.slug == "christmas")
    payload = christmas.to_dict()
    assert payload["date"] == "2026-12-25"
    assert payload["leadWeeks"] == 16 and payload["lead"] == "Plan 16 weeks ahead"
    assert payload["planFrom"] == "2026-09-04"
    assert "seasonal-gift-guide" in payload["ideas"]
    assert "ongoing" not in payload


def test_year_by_month_has_twelve_months():
    months = calendar.year_by_month(2027, ["US"])
    assert [m["name"] for m in months][:3] == ["January", "February", "March"] and len(months) == 12
    november = months[10]["moments"]
    assert [m["slug"] for m in november][:3] == ["movember", "singles-day", "thanksgiving"]


def test_a_year_without_a_listed_date_has_no_occurrence():
    diwali = next(m for m in calendar.moments() if m.slug == "diwali")
    assert diwali.occurrence(2040) is None


@pytest.mark.parametrize(
    ("when", "year", "expected"),
    [
        ("14 February", 2026, date(2026, 2, 14)),
        ("last Monday of May", 2026, date(2026, 5, 25)),
        ("last Sunday of October", 2026, date(2026, 10, 25)),
        ("first Monday of June", 2026, date(2026, 6, 1)),
        ("fifth Friday of January", 2027, date(2027, 1, 29)),
        ("fifth Monday of February", 2026, None),
        ("fourth Thursday of November + 1 day", 2026, date(2026, 11, 27)),
        ("Easter - 2 days", 2026, date(2026, 4, 3)),
        ("Easter + 1 day", 2027, date(2027, 3, 29)),
        ("31 December + 1 day", 2026, date(2027, 1, 1)),
    ],
)
def test_date_rules(when, year, expected):
    assert calendar.parse_rule(when).on(year) == expected


@pytest.mark.parametrize(
    ("when", "dates", "message"),
    [
        ("29 February", None, "not a date every year has"),
        ("31 April", None, "not a date every year has"),
        ("second Funday of May", None, "cannot read"),
        ("Easter plus 3", None, "cannot read"),
        ("listed dates", None, "needs a 'dates' list"),
        ("listed dates", ["2026-02-30"], "dates must be YYYY-MM-DD"),
        ("listed dates", ["2026-02-17", "2026-03-01"], "one date per year"),
        ("14 February", ["2026-02-14"], "only for when"),
    ],
)
def test_a_bad_rule_is_refused(when, dates, message):
    with pytest.raises(ContentError, match=message):
        calendar.parse_rule(when, dates, "calendar.toml moment 'x'")


def test_a_moment_naming_a_missing_idea_is_refused():
    raw = {
        "slug": "x",
        "name": "X",
        "when": "1 May",
        "countries": ["GB"],
        "lead_weeks": 4,
        "ideas": ["no-such-idea"],
        "description": "A day.",
    }
    with pytest.raises(ContentError, match="idea 'no-such-idea' does not exist"):
        calendar._load_moment(raw, 1, collab_ideas.slugs())
    with pytest.raises(ContentError, match="countries must be"):
        calendar._load_moment({**raw, "ideas": ["workshop"], "countries": ["FR"]}, 1, collab_ideas.slugs())


# ----------------------------------------------------------------------------- Video Guides


def test_video_guides_have_the_spec_fields_and_real_text():
    guides = videos.guides()
    assert len(guides) >= 8
    assert len({g.slug for g in guides}) == len(guides)
    for guide in guides:
        payload = guide.to_dict()
        assert {"slug", "videoId", "title", "type", "pageNames", "ignore"} <= set(payload)
        assert payload["type"] in ("youtube", "wistia", "recorded")
        assert payload["pageNames"] and set(payload["pageNames"]) <= set(videos.PAGE_NAMES)
        assert isinstance(payload["ignore"], bool)
        assert public_file(guide.illustration).is_file()
        if guide.recording:
            assert payload["poster"].startswith("/assets/guides/")
        else:
            assert payload["poster"] == guide.illustration
        assert len(payload["outline"]) >= 4 and payload["description"].endswith(".")
        text = " ".join([payload["title"], payload["description"], *payload["outline"]])
        assert not FORBIDDEN.search(text) and not AMERICAN.search(text), guide.slug


def test_no_video_points_at_someone_else_s_recording():
    # Ids are added by the team for our own recordings; until then every guide is text-first.
    for guide in videos.guides():
        if guide.video_id is None:
            assert guide.to_dict()["embedUrl"] is None and guide.to_dict()["watchUrl"] is None


MEDIA = REPO / "media"


def test_every_recorded_guide_is_recorded_and_its_files_are_in_the_repository():
    """`make guides` writes media/guides/ and guide_recordings.json, committed so a fresh clone
    plays every guide (docs/decisions.md); nothing recorded is left over from an older take."""
    recorded = [g for g in videos.guides() if g.type == "recorded"]
    assert len(recorded) == 10
    listed = videos.recordings()
    assert set(listed) == {g.slug for g in recorded}, "run make guides"
    for guide in recorded:
        recording = guide.recording
        assert recording is not None
        payload = guide.to_dict()
        assert payload["src"] == f"/assets/{recording.video}"
        assert payload["captions"] == f"/assets/{recording.captions}"
        assert payload["videoId"] is None and payload["embedUrl"] is None
        assert recording.steps == len(guide.outline)
        video = MEDIA / recording.video
        assert video.is_file() and video.stat().st_size == recording.bytes
        assert video.read_bytes()[:4] == b"\x1a\x45\xdf\xa3"  # WebM (Matroska) header
        assert (MEDIA / recording.poster).read_bytes()[:3] == b"\xff\xd8\xff"  # JPEG
        cues = (MEDIA / recording.captions).read_text(encoding="utf-8")
        assert cues.startswith("WEBVTT\n")
        assert cues.count(" --> ") == len(guide.outline)
        for line in guide.outline:  # the captions are the guide's own steps
            assert line.replace("&", "&amp;") in cues
    shipped = {p.relative_to(MEDIA).as_posix() for p in (MEDIA / "guides").iterdir()}
    named = {k for r in listed.values() for k in (r.video, r.captions, r.poster)}
    assert shipped == named


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"video": "guides/other.0123456789ab.webm"}, "'video' must be guides/g.<hash>"),
        ({"poster": "../secrets.jpg"}, "'poster' must be guides/g.<hash>"),
        ({"seconds": 0}, "must be more than 0"),
        ({"extra": 1}, "unknown field"),
    ],
)
def test_a_broken_recording_entry_is_refused(change, message):
    raw = {
        "video": "guides/g.0123456789ab.webm",
        "captions": "guides/g.0123456789ab.vtt",
        "poster": "guides/g.0123456789ab.jpg",
        "seconds": 20.5,
        "bytes": 1000,
        "steps": 5,
    }
    assert videos._load_recording("g", raw).seconds == 20.5
    with pytest.raises(ContentError, match=message):
        videos._load_recording("g", {**raw, **change})


def test_a_recorded_guide_has_no_video_id():
    raw = {
        "slug": "g",
        "title": "G",
        "type": "recorded",
        "video_id": "abc",
        "page_names": ["dashboard"],
        "ignore": False,
        "description": "D.",
        "outline": ["One."],
    }
    with pytest.raises(ContentError, match="a recorded guide has no video_id"):
        videos._load_guide(raw, 1)


def test_every_app_page_with_a_guide_button_has_a_guide():
    for page in (
        "dashboard",
        "matches",
        "requests",
        "connections",
        "pitch",
        "inspiration",
        "brands",
        "subscriptions",
        "notifications",
    ):
        assert videos.for_page(page), page


def test_embed_and_watch_addresses():
    youtube = videos.VideoGuide("a", "A", "youtube", "Tandem_0001", ("dashboard",), False, "D.", ("x",))
    assert youtube.embed_url == "https://www.youtube-nocookie.com/embed/Tandem_0001?rel=0"
    assert youtube.watch_url == "https://www.youtube.com/watch?v=Tandem_0001"
    wistia = videos.VideoGuide("b", "B", "wistia", "abc123def4", ("dashboard",), False, "D.", ("x",))
    assert wistia.embed_url == wistia.watch_url == "https://fast.wistia.net/embed/iframe/abc123def4"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"type": "vimeo"}, "type must be youtube, wistia or recorded"),
        ({"video_id": "not an id"}, "is not a youtube video id"),
        ({"video_id": None}, "'video_id' must be text"),
        ({"page_names": ["home"]}, "page_names must be distinct names"),
        ({"outline": []}, "the outline needs at least one line"),
        ({"ignore": "no"}, "'ignore' has the wrong type"),
    ],
)
def test_a_broken_guide_is_refused(change, message):
    raw = {
        "slug": "g",
        "title": "G",
        "type": "youtube",
        "video_id": "",
        "page_names": ["dashboard"],
        "ignore": False,
        "description": "D.",
        "outline": ["One."],
    }
    with pytest.raises(ContentError, match=message):
        videos._load_guide({**raw, **change}, 1)


def test_an_ignored_guide_has_no_button(monkeypatch):
    hidden = videos.VideoGuide("h", "H", "youtube", None, ("dashboard",), True, "D.", ("x",))
    monkeypatch.setattr(videos, "guides", lambda: (hidden,))
    assert videos.for_page("dashboard") == []
    assert videos.get("h") is hidden  # still a known slug for PUT users/video-view


# ------------------------------------------------------------------------------- What's new


def test_whats_new_is_newest_first_and_hides_future_entries(monkeypatch):
    entries = whats_new.entries()
    assert len(entries) >= 3
    assert [e.date for e in entries] == sorted((e.date for e in entries), reverse=True)
    items = whats_new.latest(date(2026, 11, 23))
    assert items and set(items[0]) == {"date", "title", "text", "link"}
    assert whats_new.latest(date(2026, 1, 1)) == []
    assert len(whats_new.latest(date(2030, 1, 1), limit=2)) == 2
    for entry in entries:
        assert entry.link is None or entry.link.startswith("/")
        assert not FORBIDDEN.search(entry.title + entry.body) and not AMERICAN.search(entry.body)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"link": "https://elsewhere.example"}, "link must be a path in the app"),
        ({"date": "yesterday"}, "'date' has the wrong type"),
        ({"body": "x" * 281}, "keep the title to 80 and the body to 280"),
    ],
)
def test_a_broken_whats_new_entry_is_refused(change, message):
    raw = {"date": date(2026, 11, 22), "title": "T", "body": "B."}
    with pytest.raises(ContentError, match=message):
        whats_new._load_entry({**raw, **change}, 1)
