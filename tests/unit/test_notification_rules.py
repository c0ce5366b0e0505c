import re

import pytest

from tandem.domain import notifications as n

REQUIRED_SOURCES = {
    "requests_received",
    "request_accepted",
    "request_declined",
    "new_matches",
    "pitches_received",
    "feature_status",
    "billing_account",
    "tips",
}


# ---------------------------------------------------------------- options


def test_options_list_every_platform_and_source_in_the_spec_shape():
    payload = n.options_payload(slack_active=False)
    assert [p["key"] for p in payload["platforms"]] == ["email", "browser", "slack"]
    for platform in payload["platforms"]:
        assert set(platform) == {"key", "label", "active", "tool_tip"}
    assert REQUIRED_SOURCES <= {s["key"] for s in payload["sources"]}
    for source in payload["sources"]:
        assert set(source) == {
            "key",
            "label",
            "short_description",
            "full_description",
            "platforms",
            "hasSubOptions",
            "subOptions",
        }
        assert set(source["platforms"]) == {"na", "mandatory"}
        assert source["hasSubOptions"] == bool(source["subOptions"])
        for option in source["subOptions"]:
            assert set(option) == {"key", "name", "description", "criteria"}
            assert all(option[k] for k in option)


def test_slack_is_coming_soon_until_the_environment_turns_it_on():
    off = {p["key"]: p for p in n.options_payload(slack_active=False)["platforms"]}
    on = {p["key"]: p for p in n.options_payload(slack_active=True)["platforms"]}
    assert off["slack"]["active"] is False
    assert off["slack"]["tool_tip"] == "Slack notifications are coming soon."
    assert on["slack"]["active"] is True and "channel" in on["slack"]["tool_tip"]
    assert off["email"]["active"] and off["browser"]["active"]


def test_billing_email_is_mandatory_and_new_matches_offers_digest_or_each_run():
    sources = {s["key"]: s for s in n.options_payload(False)["sources"]}
    assert sources["billing_account"]["platforms"]["mandatory"] == ["email"]
    assert "slack" in sources["billing_account"]["platforms"]["na"]
    assert [o["key"] for o in sources["new_matches"]["subOptions"]] == ["daily_digest", "each_run"]
    assert not sources["requests_received"]["hasSubOptions"]


# ---------------------------------------------------------------- settings


def test_defaults_cover_every_source_and_respect_mandatory_and_na():
    defaults = n.default_settings()
    assert set(defaults) == {s.key for s in n.SOURCES}
    assert defaults["billing_account"] == {"email": True, "browser": False, "slack": False}
    assert defaults["requests_received"]["email"] is True
    assert defaults["new_matches"]["email"] is False
    assert defaults["new_matches"]["subOptions"]["daily_digest"]["email"] is True
    each_run = defaults["new_matches"]["subOptions"]["each_run"]
    assert each_run == {"email": False, "browser": False, "slack": False}
    assert all(not entry["browser"] for entry in defaults.values())  # needs the member's permission


def test_merge_changes_only_what_the_partial_names():
    current = n.default_settings()
    merged = n.merge_settings(
        current,
        {
            "requests_received": {"email": False, "browser": True},
            "new_matches": {"subOptions": {"each_run": {"browser": True}}},
        },
    )
    assert merged["requests_received"] == {"email": False, "browser": True, "slack": False}
    assert merged["new_matches"]["subOptions"]["each_run"]["browser"] is True
    assert merged["new_matches"]["subOptions"]["daily_digest"]["email"] is True
    assert merged["tips"] == current["tips"]
    assert current == n.default_settings()  # the stored object is not changed in place


def test_merge_of_nothing_is_the_defaults():
    assert n.merge_settings(None, {}) == n.default_settings()


@pytest.mark.parametrize(
    ("partial", "message"),
    [
        ([], "Send the notification settings as an object keyed by source."),
        ({"weather": {"email": True}}, "Unknown notification source 'weather'."),
        ({"tips": True}, "Settings for tips must be an object of platform flags."),
        ({"tips": {"sms": True}}, "Unknown platform 'sms' for tips. Use one of: email, browser, slack."),
        ({"tips": {"email": "yes"}}, "tips.email must be true or false."),
        ({"tips": {"email": 1}}, "tips.email must be true or false."),
        (
            {"billing_account": {"email": False}},
            "Email notifications for Billing and account are required and can't be turned off.",
        ),
        (
            {"feature_status": {"email": False}},
            "Email notifications for Feature approved or ended are required and can't be turned off.",
        ),
        (
            {"billing_account": {"slack": True}},
            "Slack notifications are not available for Billing and account.",
        ),
        ({"requests_received": {"slack": True}}, "Slack notifications are coming soon."),
        ({"tips": {"subOptions": {}}}, "Tips has no sub-options."),
        (
            {"new_matches": {"subOptions": {"weekly": {"email": True}}}},
            "Unknown sub-option 'weekly' for new_matches. Use one of: daily_digest, each_run.",
        ),
        (
            {"new_matches": {"subOptions": {"each_run": True}}},
            "new_matches.subOptions.each_run must be an object of platform flags.",
        ),
        (
            {"new_matches": {"subOptions": {"each_run": {"browser": None}}}},
            "new_matches.subOptions.each_run.browser must be true or false.",
        ),
        (
            {"new_matches": {"subOptions": []}},
            "new_matches.subOptions must be an object keyed by sub-option.",
        ),
    ],
)
def test_merge_refuses_bad_bodies_with_a_clear_message(partial, message):
    current = n.default_settings()
    with pytest.raises(ValueError) as raised:
        n.merge_settings(current, partial)
    assert str(raised.value) == message
    assert current == n.default_settings()


