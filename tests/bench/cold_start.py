"""What a member waits for on a cold start, against a bare boto3 call, both against moto.

A ThreadedMotoServer on loopback is provisioned from template.yaml (infra/local/provision.py)
and seeded with one member (account, user, brand). Then, each sample in a fresh interpreter:

(a) imports the API function's module the way Lambda does and serves `GET /api/dashboard`
    with a valid access token (JWT key from moto's Secrets Manager, data from moto DynamoDB);
(b) runs `import boto3; boto3.client("dynamodb").get_item(...)` for the member's user item.

Samples alternate (a, b, a, b ...) and each a is divided by the b taken right after it, so a
busy moment of this shared machine weighs on both sides of a ratio. Prints
`BENCH api_cold_start_ratio <median of those ratios>` (target: at most 1.5), and the two medians
in milliseconds as `BENCH api_cold_start_ms` / `BENCH boto3_get_item_ms`.
BENCH_SAMPLES (default 7) sets the samples; BENCH_MOTO_PORT the moto port (default: a free one).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys

import _setup  # sets sys.path first; see tests/bench/_setup.py

ROOT = _setup.ROOT
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "7"))

# A member's first GET /api/dashboard in a fresh interpreter; {paths}: what goes first on sys.path.
API_TEMPLATE = """
import json, os, sys, time
t0 = time.perf_counter()
sys.path[:0] = {paths}
from app import app
headers = {{"Authorization": "Bearer " + os.environ["BENCH_TOKEN"], "X-Brand-Id": os.environ["BENCH_BRAND"]}}
event = {{"resource": "/api/dashboard", "path": "/api/dashboard", "httpMethod": "GET", "headers": headers,
          "multiValueHeaders": {{k: [v] for k, v in headers.items()}}, "queryStringParameters": None,
          "multiValueQueryStringParameters": None, "pathParameters": None, "stageVariables": None,
          "body": None, "isBase64Encoded": False,
          "requestContext": {{"resourcePath": "/api/dashboard", "httpMethod": "GET",
                              "path": "/dev/api/dashboard", "stage": "dev", "requestId": "bench",
                              "identity": {{"sourceIp": "127.0.0.1"}}}}}}
class Ctx:
    function_name = "bench"; memory_limit_in_mb = 512; aws_request_id = "bench"
    invoked_function_arn = "arn:aws:lambda:eu-west-2:123456789012:function:bench"
response = app(event, Ctx())
assert response["statusCode"] == 200, response
assert json.loads(response["body"])["dashboard"]["brandId"] == int(os.environ["BENCH_BRAND"]), response
print(time.perf_counter() - t0)
"""
API = API_TEMPLATE.format(paths=repr([str(ROOT / "functions/api"), str(ROOT / "layers/core/python")]))

BASELINE = """
import os, time
t0 = time.perf_counter()
import boto3
boto3.client("dynamodb").get_item(
    TableName=os.environ["TABLE_NAME"],
    Key={"pk": {"S": "USER#" + os.environ["BENCH_USER"]}, "sk": {"S": "META"}},
)
print(time.perf_counter() - t0)
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _seed(endpoint: str) -> dict[str, str]:
    """Provision moto from the template and create one member; the environment a function sees."""
    _setup.moto_environment("WARNING", functions=False)  # the provisioned plan's, below
    from infra.local.provision import provision
    from infra.local.runtime import apply_environment

    plan = provision(endpoint_url=endpoint)
    apply_environment(plan, endpoint_url=endpoint)
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="bench@example.com", name="Bea Bench", password=None
    )
    brand = brands.create_brand(account_id=account.account_id, name="Bench Brand")
    token = tokens.issue_access_token(user.user_id, account.account_id, user.access)
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("BENCH_")},
        **plan.environment,
        "AWS_ENDPOINT_URL": endpoint,
        "BENCH_TOKEN": token,
        "BENCH_BRAND": str(int(brand.brand_id)),
        "BENCH_USER": user.user_id,
        "PYTHONDONTWRITEBYTECODE": "0",
    }


def sample(code: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"benchmark sample failed:\n{out.stderr[-3000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    port = int(os.environ.get("BENCH_MOTO_PORT") or _free_port())
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        env = _seed(f"http://127.0.0.1:{port}")
        (
            sample(API, env),
            sample(BASELINE, env),
        )  # warm the OS file cache and .pyc files, as a Lambda image has
        api = [sample(API, env) for _ in range(SAMPLES)]
        base = [sample(BASELINE, env) for _ in range(SAMPLES)]
    finally:
        server.stop()
    api_median, base_median = statistics.median(api), statistics.median(base)
    ratio = statistics.median(a / b for a, b in zip(api, base, strict=True))
    print(json.dumps({"api_ms": [round(a * 1000) for a in api], "boto3_ms": [round(b * 1000) for b in base]}))
    print(f"# ratio of the medians {api_median / base_median:.2f}, of the fastest {min(api) / min(base):.2f}")
    print(f"BENCH api_cold_start_ms {api_median * 1000:.0f}")
    print(f"BENCH boto3_get_item_ms {base_median * 1000:.0f}")
    print(f"BENCH api_cold_start_ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
