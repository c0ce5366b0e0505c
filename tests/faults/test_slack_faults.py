"""Slack answering 429 with Retry-After (issue 42): the post is not waited out inside the
notifier; the queue message comes back after its visibility timeout (180 s, longer than any
Retry-After Slack sends for chat.postMessage) and only the Slack post is tried again: it is
posted once, and the email, sent at the first try, is never repeated."""

from __future__ import annotations

import pytest

from infra.local.faults import Faults
from tests.faults.conftest import Notifier
from tests.functional.helpers import Brand, mail_to, redirected_to, send, slack_consent


def test_slack_rate_limiting_a_post_retries_it_alone_and_posts_it_once(
    aws, api, fake_slack, faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tandem.config import reset_settings

    monkeypatch.setenv("SLACK_NOTIFICATIONS_ACTIVE", "true")
    reset_settings()
    notifier = Notifier(aws, faults)
    oat, fern = Brand("a@example.com", "Oat & Co", credits=6), Brand("b@example.com", "Fern Candles")
    redirected_to(api, slack_consent(api, fake_slack, fern))
    channel = fake_slack.channel_id("partnerships")
    choice = {"channelId": channel, "channelName": "partnerships"}
    assert api.call("POST", "/api/slack/select-channel", fern.headers, choice)[0] == 200
    change = {"requests_received": {"slack": True}}  # email stays on
    assert api.call("PUT", "/api/notifications/user", fern.headers, change)[0] == 200
    limited = faults.add("slack", "429", match="chat.postMessage", times=2, retry_after=30)

    assert send(api, oat, fern)[0] == 201
    assert notifier.drain() == [(1, 1), (1, 1), (1, 0)]  # two rate-limited tries, then posted
    assert limited.hits == 2
    (posted,) = fake_slack.posted(channel)
    assert "*Oat &amp; Co would like to collaborate with Fern Candles*" in posted.text
    assert len(mail_to(fern.email)) == 1
    assert notifier.dead_letters() == []
    monkeypatch.undo()
    reset_settings()
