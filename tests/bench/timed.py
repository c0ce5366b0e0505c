"""Run one part of `make test` and print its wall time as a BENCH line (the Makefile's
`pytest` and `e2e` parts: BENCH ci_pytest_s, BENCH ci_e2e_s), passing its exit status on.

    python tests/bench/timed.py ci_pytest_s -- .venv/bin/python -m pytest -n 2 -q
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isidentifier():
        print("usage: timed.py BENCH_NAME -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    name, command = argv[0], argv[2:]
    load = os.getloadavg()[0]
    started = time.monotonic()
    code = subprocess.call(command)  # noqa: S603 (the Makefile's own command line)
    seconds = time.monotonic() - started
    print(f"{name}: exit {code}, load average {load:.2f} when it started", flush=True)
    print(f"BENCH {name} {seconds:.1f}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
