"""`make dev`: the whole of Tandem on 127.0.0.1, no AWS account, no Docker.

moto (server mode, in this process) stands in for DynamoDB, Step Functions, Lambda, SQS, S3,
SES and Secrets Manager; everything is provisioned from template.yaml; state machines really
execute and call the Lambda handlers in-process; one port serves /api/* and the SPA.
Data is kept in .local/data (DATA_DIR) across restarts: every acknowledged DynamoDB write is
journalled before the API answers (infra/local/persistence.py), so even `kill -9` loses none.
The scheduler's jobs run on their template.yaml schedules in a background thread
(infra/local/scheduler.py; GET /__local/jobs, POST /__local/jobs/<job> runs one now).
One Ctrl-C or SIGTERM stops it within a few seconds.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from infra.local.template import LocalPlan

ROOT = Path(__file__).resolve().parents[2]
STOP_GRACE_SECONDS = 3.0  # requests in progress at a stop get this long to finish
WILDCARD_HOSTS = ("0.0.0.0", "::")  # noqa: S104 (names compared, nothing bound here)


class _Stop(BaseException):
    """Raised in the main thread by the SIGINT/SIGTERM handler once the stack is serving."""


_stopping = False


def _raise_stop(*_: object) -> None:
    """Raise once: the signals after the first (a second Ctrl-C, a burst of SIGTERM) are
    ignored, so nothing cuts the saving short."""
    global _stopping
    if not _stopping:
        _stopping = True
        raise _Stop


def moto_endpoint(host: str, port: int) -> str:
    """The address this process talks to moto on: loopback when moto listens on every
    interface, else the one address it listens on (MOTO_HOST, e.g. the Docker bridge's)."""
    return f"http://{'127.0.0.1' if host in WILDCARD_HOSTS else host}:{port}"


def _prepare_environment(endpoint: str, moto_port: int) -> str:
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
    from infra.local.artifact import build_dir

    layer = [] if build_dir() is not None else [ROOT / "layers/core/python"]  # else the build's
    for path in (ROOT, *layer):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return endpoint


def _start_fake_stripe(url: str, data_dir: Path, secret: str, environment: dict[str, str]):
    """The local payment stand-in (infra/local/fake_stripe) on a free loopback port, its state
    in DATA_DIR, its webhooks signed with the local Stripe secret's webhook_secret and sent to
    this stack's /api/stripe/webhook. The functions reach it through STRIPE_API_BASE with the
    secret's api_key: the production code paths, only the base URL and keys differ."""
    import json

    from infra.local.fake_stripe import FakeStripe
    from tandem.services.stripe_events import BILLING_EVENTS

    keys = json.loads(secret)
    data_dir.mkdir(parents=True, exist_ok=True)
    fake = FakeStripe(
        webhook_url=f"{url}/api/stripe/webhook",
        webhook_secret=keys["webhook_secret"],
        webhook_events=sorted(BILLING_EVENTS),  # as the production endpoint subscribes
        api_key=keys["api_key"],
        state_file=data_dir / "fake-stripe.json",
    )
    fake.start(0)
    environment["STRIPE_API_BASE"] = fake.base_url
    environment["STRIPE_API_KEY"] = keys["api_key"]
    return fake


def _start_fake_slack_and_push(secret_name: str):
    """The local stand-ins for Slack (OAuth, channels, posting) and a browser push service, on
    free loopback ports: the Slack secret in moto points at the fake for this run (its address
    changes with each start; the journal keeps the secret without it), and GET /__local/services
    tells the browser tests where both are."""
    import json

    import boto3

    from infra.local.fake_push import FakePushService
    from infra.local.fake_slack import FakeSlack

    secrets_manager = boto3.client("secretsmanager", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
    stored = json.loads(secrets_manager.get_secret_value(SecretId=secret_name)["SecretString"])
    slack = FakeSlack(client_id=stored["client_id"], client_secret=stored["client_secret"])
    slack.start(0)
    stored.update(api_url=f"{slack.url}/api/", authorize_url=f"{slack.url}/oauth/v2/authorize")
    secrets_manager.put_secret_value(SecretId=secret_name, SecretString=json.dumps(stored))
    push = FakePushService()
    push.start(0)
    os.environ["LOCAL_FAKE_SLACK_URL"] = slack.url
    os.environ["LOCAL_FAKE_PUSH_URL"] = push.url
    return slack, push


def _sync_stripe_catalogue(url: str) -> None:
    """`make stripe-sync` against the fake: products, prices, portal and payment links (it
    changes nothing when they are there; a new port moves the links' and portal's addresses)."""
    from infra import stripe_sync
    from tandem.integrations import stripe_client

    stripe_client.reset_client()
    changed = stripe_sync.Sync(stripe_client.client(), url, log=lambda _: None).run()
    if changed:
        print(f"Stripe (local fake): {len(changed)} catalogue changes made.", flush=True)


# The scheduler's backfill jobs (functions/scheduler/app.py's JOBS; `make deploy` runs them on a
# stage), in order: users from before one account per email, users from before the admin lists'
# index, pending requests from before the expiry schedule (issue 28). A data folder gets each
# once, not every restart: every write since is made by code that keeps these indexes itself,
# and on the seeded data they cost 2.5 s of each restart (index-pending-requests reads every
# brand's sent box).
BACKFILL_JOBS = ("claim-legacy-emails", "index-users", "index-pending-requests")


def _run_backfills(plan: LocalPlan, names: list[str]) -> None:
    """Run these jobs of the scheduler function's JOBS (loaded as the stack loads every handler:
    from the sam build when it runs one)."""
    from infra.local import lambda_inprocess

    jobs = lambda_inprocess.load_handler_module(plan.functions["SchedulerFunction"]).JOBS
    for name in names:
        jobs[name]()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    port = int(os.environ.get("PORT", "8080"))
    parser.add_argument("--port", type=int, default=port, help="0 picks a free port")
    parser.add_argument("--moto-port", type=int, default=int(os.environ.get("MOTO_PORT") or 0))
    # Where moto listens: loopback unless told otherwise. `sam local` runs the functions in
    # Docker containers, which reach the host only on the Docker bridge's address (Linux) or
    # through host.docker.internal (README "With Docker: sam local").
    parser.add_argument("--moto-host", default=os.environ.get("MOTO_HOST") or "127.0.0.1")
    parser.add_argument("--data-dir", default=os.environ.get("DATA_DIR", str(ROOT / ".local/data")))
    parser.add_argument("--web-root", default=os.environ.get("WEB_ROOT", str(ROOT / "web/dist")))
    # The browser journeys' stacks run no job by the wall clock: a journey that crossed 03:00 UTC
    # or the hour would have the nightly match run or the digest change its screens under it.
    # They run the jobs they need themselves (POST /__local/jobs/<job>).
    parser.add_argument(
        "--schedules",
        choices=("on", "manual"),
        default=os.environ.get("LOCAL_SCHEDULES") or "on",
        help="on: template.yaml's schedules run jobs; manual: only POST /__local/jobs/<job> does",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # `kill -USR1`: every thread's stack

    from infra.local import artifact

    build = artifact.build_dir()
    if build is not None:  # LOCAL_BUILD_DIR: run what we deploy, the sam build output
        artifact.use(build)  # before anything imports tandem (infra.local.server does)

    from infra.local.server import bind

    try:  # first, so a port in use fails at once, and port 0 is resolved before anything prints
        site_socket = bind(("127.0.0.1", args.port))
    except OSError as exc:
        print(f"Port {args.port} is not free ({exc.strerror}): stop what uses it or set PORT.", flush=True)
        return 2
    url = f"http://127.0.0.1:{site_socket.getsockname()[1]}"

    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's per-request access log
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a burst queues by design
    moto = ThreadedMotoServer(ip_address=args.moto_host, port=args.moto_port, verbose=False)
    moto.start()
    moto_port = moto.get_host_and_port()[1]
    if args.moto_host not in ("127.0.0.1", *WILDCARD_HOSTS):
        # moto's Step Functions run their Lambda tasks through http://localhost:<port> (its
        # boto_client_for): with moto on the Docker bridge only, every task failed to connect.
        # A second server on loopback, same port, serves the same in-process backends.
        ThreadedMotoServer(ip_address="127.0.0.1", port=moto_port, verbose=False).start()
    endpoint = _prepare_environment(moto_endpoint(args.moto_host, moto_port), moto_port)

    import requests

    from infra.local import assets, lambda_inprocess
    from infra.local.gateway import LocalApiGateway
    from infra.local.persistence import Journal
    from infra.local.provision import default_secret_values, provision
    from infra.local.runtime import apply_environment
    from infra.local.scheduler import LocalScheduler
    from infra.local.seed import DEMO_LOGINS, seed, start_demo_match_runs
    from infra.local.server import LocalSite
    from infra.local.template import build_plan

    requests.post(
        f"{endpoint}/moto-api/config", json={"stepfunctions": {"execute_state_machine": True}}, timeout=10
    ).raise_for_status()

    data_dir = Path(args.data_dir)
    journal = Journal(data_dir, build_plan().table["TableName"])
    secret_values = journal.load_secrets()
    if secret_values is None:
        secret_values = default_secret_values(build_plan())
        journal.save_secrets(secret_values)
    plan = provision(endpoint_url=endpoint, secret_values=secret_values)
    plan.environment["SITE_URL"] = url  # links in emails point at this local stack
    plan.environment["ASSETS_UPLOAD_URL"] = f"{url}/__local/assets-upload"  # logo uploads, same origin
    stripe = _start_fake_stripe(url, data_dir, secret_values[plan.secrets["StripeSecret"]], plan.environment)
    # Slack in the notification options: off unless this run is started with it on (the e2e
    # notifications journey; deployed stages set the SlackNotificationsActive parameter).
    plan.environment["SLACK_NOTIFICATIONS_ACTIVE"] = os.environ.get(
        "SLACK_NOTIFICATIONS_ACTIVE", plan.environment.get("SLACK_NOTIFICATIONS_ACTIVE", "false")
    )
    apply_environment(plan, endpoint_url=endpoint)
    _sync_stripe_catalogue(url)
    fake_slack, fake_push = _start_fake_slack_and_push(plan.secrets["SlackSecret"])
    if build is not None:
        loaded = artifact.check(plan, build, lambda_inprocess.load_handler_module)  # all from the build
        print(f"Running the sam build at {build}: {loaded} modules of ours, none from the source tree.")

    first_start = not journal.exists
    if first_start:
        print("First start: seeding demo data ...", flush=True)
        seed()
        journal.record_backfills(set(BACKFILL_JOBS))  # written by this code: nothing to backfill
    else:
        items, replayed = journal.restore()
        print(f"Loaded {items} items from {journal.table_path} ({replayed} journalled writes).", flush=True)
        done = journal.backfills_done()
        due = [name for name in BACKFILL_JOBS if name not in done]
        if due:
            _run_backfills(plan, due)
            print(f"Backfilled data saved by an older version: {', '.join(due)}.", flush=True)
            journal.record_backfills(done | set(due))
    journal.open()  # a fresh snapshot; from here on every write is journalled before it is answered
    if first_start:
        start_demo_match_runs()  # finish in the background; the app polls them like any run
    assets.restore(data_dir)  # uploaded logos, kept in DATA_DIR/assets
    assets.upload_guides()  # the recorded video guides (media/), as make deploy uploads them

    if os.environ.get("LOCAL_METER") == "1":  # the day replay's measurements (infra/local/meter.py)
        from infra.local import meter

        meter.install()
    jobs = LocalScheduler(plan)  # template.yaml's schedules, in this process
    if args.schedules == "on":
        jobs.start()
    site = LocalSite(
        ("127.0.0.1", 0), LocalApiGateway(plan), Path(args.web_root), sock=site_socket, jobs=jobs
    )
    serving = threading.Thread(target=site.serve_forever, name="local-site", daemon=True)
    serving.start()

    logins = "\n".join(f"  {d.role:<24} {d.email:<24} {d.password}" for d in DEMO_LOGINS)
    try:
        # The handlers raise instead of setting a threading.Event: Event.set() from a handler
        # deadlocks when the signal lands while this thread holds the Event's own lock inside
        # Event.wait() (seen in CI: SIGTERM right after the ready line, stack hung for good).
        signal.signal(signal.SIGINT, _raise_stop)
        signal.signal(signal.SIGTERM, _raise_stop)
        print(
            f"\nTandem is running at {url}  (API: {url}/api/health, ready in "
            f"{time.monotonic() - started:.1f}s)\n\nDemo logins:\n{logins}\n\n"
            f"Emails: {url}/__local/outbox   Scheduled jobs: {url}/__local/jobs "
            f"(POST /__local/jobs/<job> runs one now"
            f"{'; none runs by its schedule: --schedules manual' if args.schedules == 'manual' else ''})"
            f"\nData: {args.data_dir}   Stop: Ctrl-C\n"
            + (
                f"moto (AWS) for sam local: {args.moto_host}:{moto_port}\n"
                if args.moto_host != "127.0.0.1"
                else ""
            ),
            flush=True,
        )
        while True:
            # A signal's handler raises _Stop here. Short sleeps: a SIGTERM the kernel hands to
            # another thread (the fake Stripe's, moto's) does not interrupt this one's sleep, and
            # Python runs the handler only when the main thread next wakes (seen: a stop waited
            # for the whole hour-long sleep until another signal woke it).
            time.sleep(0.5)
    except _Stop:
        pass

    # Stop taking requests, let the ones in progress finish, keep the data. moto's server and
    # any Step Functions execution still running are daemon threads: they end with the process
    # (such a run stays "running" in the table, as after a Lambda timeout in AWS, and the
    # scheduler's fail-stuck-match-runs job closes it).
    jobs.stop()  # no job starts from now; one in progress finishes or ends with the process
    site.shutdown()
    site.server_close(grace=STOP_GRACE_SECONDS)
    stripe.stop()
    fake_slack.stop()
    fake_push.stop()
    journal.close()
    print("Tandem stopped; data saved.", flush=True)
    return 0


def run() -> None:
    """`python -m infra.local.stack`. Once main() has saved and closed everything, the process
    ends without the interpreter's teardown: freeing moto's in-memory state object by object
    took 2-12 s of CPU after "data saved" (more after match runs, whose executions moto keeps
    with their whole histories), and that was the lingering after Ctrl-C."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
