"""What `sam local` would hand each function, worked out by SAM CLI itself without Docker.

Run by the SAM CLI's own interpreter (.venv-sam/bin/python: samcli is not in the app's venv):
    .venv-sam/bin/python infra/sam_local_probe.py TEMPLATE ENV_VARS_FILE
prints JSON: {"env": {function: the variables its container would get}, "routes": ["GET /path
Function", ...]}. It reads the template and the env-vars file with SAM CLI's providers and asks
its LocalLambdaRunner for each function's environment, as `sam local start-api` and `sam local
invoke` do just before they start a container. These are SAM CLI internals (pinned in the
Makefile, aws-sam-cli==1.170.0): after an upgrade, infra/sam_local.py `check-sam-local` fails
here first if they moved. infra/sam_local.py compares the answer with the env-vars file.
"""

from __future__ import annotations

import json
import sys

from samcli.commands.local.lib.local_lambda import LocalLambdaRunner
from samcli.lib.providers.api_provider import ApiProvider
from samcli.lib.providers.sam_function_provider import SamFunctionProvider
from samcli.lib.providers.sam_stack_provider import SamLocalStackProvider


def main(template: str, env_file: str, region: str = "eu-west-2") -> dict:
    stacks, _ = SamLocalStackProvider.get_stacks(template, parameter_overrides={"Stage": "dev"})
    with open(env_file) as handle:
        env_values = json.load(handle)
    runner = LocalLambdaRunner.__new__(LocalLambdaRunner)  # only its environment logic is used
    runner.env_vars_values = env_values
    runner.debug_context = None
    runner.aws_profile = None
    runner.aws_region = region
    runner.get_aws_creds = lambda: {"region": region, "key": "local", "secret": "local"}
    env = {f.name: runner._make_env_vars(f).resolve() for f in SamFunctionProvider(stacks).get_all()}
    routes = sorted(f"{m} {r.path} {r.function_name}" for r in ApiProvider(stacks).routes for m in r.methods)
    return {"env": env, "routes": routes}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
