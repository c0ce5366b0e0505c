"""How long the app's pages take to settle in headless Chromium against a fresh local stack
(issue 39 item 11: a fresh load of /matches/potentials and an email's sign-in link were slow).

Starts `python -m infra.local.stack` on an empty data dir (it seeds the demo data; the seed's
match runs are waited out), then runs tests/bench/page_settle.mjs with tests/e2e's Playwright in
Debian's Chromium: the demo member signed in, each page opened in a new tab. "Settled" is the
time from the navigation's start to the page's last DOM change once the network is idle.

Prints, for PAGE in matches_first (the first view after a match run: new matches), matches,
requests, dashboard (medians of BENCH_SETTLE_REPEATS fresh loads) and sign_in_link (a request
email's sign-in link opened in a browser that is not signed in, to the request's page; median
of BENCH_SETTLE_LINKS links):
`BENCH page_settle_PAGE_ms <ms>`, `BENCH page_settle_PAGE_api_calls <n>` and
`BENCH page_settle_PAGE_api_rounds <n>` (calls that wait for an earlier call: each round is one
more trip to the server before the page can show). Nothing here asserts a number.

    python tests/bench/page_settle.py     # builds nothing: web/dist as last built
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from local_stack import ROOT, Stack, _port, _wait_for_quiet  # the bench folder first


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tandem-settle-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        stack = Stack(data, ROOT / "web" / "dist", _port())
        try:
            _wait_for_quiet(stack)
            answer = subprocess.run(
                ["node", str(ROOT / "tests/bench/page_settle.mjs"), stack.url],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        finally:
            stack.stop()
    if answer.returncode != 0:
        raise SystemExit(f"page_settle.mjs failed:\n{answer.stdout}\n{answer.stderr}")
    figures = json.loads(answer.stdout.strip().splitlines()[-1])
    for page, got in figures.items():
        print(f"BENCH page_settle_{page}_ms {got['ms']}")
        print(f"BENCH page_settle_{page}_api_calls {got['calls']}")
        print(f"BENCH page_settle_{page}_api_rounds {got['rounds']}")


if __name__ == "__main__":
    main()
