"""A deploy rehearsed without an AWS account, for every samconfig.toml environment (make deploy-rehearsal).

For each environment: the real SAM CLI packages the built template (`sam build`'s .aws-sam/build)
to an S3 bucket in moto (`sam package` against AWS_ENDPOINT_URL); SAM's own translator turns the
packaged template into plain CloudFormation with that environment's parameter_overrides (moto
runs no transforms, so `sam deploy`'s change set cannot be created there); moto's CloudFormation
creates the stack; then every resource of the template (its conditions evaluated for the
environment) must be in the stack and every output readable. A resource type moto cannot create
is listed by name with the reason (MOTO_CANNOT_CREATE, docs/decisions.md); any other missing
resource, a missing or invalid parameter, or a failed stack fails the rehearsal.

    python -m infra.deploy_rehearsal [--build-dir .aws-sam/build] [--env dev staging prod]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAM_PYTHON = ROOT / ".venv-sam/bin/python"
SAM = ROOT / ".venv-sam/bin/sam"
REGION = "eu-west-2"

# Resource types moto 5.2.1's CloudFormation has no model for, and why the rehearsal can live with
# it. They are left out of the template moto gets (a reference to one becomes a placeholder) and
# listed by name in the output; a type missing here fails the rehearsal. docs/decisions.md.
MOTO_CANNOT_CREATE = {
    "AWS::ApiGateway::Deployment": "moto's RestApi ignores the OpenAPI Body SAM writes: no method to deploy",
    "AWS::ApiGateway::Stage": "no model (and no deployment, above); the RestApi itself is created",
    "AWS::CloudFront::Distribution": "no CloudFront models in moto's CloudFormation",
    "AWS::CloudFront::Function": "no CloudFront models in moto's CloudFormation",
    "AWS::CloudFront::OriginAccessControl": "no CloudFront models in moto's CloudFormation",
    "AWS::CloudFront::ResponseHeadersPolicy": "no CloudFront models in moto's CloudFormation",
    "AWS::CloudWatch::Alarm": "no model; made with PutMetricAlarm from the same properties instead",
    "AWS::CloudWatch::Dashboard": "no model; made with PutDashboard from the same body instead",
    "AWS::Cognito::IdentityPool": "no Cognito identity models",
    "AWS::Cognito::IdentityPoolRoleAttachment": "no Cognito identity models",
    "AWS::KinesisFirehose::DeliveryStream": "no Firehose model",
    "AWS::Lambda::EventInvokeConfig": "no model (the async retry and OnFailure settings)",
    "AWS::S3::BucketPolicy": "no model",
    "AWS::SES::ConfigurationSet": "no SES models",
    "AWS::SES::ConfigurationSetEventDestination": "no SES models",
    "AWS::SNS::Subscription": "no model (EmailEventsFunction's SES events; AlarmEmail's, when set)",
    "AWS::SNS::TopicPolicy": "no model",
    "AWS::SQS::QueuePolicy": "no model",
    "AWS::SecretsManager::Secret": "no model in moto 5.2.1's CloudFormation",
}


def for_moto(translated: dict[str, Any], supported: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The template without the resources moto cannot create, references to them as placeholders."""
    left_out = {k: v["Type"] for k, v in translated["Resources"].items() if v["Type"] not in supported}

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"Ref"} and value["Ref"] in left_out:
                return f"moto-cannot-create-{value['Ref']}"
            if set(value) == {"Fn::GetAtt"} and value["Fn::GetAtt"][0] in left_out:
                return f"moto-cannot-create-{value['Fn::GetAtt'][0]}"
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, str) and "${" in value:
            return re.sub(
                r"\$\{([A-Za-z0-9]+)(\.[A-Za-z.]+)?\}",
                lambda m: f"moto-cannot-create-{m.group(1)}" if m.group(1) in left_out else m.group(0),
                value,
            )
        return value

    body = clean(
        {**translated, "Resources": {k: v for k, v in translated["Resources"].items() if k not in left_out}}
    )
    for resource in body["Resources"].values():
        depends = resource.get("DependsOn")
        if depends:
            kept = [d for d in ([depends] if isinstance(depends, str) else depends) if d not in left_out]
            resource["DependsOn"] = kept
            if not kept:
                del resource["DependsOn"]
    return body, left_out


