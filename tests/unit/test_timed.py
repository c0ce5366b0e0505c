"""tests/bench/timed.py: the CPU figure of a `make test` part counts what its processes left
behind (Chromium's renderers outlive the browser that started them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TIMED = Path(__file__).resolve().parents[1] / "bench" / "timed.py"

# The command starts a child that spends about half a CPU second after the command itself ended.
ORPHAN = (
    "import subprocess, sys;"
    "subprocess.Popen([sys.executable, '-c',"
    " 'import time\\nend = time.process_time() + 0.5\\nwhile time.process_time() < end: pass']);"
    "sys.exit(3)"
)


def test_the_cpu_of_a_process_left_behind_is_counted_and_the_exit_status_passed_on() -> None:
    done = subprocess.run(
        [sys.executable, str(TIMED), "ci_orphan_s", "--", sys.executable, "-c", ORPHAN],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    figures = dict(line.split()[1:] for line in done.stdout.splitlines() if line.startswith("BENCH "))
    assert float(figures["ci_orphan_cpu_s"]) >= 0.45, done.stdout
    assert "still running" not in done.stdout
