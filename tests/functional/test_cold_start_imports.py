"""A member's first GET /api/dashboard in a fresh interpreter imports only what that route
runs: not the email templates (jinja2) and the mailer, not the Stripe client, not billing's
rules, not the brand profile's rules nor matching. Served as tests/bench/cold_start.py serves
it (the API module imported the way Lambda does, against a moto server provisioned from
template.yaml with one member), so anything a module-level import drags in shows up here
first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NEVER_ON_THE_DASHBOARD = (
    "jinja2",
    "stripe",
    "tandem.domain.billing",
    "tandem.services.billing",
    "tandem.services.mailer",
    "tandem.integrations.email_templates",
    "tandem.integrations.stripe_client",
    # the profile's rules and the matching vocabulary: featureDone reads tandem.domain.pitch,
    # which loads brand_profile only to check a submitted feature
    "tandem.domain.brand_profile",
    "tandem.domain.matching",
    # store modules of models the dashboard does not read (tandem.store.models names none of them)
    "tandem.store.billing",
    "tandem.store.learning",
    "tandem.store.matches",
    "tandem.store.requests",
)

# Runs in its own interpreter: a moto server, one member, then the dashboard in another fresh
# interpreter that prints what it imported (nothing of it is loaded in the test's own process).
SCRIPT = """
import json, logging, subprocess, sys
# the benches import their _setup as a script's neighbour does
sys.path[:0] = [{root!r}, {layer!r}, {bench!r}]
from moto.server import ThreadedMotoServer
from tests.bench.cold_start import API, _free_port, _seed
logging.getLogger("werkzeug").setLevel(logging.ERROR)
port = _free_port()
server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
server.start()
try:
    env = _seed(f"http://127.0.0.1:{{port}}")
    shown = "json.dumps({{'modules': sorted(sys.modules), 'collecting': __import__('gc').isenabled()}})"
    code = API.replace("print(time.perf_counter() - t0)", "print(" + shown + ")")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    print(out.stdout.strip().splitlines()[-1])
finally:
    server.stop()
"""


def test_the_dashboards_first_request_imports_only_what_it_runs() -> None:
    script = SCRIPT.format(
        root=str(ROOT), layer=str(ROOT / "layers/core/python"), bench=str(ROOT / "tests/bench")
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    shown = json.loads(out.stdout.strip().splitlines()[-1])
    loaded = set(shown["modules"])
    assert "tandem.services.dashboard" in loaded  # it did serve the dashboard
    imported = sorted(
        m for m in loaded if any(m == n or m.startswith(n + ".") for n in NEVER_ON_THE_DASHBOARD)
    )
    assert imported == []
    # app.py turns the cyclic collector off only while it imports (see there): it is back on
    assert shown["collecting"] is True