def environments() -> dict[str, dict[str, Any]]:
    """samconfig.toml's environments that deploy a stack, with their parameter overrides."""
    config = tomllib.loads((ROOT / "samconfig.toml").read_text())
    found = {}
    for name, sections in config.items():
        deploy = sections.get("deploy", {}).get("parameters", {}) if isinstance(sections, dict) else {}
        if name != "default" and deploy.get("stack_name"):
            overrides = dict(
                item.split("=", 1) for item in shlex.split(deploy.get("parameter_overrides", ""))
            )
            found[name] = {
                "stack": deploy["stack_name"],
                "overrides": overrides,
                "capabilities": deploy["capabilities"],
            }
    return found


def check_parameters(template: dict[str, Any], overrides: dict[str, str]) -> dict[str, str]:
    """Every parameter without a default given, every value allowed: what CloudFormation refuses."""
    values = {}
    for name, spec in template.get("Parameters", {}).items():
        if name in overrides:
            value = overrides[name]
        elif "Default" in spec:
            value = str(spec["Default"])
        else:
            raise SystemExit(f"parameter {name} has no default and samconfig.toml does not give it")
        allowed = [str(v) for v in spec.get("AllowedValues", [])]
        if allowed and value not in allowed:
            raise SystemExit(f"parameter {name}={value!r} is not one of {allowed}")
        if spec.get("AllowedPattern") and not re.fullmatch(spec["AllowedPattern"], value):
            raise SystemExit(f"parameter {name}={value!r} does not match {spec['AllowedPattern']}")
        values[name] = value
    unknown = set(overrides) - set(values)
    if unknown:
        raise SystemExit(f"samconfig.toml overrides parameters the template does not have: {sorted(unknown)}")
    return values


def _condition(expr: Any, conditions: dict[str, Any], params: dict[str, str]) -> Any:
    if isinstance(expr, dict):
        (key, arg), *_ = expr.items()
        if key == "Fn::Equals":
            return _condition(arg[0], conditions, params) == _condition(arg[1], conditions, params)
        if key == "Fn::Not":
            return not _condition(arg[0], conditions, params)
        if key == "Fn::And":
            return all(_condition(a, conditions, params) for a in arg)
        if key == "Fn::Or":
            return any(_condition(a, conditions, params) for a in arg)
        if key == "Condition":
            return _condition(conditions[arg], conditions, params)
        if key == "Ref":
            return params[arg]
    return expr


def expected_resources(translated: dict[str, Any], params: dict[str, str]) -> dict[str, str]:
    conditions = translated.get("Conditions", {})
    return {
        logical: resource["Type"]
        for logical, resource in translated["Resources"].items()
        if "Condition" not in resource or _condition({"Condition": resource["Condition"]}, conditions, params)
    }


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603 (our own tools)
    if done.returncode:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(command[:3])} ...")


def _aws_env(endpoint: str) -> dict[str, str]:
    return {
        **os.environ,
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "SAM_CLI_TELEMETRY": "0",
    }


def package(build_dir: Path, endpoint: str, work: Path) -> tuple[Path, int]:
    """`sam package` of the built template to a bucket in moto: the code and the layer zipped and
    uploaded, the template pointing at them. The same artifacts serve every environment, as one
    build serves every `make deploy ENV=...`."""
    import boto3

    bucket = "tandem-rehearsal-artifacts"
    s3 = boto3.client("s3", region_name=REGION, endpoint_url=endpoint)
    s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": REGION})
    work.mkdir(parents=True, exist_ok=True)
    packaged = work / "packaged.yaml"
    command = [
        str(SAM),
        "package",
        "--template-file",
        str(build_dir / "template.yaml"),
        "--s3-bucket",
        bucket,
    ]
    _run([*command, "--output-template-file", str(packaged), "--region", REGION], _aws_env(endpoint))
    return packaged, s3.list_objects_v2(Bucket=bucket).get("KeyCount", 0)


