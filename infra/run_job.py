"""Run one scheduler job in a deployed stack and wait for its answer (`make deploy` runs the
data migrations this way, e.g. `claim-legacy-emails`). Exits non-zero when the job failed.

    python -m infra.run_job --stack tandem-staging claim-legacy-emails
"""

from __future__ import annotations

import argparse
import json
import sys

import boto3
from botocore.config import Config


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stack", required=True)
    parser.add_argument("job")
    args = parser.parse_args()

    resource = boto3.client("cloudformation").describe_stack_resource(
        StackName=args.stack, LogicalResourceId="SchedulerFunction"
    )
    function = resource["StackResourceDetail"]["PhysicalResourceId"]
    lam = boto3.client("lambda", config=Config(read_timeout=330, retries={"max_attempts": 0}))
    answer = lam.invoke(FunctionName=function, Payload=json.dumps({"job": args.job}).encode())
    payload = answer["Payload"].read().decode()
    print(f"{args.job}: {payload}")
    return 1 if answer.get("FunctionError") else 0


if __name__ == "__main__":
    sys.exit(main())
