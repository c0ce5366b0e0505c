"""Collab Ideas, Video Guides, the tips tour and whatsNew through the API (moto, in-process)."""

from __future__ import annotations

import pytest

from tests.factories import auth_headers, member


@pytest.fixture
def caller(api):
    user, (brand,), token = member("reader@example.com")
    return user, auth_headers(token, int(brand.brand_id))


def test_collab_lists_the_26_ideas_with_the_benefit_and_effort_labels(api, caller):
    status, body = api.call("GET", "/api/collab", caller[1])
    assert status == 200
    assert len(body["ideas"]) == 26 == body["total"]
    idea = body["ideas"][0]
    assert set(idea) >= {
        "slug",
        "title",
        "image",
        "content",
        "effort",
        "benefits",
        "examples",
        "template_info",
    }
    assert idea["image"] == f"/collab/{idea['slug']}.svg"
    assert list(body["efforts"]) == ["minimal", "some", "maximum"]
    # every benefit an idea names has its label in the one map
    assert {key for i in body["ideas"] for key in i["benefits"]} <= set(body["benefits"])


def test_collab_filters_by_effort_and_benefit(api, caller):
    _, everything = api.call("GET", "/api/collab", caller[1])
    benefit = next(iter(everything["benefits"]))
    status, body = api.call("GET", f"/api/collab?effort=minimal&benefit={benefit}", caller[1])
    assert status == 200
    expected = [
        i["slug"] for i in everything["ideas"] if i["effort"] == "minimal" and benefit in i["benefits"]
    ]
    assert [i["slug"] for i in body["ideas"]] == expected
    assert 0 < len(expected) < 26
    _, minimal = api.call("GET", "/api/collab?effort=minimal", caller[1])
    assert {i["effort"] for i in minimal["ideas"]} == {"minimal"}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("effort=huge", "Unknown effort 'huge': use one of minimal, some, maximum."),
        ("benefit=fame", "Unknown benefit 'fame'."),
        ("effort=" + "x" * 200, "Unknown effort '" + "x" * 40 + "…'."),
    ],
)
def test_collab_refuses_an_unknown_filter_with_a_clear_message(api, caller, query, message):
    status, body = api.call("GET", f"/api/collab?{query}", caller[1])
    assert status == 400
    assert body == {"error": message}


def test_videos_are_listed_and_a_view_marks_one_watched(api, caller):
    user, headers = caller
    status, body = api.call("GET", "/api/videos", headers)
    assert status == 200
    guides = body["videos"]
    assert guides and not any(g["watched"] for g in guides)
    first = guides[0]
    assert set(first) >= {"slug", "videoId", "title", "type", "pageNames", "ignore", "poster"}
    assert first["type"] in {"youtube", "wistia", "recorded"}
    # The guides recorded from the app (make guides) carry their video, captions and poster.
    for guide in guides:
        if guide["type"] == "recorded":
            assert guide["src"].startswith("/assets/guides/") and guide["src"].endswith(".webm")
            assert guide["captions"].startswith("/assets/guides/") and guide["captions"].endswith(".vtt")
            assert guide["poster"].endswith(".jpg") and guide["seconds"] > 0

    status, body = api.call("PUT", f"/api/users/video-view/{first['slug']}", headers)
    assert (status, body) == (200, {"slug": first["slug"], "watched": True})
    status, _ = api.call("PUT", f"/api/users/video-view/{first['slug']}", headers)  # again: no change
    assert status == 200

    _, body = api.call("GET", "/api/videos", headers)
    assert [g["slug"] for g in body["videos"] if g["watched"]] == [first["slug"]]

    # another member's marks are their own
    _, (other,), token = member("other@example.com")
    _, theirs = api.call("GET", "/api/videos", auth_headers(token, int(other.brand_id)))
    assert not any(g["watched"] for g in theirs["videos"])


@pytest.mark.parametrize(("slug", "expected"), [("no-such-guide", 404), ("x" * 300, 404), ("%ED%A0%80", 400)])
def test_a_view_of_an_unknown_guide_is_refused_and_records_nothing(api, caller, slug, expected):
    from tandem.store.models import User

    user, headers = caller
    status, body = api.call("PUT", f"/api/users/video-view/{slug}", headers)
    assert status == expected
    assert body["error"]
    assert not User.get(*User.key(user.user_id)).watched_videos


def test_the_tips_tour_shows_until_it_is_done_and_never_for_admins(api, caller):
    user, headers = caller
    _, check = api.call("GET", "/api/users", headers)
    assert check["showInstructions"] is True
    status, body = api.call("POST", "/api/users/action/instructions", headers)
    assert (status, body) == (200, {"ok": True})
    _, check = api.call("GET", "/api/users", headers)
    assert check["showInstructions"] is False

    from tandem.store.models import User

    admin, _, token = member("admin@example.com")
    admin.update(actions=[User.access.set("admin")])
    _, check = api.call("GET", "/api/users", auth_headers(token))
    assert check["showInstructions"] is False


def test_dashboard_whats_new_is_the_latest_team_notes(api, caller):
    from datetime import UTC, datetime

    from tandem.content import whats_new

    status, body = api.call("GET", "/api/dashboard", caller[1])
    assert status == 200
    assert body["whatsNew"] == whats_new.latest(datetime.now(UTC).date())
    assert body["whatsNew"], "the team has written at least one note"
    assert set(body["whatsNew"][0]) == {"date", "title", "text", "link"}