def rehearse(name: str, spec: dict[str, Any], packaged: Path, endpoint: str, work: Path) -> list[str]:
    import boto3

    env = _aws_env(endpoint)
    out = work / name
    out.mkdir(parents=True, exist_ok=True)
    translated_path = out / "translated.json"
    params = check_parameters(_parse(packaged.read_text()), spec["overrides"])
    _run(
        [
            str(SAM_PYTHON),
            str(ROOT / "infra/sam_translate.py"),
            str(packaged),
            str(translated_path),
            *[f"{k}={v}" for k, v in params.items()],
        ],
        env,
    )
    translated = json.loads(translated_path.read_text())
    cfn = boto3.client("cloudformation", region_name=REGION, endpoint_url=endpoint)
    from moto.cloudformation.parsing import get_model_map

    body, left_out = for_moto(translated, set(get_model_map()) - {"AWS::ApiGateway::Deployment"})
    unknown = {kind for kind in left_out.values() if kind not in MOTO_CANNOT_CREATE}
    if unknown:
        raise SystemExit(f"{name}: moto cannot create {sorted(unknown)}: say why in MOTO_CANNOT_CREATE")
    cfn.create_stack(
        StackName=spec["stack"],
        TemplateBody=json.dumps(body),
        Parameters=[{"ParameterKey": k, "ParameterValue": v} for k, v in spec["overrides"].items()],
        Capabilities=spec["capabilities"].split(),
    )
    while True:
        (stack,) = cfn.describe_stacks(StackName=spec["stack"])["Stacks"]
        if not stack["StackStatus"].endswith("_IN_PROGRESS"):
            break
        time.sleep(0.2)
    if stack["StackStatus"] != "CREATE_COMPLETE":
        events = cfn.describe_stack_events(StackName=spec["stack"])["StackEvents"]
        reasons = [
            f"{e['LogicalResourceId']}: {e.get('ResourceStatusReason')}"
            for e in events
            if "FAILED" in e["ResourceStatus"]
        ]
        raise SystemExit(f"{name}: stack {stack['StackStatus']}: {reasons[:5]}")
    created = {
        r["LogicalResourceId"]
        for page in cfn.get_paginator("list_stack_resources").paginate(StackName=spec["stack"])
        for r in page["StackResourceSummaries"]
    }
    expected = expected_resources(translated, params)
    missing = {logical: kind for logical, kind in expected.items() if logical not in created}
    physical = {
        r["LogicalResourceId"]: r["PhysicalResourceId"]
        for page in cfn.get_paginator("list_stack_resources").paginate(StackName=spec["stack"])
        for r in page["StackResourceSummaries"]
    }
    created |= put_through_the_api(translated, expected, physical, params, endpoint)
    missing = {logical: kind for logical, kind in expected.items() if logical not in created}
    unexplained = {logical: kind for logical, kind in missing.items() if kind not in MOTO_CANNOT_CREATE}
    outputs = {o["OutputKey"] for o in stack.get("Outputs", [])}
    lines = [
        f"{name}: {spec['stack']} CREATE_COMPLETE in moto; "
        f"{len(expected) - len(missing)} of {len(expected)} resources created; outputs: {sorted(outputs)}"
    ]
    for kind in sorted(set(missing.values()) - set(unexplained.values())):
        names = sorted(logical for logical, k in missing.items() if k == kind)
        lines.append(f"  moto cannot create {kind} ({MOTO_CANNOT_CREATE[kind]}): {', '.join(names)}")
    if unexplained:
        raise SystemExit(f"{name}: resources missing from the stack: {unexplained}\n" + "\n".join(lines))
    return lines


