"""The local stack starts the Slack and push-service stand-ins (on free ports, like the fake
Stripe): Slack connect goes through the stand-in's Allow page and a channel can be chosen, and a
browser subscription made at the stand-in push service gets the test notification, decrypted."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import requests

from tests.local.stack import StackProcesses

TIMEOUT = 60


def test_slack_connect_and_browser_push_work_against_the_local_stand_ins(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root)
    services = requests.get(f"{stack.url}/__local/services", timeout=TIMEOUT).json()
    assert services["slack"].startswith("http://127.0.0.1:") and services["push"].startswith(
        "http://127.0.0.1:"
    )

    token = stack.sign_in("demo@tandem.local")
    auth = {"Authorization": f"Bearer {token}"}
    brands = requests.get(f"{stack.url}/api/brands", headers=auth, timeout=TIMEOUT).json()["brands"]
    headers = {**auth, "X-Brand-Id": str(min(b["id"] for b in brands))}

    # Slack: the authorize URL is the stand-in's; Allow redirects back to the stack's callback.
    url = requests.get(f"{stack.url}/api/slack/auth", headers=headers, timeout=TIMEOUT).json()["url"]
    assert url.startswith(f"{services['slack']}/oauth/v2/authorize?")
    query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    allowed = requests.post(
        f"{services['slack']}/oauth/v2/authorize",
        data={**query, "decision": "allow"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    back = allowed.headers["Location"]
    assert back.startswith(f"{stack.url}/api/slack/callback?")
    landed = requests.get(back, allow_redirects=False, timeout=TIMEOUT)
    assert "slack=connected" in landed.headers["Location"], landed.headers
    channels = requests.get(f"{stack.url}/api/slack/channels", headers=headers, timeout=TIMEOUT).json()
    partnerships = next(c for c in channels["channels"] if c["name"] == "partnerships")
    chosen = requests.post(
        f"{stack.url}/api/slack/select-channel",
        headers=headers,
        json={"channelId": partnerships["id"], "channelName": "partnerships"},
        timeout=TIMEOUT,
    )
    assert chosen.status_code == 200, chosen.text
    status = requests.get(f"{stack.url}/api/slack/status", headers=headers, timeout=TIMEOUT).json()
    assert status["connected"] is True and status["channelName"] == "partnerships"

    # Push: a subscription made at the stand-in (as a browser's push manager would) gets the
    # test notification; the stand-in checked VAPID and decrypted it.
    key = requests.get(
        f"{stack.url}/api/browser-notifications/vapid-public-key", headers=headers, timeout=TIMEOUT
    ).json()["publicKey"]
    subscription = requests.post(
        f"{services['push']}/_fake/subscriptions", json={"applicationServerKey": key}, timeout=TIMEOUT
    ).json()
    made = requests.post(
        f"{stack.url}/api/browser-notifications/subscribe",
        headers=headers,
        json={k: subscription[k] for k in ("endpoint", "keys")},
        timeout=TIMEOUT,
    )
    assert made.status_code == 201, made.text
    sent = requests.post(
        f"{stack.url}/api/browser-notifications/send-test",
        headers=headers,
        json={"title": "Hello from Tandem", "body": "It works", "url": "/account/notifications/"},
        timeout=TIMEOUT,
    )
    assert sent.status_code == 200, sent.text
    arrived = requests.get(f"{services['push']}/_fake/messages", timeout=TIMEOUT).json()
    assert [json.loads(m["payload"])["title"] for m in arrived] == ["Hello from Tandem"]
