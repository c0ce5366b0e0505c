"""Cold start of the API function, in fresh processes, against a bare boto3 client.

Each sample is a new interpreter that (a) imports the API function's module the way Lambda
does and serves GET /api/health, or (b) runs `import boto3; boto3.client("dynamodb")`.
Prints `BENCH api_cold_start_ratio <median a / median b>` (target: at most 1.3).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "7"))

API = f"""
import sys, time
t0 = time.perf_counter()
sys.path[:0] = [{str(ROOT / "functions/api")!r}, {str(ROOT / "layers/core/python")!r}]
from app import app
event = {{"resource": "/api/health", "path": "/api/health", "httpMethod": "GET", "headers": {{}},
          "multiValueHeaders": {{}}, "queryStringParameters": None, "multiValueQueryStringParameters": None,
          "pathParameters": None, "stageVariables": None, "body": None, "isBase64Encoded": False,
          "requestContext": {{"resourcePath": "/api/health", "httpMethod": "GET",
                              "path": "/dev/api/health", "stage": "dev", "requestId": "bench",
                              "identity": {{"sourceIp": "127.0.0.1"}}}}}}
class Ctx:
    function_name = "bench"; memory_limit_in_mb = 512; aws_request_id = "bench"
    invoked_function_arn = "arn:aws:lambda:eu-west-2:123456789012:function:bench"
response = app(event, Ctx())
assert response["statusCode"] == 200, response
print(time.perf_counter() - t0)
"""

BASELINE = """
import time
t0 = time.perf_counter()
import boto3
boto3.client("dynamodb")
print(time.perf_counter() - t0)
"""


def sample(code: str) -> float:
    env = {
        **os.environ,
        "AWS_DEFAULT_REGION": "eu-west-2",
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "STAGE": "dev",
        "PYTHONDONTWRITEBYTECODE": "0",
    }
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    sample(API), sample(BASELINE)  # warm the OS file cache and .pyc files, as a Lambda image has
    api = [sample(API) for _ in range(SAMPLES)]
    base = [sample(BASELINE) for _ in range(SAMPLES)]
    api_median, base_median = statistics.median(api), statistics.median(base)
    print(
        f"api cold start median {api_median * 1000:.0f} ms; boto3 client median {base_median * 1000:.0f} ms"
    )
    print(f"BENCH api_cold_start_ratio {api_median / base_median:.2f}")


if __name__ == "__main__":
    main()
