"""Run one part of `make test` and print its wall time as a BENCH line (the Makefile's
parts: BENCH ci_pytest_s, BENCH ci_e2e_s, ...) and, beside it, the CPU seconds (user + system)
of everything it ran (BENCH ci_pytest_cpu_s...: the figure to compare on a shared machine,
where wall time follows the load), passing its exit status on.

The CPU figure counts processes the part's own processes left behind (Chromium's renderers and
GPU process outlive the browser that started them, and went to init, uncounted: Playwright's
figure was 267 CPU s of the 549 the machine spent on it). This process is their subreaper on
Linux: it reaps them as they end, and after the command ends waits up to LINGER seconds for the
rest, naming how many still ran (their CPU then is not in the figure).

    python tests/bench/timed.py ci_pytest_s -- .venv/bin/python -m pytest -n 2 -q
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
LINGER = 15.0


def become_subreaper() -> bool:
    """Orphans of the command's process tree are reparented here, not to init (Linux only)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def run_reaping(command: list[str]) -> int:
    """Run the command, reaping the orphans it leaves as they end, and return its exit status."""
    # close_fds=False: a make under it keeps the jobserver of the make that called this
    process = subprocess.Popen(command, close_fds=False)  # the Makefile's own command line
    while True:
        try:  # peek (WNOWAIT) so that the command's own status stays for Popen to read
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
        except ChildProcessError:
            break
        except KeyboardInterrupt:
            process.kill()
            raise
        if ended is None or ended.si_pid == process.pid:
            break
        os.waitpid(ended.si_pid, 0)
    return process.wait()


def reap_left(deadline: float) -> int:
    """Reap the orphans still running when the command ended, until `deadline` (monotonic);
    return how many were still running then."""
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return 0
        if pid == 0:
            time.sleep(0.05)
    left = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                        left += 1
            except (OSError, IndexError, ValueError):
                continue
    return left


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isidentifier():
        print("usage: timed.py BENCH_NAME -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    name, command = argv[0], argv[2:]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaping = become_subreaper()
    started = time.monotonic()
    code = run_reaping(command) if reaping else subprocess.call(command, close_fds=False)
    seconds = time.monotonic() - started
    left = reap_left(time.monotonic() + LINGER) if reaping else 0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    span = ""
    t0 = os.environ.get("CI_T0", "")
    if t0.isdigit():  # make test's start: when this part ran in its queue
        began = time.time() - seconds - int(t0)
        span = f", from {began:.0f} s to {began + seconds:.0f} s of make test"
    print(f"{name}: exit {code}, load average {load:.2f} when it started{span}", flush=True)
    if left:
        print(
            f"{name}: {left} processes it started were still running {LINGER:.0f} s after it ended",
            flush=True,
        )
    print(f"BENCH {name} {seconds:.1f}", flush=True)
    if name.endswith("_s"):
        print(f"BENCH {name[:-2]}_cpu_s {cpu:.1f}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
