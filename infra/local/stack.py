"""`make dev`: the whole of Tandem on 127.0.0.1, no AWS account, no Docker.

moto (server mode, in this process) stands in for DynamoDB, Step Functions, Lambda, SQS, S3,
SES and Secrets Manager; everything is provisioned from template.yaml; state machines really
execute and call the Lambda handlers in-process; one port serves /api/* and the SPA.
Data is kept in .local/data (DATA_DIR) across restarts. Ctrl-C stops it cleanly.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT_EVERY_SECONDS = 3.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _prepare_environment(moto_port: int) -> str:
    endpoint = f"http://127.0.0.1:{moto_port}"
    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_DEFAULT_REGION": "eu-west-2",
            "AWS_REGION": "eu-west-2",
            "AWS_ENDPOINT_URL": endpoint,
            "MOTO_PORT": str(moto_port),
            "STAGE": "local",
        }
    )
    for path in (ROOT, ROOT / "layers/core/python"):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return endpoint


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    parser.add_argument("--data-dir", default=os.environ.get("DATA_DIR", str(ROOT / ".local/data")))
    parser.add_argument("--web-root", default=os.environ.get("WEB_ROOT", str(ROOT / "web/dist")))
    args = parser.parse_args(argv)

    moto_port = int(os.environ.get("MOTO_PORT") or _free_port())
    endpoint = _prepare_environment(moto_port)

    import logging

    import requests
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's per-request access log

    from infra.local.gateway import LocalApiGateway
    from infra.local.persistence import Snapshots
    from infra.local.provision import default_secret_values, provision
    from infra.local.runtime import apply_environment
    from infra.local.seed import DEMO_LOGINS, seed, start_demo_match_runs
    from infra.local.server import LocalSite
    from infra.local.template import build_plan

    started = time.monotonic()
    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=moto_port, verbose=False)
    moto.start()
    requests.post(
        f"{endpoint}/moto-api/config", json={"stepfunctions": {"execute_state_machine": True}}, timeout=10
    ).raise_for_status()

    snapshots = Snapshots(Path(args.data_dir), build_plan().table["TableName"], endpoint)
    secret_values = snapshots.load_secrets()
    if secret_values is None:
        secret_values = default_secret_values(build_plan())
        snapshots.save_secrets(secret_values)
    plan = provision(endpoint_url=endpoint, secret_values=secret_values)
    url = f"http://127.0.0.1:{args.port}"
    plan.environment["SITE_URL"] = url  # links in emails point at this local stack
    plan.environment["ASSETS_UPLOAD_URL"] = f"{url}/__local/assets-upload"  # logo uploads, same origin
    apply_environment(plan, endpoint_url=endpoint)

    if snapshots.exists:
        restored = snapshots.restore()
        print(f"Loaded {restored} items from {snapshots.table_path}", flush=True)
        from tandem.services.accounts import claim_legacy_emails

        claim_legacy_emails()  # users saved before one-account-per-email (docs/decisions.md)
    else:
        print("First start: seeding demo data ...", flush=True)
        seed()
        snapshots.save()
        start_demo_match_runs()  # finish in the background; the app polls them like any run
    from infra.local import assets

    assets.restore(Path(args.data_dir))  # uploaded logos, kept in DATA_DIR/assets

    site = LocalSite(("127.0.0.1", args.port), LocalApiGateway(plan), Path(args.web_root))
    stop = threading.Event()

    def keep_snapshots() -> None:
        while not stop.wait(SNAPSHOT_EVERY_SECONDS):
            try:
                snapshots.save()
            except Exception as exc:  # never let a snapshot error take the stack down
                print(f"Snapshot failed: {exc}", file=sys.stderr, flush=True)

    def shutdown(*_: object) -> None:
        stop.set()
        threading.Thread(target=site.shutdown, daemon=True).start()

    signal.signal(signal.SIGINT, shutdown)
    signal.signal(signal.SIGTERM, shutdown)
    threading.Thread(target=keep_snapshots, daemon=True).start()

    logins = "\n".join(f"  {d.role:<24} {d.email:<24} {d.password}" for d in DEMO_LOGINS)
    print(
        f"\nTandem is running at {url}  (API: {url}/api/health, ready in "
        f"{time.monotonic() - started:.1f}s)\n\nDemo logins:\n{logins}\n\n"
        f"Emails: {url}/__local/outbox   Data: {args.data_dir}   Stop: Ctrl-C\n",
        flush=True,
    )
    try:
        site.serve_forever(poll_interval=0.2)
    finally:
        snapshots.save()
        site.server_close()
        moto.stop()
        print("Tandem stopped; data saved.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
