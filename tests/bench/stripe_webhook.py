"""The Stripe webhook's answer: how fast it acknowledges an event, and how many DynamoDB calls
recording one costs.

Runs the webhook function in-process through the local API gateway against moto (provisioned
from template.yaml), with signed events as Stripe sends them. Executions are recorded but not
run (as in AWS, processing is another Lambda's time, not the webhook's).

Prints `BENCH stripe_webhook_ack_ms_p99 <ms>` (target: at most 100) over 300 new events and
`BENCH webhook_ddb_calls <n>` (DynamoDB calls to record one new event; a duplicate's count is
printed for context).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import statistics
import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("WARNING")

EVENTS = 300
CALLS: list[str] = []


def _event(n: int) -> bytes:
    return json.dumps(
        {
            "id": f"evt_bench_{n:05d}",
            "object": "event",
            "type": "invoice.paid",
            "data": {"object": {"id": f"in_{n}", "object": "invoice", "customer": f"cus_bench{n % 50}"}},
        }
    ).encode()


def main() -> None:
    with _setup.moto_world(execute_state_machines=False) as plan:
        from infra.local.gateway import LocalApiGateway
        from tandem.integrations import aws

        aws.register("before-call.dynamodb", lambda model, **_: CALLS.append(model.name), unique_id="bench")
        secret = json.loads(aws.get_secret(plan.secrets["StripeSecret"]))["webhook_secret"]
        gateway = LocalApiGateway(plan)

        def deliver(payload: bytes) -> int:
            stamp = int(time.time())
            mac = hmac.new(secret.encode(), f"{stamp}.".encode() + payload, hashlib.sha256).hexdigest()
            headers = {"stripe-signature": f"t={stamp},v1={mac}", "content-type": "application/json"}
            return gateway.handle("POST", "/api/stripe/webhook", headers, payload, "127.0.0.1").status

        for n in range(5):  # warm: imports, clients, the secret
            deliver(_event(90000 + n))
        times = []
        for n in range(EVENTS):
            payload = _event(n)
            started = time.perf_counter()
            status = deliver(payload)
            times.append((time.perf_counter() - started) * 1000)
            assert status == 200, status
        CALLS.clear()
        deliver(_event(EVENTS + 1))
        new_calls = len(CALLS)
        print(f"# new event: {', '.join(CALLS)}", file=sys.stderr)
        CALLS.clear()
        deliver(_event(EVENTS + 1))
        duplicate_calls = len(CALLS)
        print(f"# duplicate: {', '.join(CALLS)}", file=sys.stderr)
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    print(f"BENCH stripe_webhook_ack_ms_p99 {p99:.1f}")
    print(f"BENCH stripe_webhook_ack_ms_median {statistics.median(times):.1f}")
    print(f"BENCH webhook_ddb_calls {new_calls}")
    print(f"BENCH webhook_duplicate_ddb_calls {duplicate_calls}")


if __name__ == "__main__":
    main()