def test_a_bad_part_refuses_the_whole_body():
    with pytest.raises(ValueError):
        n.merge_settings(n.default_settings(), {"tips": {"email": False}, "weather": {}})


def test_mandatory_on_and_na_off_are_accepted_as_no_ops():
    merged = n.merge_settings(None, {"billing_account": {"email": True, "slack": False}})
    assert merged["billing_account"] == n.default_settings()["billing_account"]


def test_slack_can_be_chosen_where_the_environment_has_it():
    merged = n.merge_settings(None, {"requests_received": {"slack": True}}, slack_active=True)
    assert merged["requests_received"]["slack"] is True
    with pytest.raises(ValueError, match="not available"):
        n.merge_settings(None, {"tips": {"slack": True}}, slack_active=True)


def test_normalize_heals_old_or_tampered_stored_settings():
    stored = {
        "billing_account": {"email": False, "browser": True, "slack": True},  # written before the rule
        "requests_received": {"email": "no", "browser": True},
        "retired_source": {"email": True},
        "new_matches": {"subOptions": {"each_run": {"email": True}, "gone": {"email": True}}},
    }
    settings = n.normalize(stored)
    assert settings["billing_account"] == {"email": True, "browser": True, "slack": False}
    assert settings["requests_received"] == {"email": True, "browser": True, "slack": False}
    assert "retired_source" not in settings
    assert set(settings["new_matches"]["subOptions"]) == {"daily_digest", "each_run"}
    assert settings["new_matches"]["subOptions"]["each_run"]["email"] is True
    assert settings["tips"] == n.default_settings()["tips"]


# ---------------------------------------------------------------- channels


def test_request_received_with_email_off_and_browser_on_goes_to_browser_only():
    settings = n.merge_settings(None, {"requests_received": {"email": False, "browser": True}})
    assert n.channels_for(settings, "requests_received") == ["browser"]


def test_mandatory_billing_email_goes_out_whatever_was_stored():
    stored = {"billing_account": {"email": False, "browser": False}}
    assert n.channels_for(stored, "billing_account") == ["email"]
    assert n.channels_for(None, "billing_account") == ["email"]


def test_a_source_turned_on_covers_all_its_sub_options():
    settings = n.merge_settings(
        None,
        {
            "new_matches": {
                "browser": True,
                "subOptions": {"daily_digest": {"email": False}, "each_run": {"browser": False}},
            }
        },
    )
    assert n.channels_for(settings, "new_matches", "each_run") == ["browser"]
    assert n.channels_for(settings, "new_matches", "daily_digest") == ["browser"]


def test_with_the_source_off_each_sub_option_decides():
    settings = n.merge_settings(None, {"new_matches": {"subOptions": {"each_run": {"browser": True}}}})
    assert n.channels_for(settings, "new_matches", "daily_digest") == ["email"]
    assert n.channels_for(settings, "new_matches", "each_run") == ["browser"]


def test_slack_is_a_channel_only_where_the_environment_has_it():
    settings = n.merge_settings(None, {"requests_received": {"slack": True}}, slack_active=True)
    assert n.channels_for(settings, "requests_received", slack_active=True) == ["email", "slack"]
    assert n.channels_for(settings, "requests_received") == ["email"]


def test_channels_need_the_right_sub_option():
    with pytest.raises(ValueError, match="needs one of the sub-options: daily_digest, each_run"):
        n.channels_for(None, "new_matches")
    with pytest.raises(ValueError, match="has no sub-options"):
        n.channels_for(None, "tips", "each_run")
    with pytest.raises(ValueError, match="Unknown notification source"):
        n.channels_for(None, "nope")


# ---------------------------------------------------------------- email fallback


