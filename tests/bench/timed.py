"""Run one part of `make test` and print its wall time as a BENCH line (the Makefile's
parts: BENCH ci_pytest_s, BENCH ci_e2e_s, ...) and, beside it, the CPU seconds (user + system)
of everything it ran (BENCH ci_pytest_cpu_s...: the figure to compare on a shared machine,
where wall time follows the load), passing its exit status on.

    python tests/bench/timed.py ci_pytest_s -- .venv/bin/python -m pytest -n 2 -q
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isidentifier():
        print("usage: timed.py BENCH_NAME -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    name, command = argv[0], argv[2:]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    # close_fds=False: a make under it keeps the jobserver of the make that called this
    code = subprocess.call(command, close_fds=False)  # the Makefile's own command line
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    span = ""
    t0 = os.environ.get("CI_T0", "")
    if t0.isdigit():  # make test's start: when this part ran in its queue
        began = time.time() - seconds - int(t0)
        span = f", from {began:.0f} s to {began + seconds:.0f} s of make test"
    print(f"{name}: exit {code}, load average {load:.2f} when it started{span}", flush=True)
    print(f"BENCH {name} {seconds:.1f}", flush=True)
    if name.endswith("_s"):
        print(f"BENCH {name[:-2]}_cpu_s {cpu:.1f}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