def _resolver(physical: dict[str, str], params: dict[str, str]) -> Any:
    pseudo = {"AWS::Region": REGION, "AWS::AccountId": "123456789012", "AWS::Partition": "aws"}

    def attribute(logical: str, name: str) -> str:
        if name == "QueueName":
            return physical[logical].rsplit("/", 1)[-1]  # a queue's physical id is its URL
        raise SystemExit(f"the rehearsal cannot resolve {logical}.{name}")

    def value_of(name: str) -> str:
        if "." in name:
            return attribute(*name.split(".", 1))
        return params.get(name) or pseudo.get(name) or physical[name]

    def resolve(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"Ref"}:
                return value_of(value["Ref"])
            if set(value) == {"Fn::GetAtt"}:
                return attribute(*value["Fn::GetAtt"])
            if set(value) == {"Fn::Sub"}:
                return re.sub(r"\$\{([A-Za-z0-9:.]+)\}", lambda m: value_of(m.group(1)), value["Fn::Sub"])
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value

    return resolve


def put_through_the_api(
    translated: dict[str, Any],
    expected: dict[str, str],
    physical: dict[str, str],
    params: dict[str, str],
    endpoint: str,
) -> set[str]:
    """The alarms and the dashboard, which moto's CloudFormation cannot create, made with the
    CloudWatch API from the same properties (their references resolved against the stack), then
    read back: a malformed alarm or dashboard body fails here."""
    import boto3

    cloudwatch = boto3.client("cloudwatch", region_name=REGION, endpoint_url=endpoint)
    resolve = _resolver(physical, params)
    made = set()
    for logical, kind in expected.items():
        if kind not in ("AWS::CloudWatch::Alarm", "AWS::CloudWatch::Dashboard"):
            continue
        props = resolve(translated["Resources"][logical]["Properties"])
        if kind == "AWS::CloudWatch::Alarm":
            cloudwatch.put_metric_alarm(**props)
            (alarm,) = cloudwatch.describe_alarms(AlarmNames=[props["AlarmName"]])["MetricAlarms"]
            assert alarm["AlarmActions"] == props["AlarmActions"], logical
            made.add(logical)
        elif kind == "AWS::CloudWatch::Dashboard":
            json.loads(props["DashboardBody"])
            cloudwatch.put_dashboard(
                DashboardName=props["DashboardName"], DashboardBody=props["DashboardBody"]
            )
            assert cloudwatch.get_dashboard(DashboardName=props["DashboardName"])["DashboardBody"]
            made.add(logical)
    return made


def _parse(text: str) -> dict[str, Any]:
    from infra.observability import _parse as parse

    return parse(text)


def main(argv: list[str] | None = None) -> int:
    from moto.server import ThreadedMotoServer

    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default=str(ROOT / ".aws-sam/build"))
    parser.add_argument("--env", nargs="*")
    args = parser.parse_args(argv)
    build_dir = Path(args.build_dir)
    if not (build_dir / "template.yaml").is_file():
        raise SystemExit(f"{build_dir}/template.yaml missing: run sam build first (make sam-build)")
    envs = environments()
    chosen = args.env or sorted(envs)
    started = time.perf_counter()
    # moto's credentials for every client here, whatever the shell holds: never a real account
    os.environ.update(
        {name: "testing" for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")}
    )
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no access log line per request
    warnings.filterwarnings("ignore", message=".*not supported by moto's CloudFormation.*")  # listed below
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{server._server.server_port}"  # the port it bound
        work = ROOT / ".local/rehearsal"
        packaged, uploaded = package(build_dir, endpoint, work)
        print(f"sam package: {uploaded} artifacts uploaded to moto S3, {time.perf_counter() - started:.1f} s")
        for name in chosen:
            for line in rehearse(name, envs[name], packaged, endpoint, work):
                print(line)
    finally:
        server.stop()
    print(f"BENCH deploy_rehearsal_s {time.perf_counter() - started:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