def test_a_failed_push_falls_back_to_email_when_the_member_takes_email_for_that_source():
    settings = n.merge_settings(None, {"new_matches": {"subOptions": {"each_run": {"browser": True}}}})
    # each run: browser only, but the member takes the daily digest by email
    assert n.email_fallback(settings, "new_matches", "each_run", "browser", "gone")
    assert n.email_fallback(settings, "new_matches", "each_run", "slack", "disconnected")
    assert n.email_fallback(settings, "new_matches", "each_run", "browser", "failed")


def test_no_fallback_when_retrying_already_emailed_or_email_switched_off():
    settings = n.merge_settings(None, {"new_matches": {"subOptions": {"each_run": {"browser": True}}}})
    assert not n.email_fallback(settings, "new_matches", "each_run", "browser", "retry")
    assert not n.email_fallback(settings, "new_matches", "each_run", "email", "failed")
    both = n.merge_settings(None, {"requests_received": {"browser": True}})
    assert not n.email_fallback(both, "requests_received", None, "browser", "gone")  # emailed already
    push_only = n.merge_settings(None, {"requests_received": {"email": False, "browser": True}})
    assert not n.email_fallback(push_only, "requests_received", None, "browser", "gone")
    no_email = n.merge_settings(
        None,
        {"new_matches": {"subOptions": {"daily_digest": {"email": False}, "each_run": {"browser": True}}}},
    )
    assert not n.email_fallback(no_email, "new_matches", "each_run", "browser", "gone")


# ---------------------------------------------------------------- push TTL and Topic

TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def test_every_source_keeps_a_push_for_an_offline_device():
    for source in n.SOURCES:
        options = [o.key for o in source.sub_options] or [None]
        for option in options:
            ttl = n.push_ttl(source.key, option)
            assert 3600 <= ttl <= 4 * 7 * 86400  # never 0 (dropped when offline), within push services' cap
    assert n.push_ttl("new_matches", "daily_digest") < 24 * 3600  # gone before the next digest
    assert n.push_ttl("requests_received") == 2 * 86400
    assert 0 < n.TEST_PUSH_TTL <= 600


def test_topics_are_short_url_safe_and_per_subject():
    for source in n.SOURCES:
        for option in [o.key for o in source.sub_options] or [None]:
            assert TOPIC.match(n.push_topic(source.key, option))
            assert TOPIC.match(n.push_topic(source.key, option, subject="request-" + "x" * 200))
    a = n.push_topic("requests_received", subject="r1")
    b = n.push_topic("requests_received", subject="r2")
    assert a != b and a == n.push_topic("requests_received", subject="r1")
    assert n.push_topic("new_matches", "daily_digest") != n.push_topic("new_matches", "each_run")
    assert TOPIC.match(n.TEST_TOPIC)


# ---------------------------------------------------------------- digest hour


@pytest.mark.parametrize(
    ("offset", "utc_hour", "local"),
    [
        (0, 9, "09:00"),
        (1, 8, "09:00"),  # London summer
        (-5, 14, "09:00"),  # New York winter
        (5.5, 4, "09:30"),  # India: the hourly run after 9:00 local
        (5.75, 4, "09:45"),  # Nepal
        (-3.5, 13, "09:30"),  # Newfoundland
        (10, 23, "09:00"),  # Sydney winter: the day before in UTC
        (14, 19, "09:00"),  # Kiribati
        (-12, 21, "09:00"),
    ],
)
def test_the_digest_goes_out_at_nine_local(offset, utc_hour, local):
    assert n.digest_hour_utc(offset) == utc_hour
    assert n.digest_local_time(offset) == local


@pytest.mark.parametrize("raw", ["abc", "", "15", "-12.5", "5.3", "nan", "inf", None, True])
def test_bad_timezone_offsets_are_refused(raw):
    with pytest.raises(ValueError) as raised:
        n.parse_timezone_offset(raw)
    assert str(raised.value) == n.OFFSET_INVALID


def test_timezone_offset_header_values_parse():
    assert n.parse_timezone_offset("5.5") == 5.5
    assert n.parse_timezone_offset("-0") == 0.0
    assert n.parse_timezone_offset(" -5 ") == -5.0


def test_unsubscribe_turns_off_only_that_sources_email():
    settings = n.merge_settings(
        None,
        {
            "new_matches": {"email": True, "browser": True, "subOptions": {"each_run": {"email": True}}},
            "tips": {"browser": True},
        },
    )
    after = n.email_off(settings, "new_matches")
    assert after["new_matches"]["email"] is False and after["new_matches"]["browser"] is True
    assert all(not flags["email"] for flags in after["new_matches"]["subOptions"].values())
    assert n.channels_for(after, "new_matches", "daily_digest") == ["browser"]
    assert {k: v for k, v in after.items() if k != "new_matches"} == {
        k: v for k, v in settings.items() if k != "new_matches"
    }
    assert n.email_off(after, "requests_received")["requests_received"]["email"] is False
    with pytest.raises(ValueError, match="required"):
        n.email_off(settings, "billing_account")
