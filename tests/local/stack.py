"""The local stack as a developer runs it, in a subprocess: `python -m infra.local.stack`.

The stack binds its own port (`--port 0`: the kernel picks a free one, no race between
choosing a port and binding it) and the URL is read from its "Tandem is running at" line.
`StackProcesses` (the `stacks` fixture in conftest.py) stops every stack a test started, even
when the test fails. Tokens come from the product itself: `sign_in` posts to the sign-in route.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests


def demo_password(email: str) -> str:
    """The seeded demo login's password (infra/local/seed.py is the one place it is written)."""
    from infra.local.seed import DEMO_LOGINS

    return {login.email: login.password for login in DEMO_LOGINS}[email]


ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"Tandem is running at (http://127\.0\.0\.1:\d+)")
START_TIMEOUT = 180  # a first start seeds the demo data (about 25 s on a busy 2-core machine)


class LocalStack:
    def __init__(self, data_dir: Path, web_root: Path, args: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "MOTO_"))}
        env.update({"PYTHONUNBUFFERED": "1", "POWERTOOLS_LOG_LEVEL": "WARNING"})
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "infra.local.stack",
                "--port",
                "0",
                "--data-dir",
                str(data_dir),
                "--web-root",
                str(web_root),
                # No job by the wall clock unless a test asks (a test that crossed 03:00 UTC would
                # have the nightly match run under it); POST /__local/jobs/<job> still runs one.
                *(() if "--schedules" in args else ("--schedules", "manual")),
                *args,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.url = ""

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def wait_until_ready(self) -> LocalStack:
        self.url = self._ready_url()
        return self

    def _ready_url(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                raise AssertionError(f"the local stack exited while starting:\n{self.output}")
            if found := READY.search(line):
                return found.group(1)
        self.kill()
        raise AssertionError(f"the local stack was not ready within {START_TIMEOUT} s:\n{self.output}")

    @property
    def output(self) -> str:
        return "".join(self._output)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> tuple[int, float]:
        """Send one signal; returns (exit code, seconds until the process was gone)."""
        started = time.monotonic()
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGUSR1)  # the stack prints every thread's stack
            time.sleep(2)
            self.kill()
            raise AssertionError(f"the local stack did not stop within {timeout} s:\n{self.output}") from None
        return code, time.monotonic() - started

    def kill(self) -> None:
        """`kill -9`: no chance to save anything."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)

    def sign_in(self, email: str, password: str | None = None) -> str:
        password = password if password is not None else demo_password(email)
        """An access token through the product's own sign-in route."""
        answer = requests.post(
            f"{self.url}/api/users/login", json={"email": email, "password": password}, timeout=60
        )
        assert answer.status_code == 200, answer.text
        return answer.json()["access_token"]


class StackProcesses:
    """Starts stacks for a test and always stops them afterwards."""

    def __init__(self) -> None:
        self.started: list[LocalStack] = []

    def start(self, data_dir: Path, web_root: Path, *args: str) -> LocalStack:
        """`args`: more of infra.local.stack's options (--moto-host ...)."""
        stack = LocalStack(data_dir, web_root, args)
        self.started.append(stack)  # before waiting: a stack that never gets ready is killed too
        return stack.wait_until_ready()

    def close(self) -> None:
        for stack in self.started:
            stack.kill()
