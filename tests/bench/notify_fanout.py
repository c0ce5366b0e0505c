"""One notification to three channels, in-process: the notifier's delivery of one 'request
received' message to a member who takes it by email (moto's SES, templated raw MIME with
one-click unsubscribe), browser push (pywebpush to the local push-service stand-in, which checks
VAPID and decrypts) and Slack (slack_sdk to the local Slack stand-in, chat.postMessage).

Prints `BENCH notify_fanout_ms <median>` and `BENCH notify_fanout_p95_ms <p95>` over RUNS
deliveries (after WARMUP unmeasured ones: first calls build clients and templates), and
`BENCH notify_fanout_channels 3` when every run reached all three. `RUNS=20 python
tests/bench/notify_fanout.py` runs fewer. Loopback only; it stops by itself.
"""

from __future__ import annotations

import os
import statistics
import time
from urllib.parse import parse_qs, urlsplit

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR", SLACK_NOTIFICATIONS_ACTIVE="true")

RUNS = max(1, min(int(os.environ.get("RUNS", "100")), 1000))
WARMUP = 5


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    import logging

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the stand-ins' request lines

    with _setup.moto_world(execute_state_machines=False):
        from infra.local.fake_push import FakePushService
        from infra.local.fake_slack import FakeSlack

        os.environ["SLACK_NOTIFICATIONS_ACTIVE"] = "true"  # the template's is off

        from tandem.config import reset_settings, settings
        from tandem.services import accounts, notification_settings, notify, push, slack_connection
        from tandem.store.models import User
        from tests.functional.helpers import point_slack_at

        reset_settings()
        slack = FakeSlack()
        slack.start(0)
        pusher = FakePushService()
        pusher.start(0)
        try:
            point_slack_at(slack)

            _, user = accounts.create_account_with_user(
                email="bench@example.com", name="Bench", password=None
            )
            user_id = user.user_id
            # The member's browser, and Slack connected through OAuth with a channel chosen.
            push.subscribe(user_id, pusher.subscribe(push.public_key()).info())
            query = {
                k: v[0]
                for k, v in parse_qs(urlsplit(slack_connection.auth_url(user_id)["url"]).query).items()
            }
            back = slack.authorize(query["client_id"], query["scope"], query["redirect_uri"], query["state"])
            assert "slack=connected" in slack_connection.callback(
                {k: v[0] for k, v in parse_qs(urlsplit(back).query).items()}
            )
            general = slack.channel_id("general")
            slack_connection.select_channel(user_id, {"channelId": general, "channelName": "general"})
            notification_settings.update(user_id, {"requests_received": {"browser": True, "slack": True}})

            member = User.find(user_id)
            message = {
                "channel": "notify",
                "toUser": user_id,
                "source": "requests_received",
                "template": "request_received",
                "context": {
                    "sender_brand": "Oat & Co",
                    "recipient_brand": "Fern Candles",
                    "message": "Shall we run a giveaway together?",
                    "accept_url": f"{settings().site_url}/quick-action/accept/1/2/t",
                    "decline_url": f"{settings().site_url}/quick-action/decline/1/2/t",
                    "view_url": f"{settings().site_url}/requests/received/2/r1",
                    "link_days": 14,
                },
                "push": {
                    "title": "Oat & Co would like to collaborate with Fern Candles",
                    "body": "Shall we run a giveaway together?",
                    "url": "/requests/received/2/r1",
                },
                "subject": "r1",
            }
            timings, complete = [], 0
            for run in range(WARMUP + RUNS):
                started = time.perf_counter()
                outcome = notify.deliver_to(member, message)
                elapsed = (time.perf_counter() - started) * 1000
                reached = (
                    outcome.email == "sent" and outcome.browser == ["delivered"] and outcome.slack == "sent"
                )
                if run >= WARMUP:
                    timings.append(elapsed)
                    complete += reached
                elif not reached:
                    raise SystemExit(
                        f"a warm-up delivery did not reach all three channels: {outcome.summary()}"
                    )
            assert len(slack.posted(general)) == WARMUP + RUNS
            assert len(pusher.messages()) == WARMUP + RUNS
        finally:
            slack.stop()
            pusher.stop()

    print(f"BENCH notify_fanout_ms {statistics.median(timings):.1f}")
    print(f"BENCH notify_fanout_p95_ms {_percentile(timings, 0.95):.1f}")
    print(f"BENCH notify_fanout_runs {RUNS}")
    print(f"BENCH notify_fanout_channels {3 if complete == RUNS else 0}")


if __name__ == "__main__":
    main()
