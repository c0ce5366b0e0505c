"""The local stack as a developer runs it: starts, serves /api/health and the SPA on one
port, runs a match run through the real state machine, and keeps data across a restart."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import jwt
import requests

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Stack:
    def __init__(self, data_dir: Path, web_root: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "MOTO_"))}
        env.update({"PORT": str(self.port), "DATA_DIR": str(data_dir), "WEB_ROOT": str(web_root)})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "infra.local.stack"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.stdout.read()
            try:
                if requests.get(f"{self.url}/api/health", timeout=1).ok:
                    return
            except requests.ConnectionError:
                time.sleep(0.25)
        raise AssertionError("local stack did not answer /api/health within 60 s")

    def stop(self) -> str:
        self.process.send_signal(signal.SIGINT)
        output, _ = self.process.communicate(timeout=30)
        assert self.process.returncode == 0, output
        return output


def _demo_token(data_dir: Path) -> tuple[str, int]:
    """Mint an access token for the seeded demo member, with the stack's own key."""
    secrets = json.loads((data_dir / "secrets.json").read_text())
    items = json.loads((data_dir / "dynamodb.json").read_text())
    user = next(i for i in items if i.get("email", {}).get("S") == "demo@tandem.local")
    account = user["account_id"]["S"]
    brand = min(
        int(i["brand_id"]["N"])
        for i in items
        if i.get("account_id", {}).get("S") == account and "brand_id" in i
    )
    now = int(time.time())
    token = jwt.encode(
        {
            "sub": user["user_id"]["S"],
            "acc": account,
            "access": "member",
            "typ": "access",
            "iss": "tandem",
            "iat": now,
            "exp": now + 600,
        },
        secrets["tandem/local/jwt"],
        algorithm="HS256",
    )
    return token, brand


def test_local_stack_serves_runs_workflows_and_keeps_data_across_restart(tmp_path):
    web_root = tmp_path / "web"
    web_root.mkdir()
    (web_root / "index.html").write_text("<!doctype html><title>Tandem</title><div id=root></div>")
    data_dir = tmp_path / "data"

    stack = Stack(data_dir, web_root)
    try:
        assert requests.get(f"{stack.url}/api/health").json()["status"] == "ok"
        page = requests.get(f"{stack.url}/matches/saved")  # a client-side route
        assert page.status_code == 200 and "<title>Tandem</title>" in page.text
        assert requests.get(f"{stack.url}/missing.js").status_code == 404

        token, brand = _demo_token(data_dir)
        headers = {"Authorization": f"Bearer {token}", "X-Brand-Id": str(brand)}
        started = requests.post(f"{stack.url}/api/matching/run/{brand}", headers=headers)
        assert started.status_code == 202, started.text
        run_id = started.json()["runId"]
        check_url = f"{stack.url}/api/matching/run-check/{run_id}/{brand}"
        deadline = time.monotonic() + 60
        while (status := requests.get(check_url, headers=headers).json()["status"]) != "done":
            assert status in ("queued", "running") and time.monotonic() < deadline, status
            time.sleep(0.5)
    finally:
        output = stack.stop()
    assert "Demo logins:" in output and "demo@tandem.local" in output

    again = Stack(data_dir, web_root)
    try:
        after = requests.get(check_url.replace(stack.url, again.url), headers=headers)
        assert after.status_code == 200
        assert after.json()["status"] == "done"
        assert after.json()["dashboard"]["menuCounts"]["matches"] > 0
    finally:
        again.stop()
