"""`sam local` against the data of a running `make dev` (README "With Docker: sam local").

`sam local start-api` and `sam local invoke` run each function in a Docker container; the
running local stack's moto is the AWS those containers talk to, so they see and change the
same table, queues, state machines and secrets as `make dev`. Two files make that work:

- the env-vars file (`--env-vars`): for every function of template.yaml, the variables the
  local stack gives it (template Globals + the function's own, resolved for the local stage,
  as infra/local/template.py resolves them for the stack), with `AWS_ENDPOINT_URL` at moto as
  a container reaches it and the stack's own overrides (SITE_URL, ASSETS_UPLOAD_URL);
- `template.sam-local.json` beside `sam build`'s template: the same built template with every
  function also *declaring* the variables only the local stack sets. SAM CLI (1.170,
  samcli/local/lambdafn/env_vars.py) applies an env-vars file only to the variables the
  template declares for a function, and template.yaml rightly declares no AWS_ENDPOINT_URL:
  without the declaration the containers would silently talk to real AWS.

`check-build` imports every function's handler from `sam build`'s output with only that
function's variables from the env-vars file and nothing on the path but its code, the built
core layer and what the Lambda runtime provides (boto3 and its own dependencies), and fails
naming each function whose handler does not import so (make ci-sam runs it).

    python -m infra.sam_local prepare --build-dir .aws-sam/build --endpoint http://host.docker.internal:5005
    python -m infra.sam_local check-build --build-dir .aws-sam/build
    python -m infra.sam_local check-sam-local --build-dir .aws-sam/build
    python -m infra.sam_local events      # rewrite the generated sample events under events/
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from infra.local.template import ACCOUNT, REGION, ROOT, build_plan

ENV_FILE = "sam-local-env.json"  # written beside the build dir (.aws-sam/sam-local-env.json)
TEMPLATE_FILE = "template.sam-local.json"  # written into the build dir, beside template.yaml
EVENTS = ROOT / "events"
# What the local stack sets for every function beyond template.yaml (infra/local/stack.py).
LOCAL_ONLY = ("AWS_ENDPOINT_URL", "ASSETS_UPLOAD_URL")
# What the Lambda Python 3.11 runtime provides, so the core layer leaves it out (its Makefile).
RUNTIME_PROVIDED = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six")


def environments(endpoint: str, stack_url: str = "http://127.0.0.1:8080") -> dict[str, dict[str, str]]:
    """Every function's variables as the running local stack gives them, by logical id.
    `endpoint`: moto as the containers reach it; `stack_url`: the `make dev` site, which
    browsers open (links in emails, logo uploads)."""
    plan = build_plan()
    queues = {
        logical_id: f"{endpoint}/{ACCOUNT}/{queue['name']}" for logical_id, queue in plan.queues.items()
    }
    plan = build_plan(queue_urls=queues)  # queue URLs as moto gives them (the host does not route)
    stack_url = stack_url.rstrip("/")
    out: dict[str, dict[str, str]] = {}
    for logical_id, spec in plan.functions.items():
        env = dict(spec.environment)
        env.update(
            AWS_ENDPOINT_URL=endpoint,
            SITE_URL=stack_url,  # as the stack sets it: emails link to the local site
            ASSETS_UPLOAD_URL=f"{stack_url}/__local/assets-upload",
        )
        out[logical_id] = dict(sorted(env.items()))
    return out


def _load_built_template(path: Path) -> dict[str, Any]:
    """sam build's template (YAML with CloudFormation short forms), short forms as long ones."""
    import yaml

    from infra.local.template import _construct_intrinsic

    loader = type("BuiltTemplateLoader", (getattr(yaml, "CSafeLoader", yaml.SafeLoader),), {})
    loader.add_multi_constructor("!", _construct_intrinsic)
    return yaml.load(path.read_text(), Loader=loader)  # noqa: S506 (a safe loader)


def sam_local_template(built: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The built template with every function declaring `names` too (their values come from
    the env-vars file; a declaration SAM CLI finds nothing for is left empty)."""
    out = json.loads(json.dumps(built))
    for resource in out["Resources"].values():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        variables = (
            resource.setdefault("Properties", {}).setdefault("Environment", {}).setdefault("Variables", {})
        )
        for name in names:
            variables.setdefault(name, "")
    return out


def prepare(build_dir: Path, endpoint: str, stack_url: str) -> tuple[Path, Path]:
    """Write the env-vars file and the sam-local template for `sam build`'s output."""
    envs = environments(endpoint, stack_url)
    template = sam_local_template(_load_built_template(build_dir / "template.yaml"), list(LOCAL_ONLY))
    template_path = build_dir / TEMPLATE_FILE
    template_path.write_text(json.dumps(template, indent=1) + "\n")
    env_path = build_dir.parent / ENV_FILE
    env_path.write_text(json.dumps(envs, indent=2) + "\n")
    return env_path, template_path


# ---------------------------------------------------------------- importable from the build

# Run with -S (no site-packages): the function's code, the built layer and the runtime's own
# packages are all there is on the path, as in Lambda.
_IMPORT_CHECK = r"""
import importlib, json, sys
code, layer, runtime, handler = sys.argv[1:5]
sys.path[:0] = [code, layer, runtime]
module, _, attr = handler.rpartition(".")
target = getattr(importlib.import_module(module), attr)
assert callable(target), f"{handler} is not callable"
"""


def _runtime_packages(into: Path) -> Path:
    """A folder with only what the Lambda runtime adds to the path (RUNTIME_PROVIDED), linked
    from this interpreter's own installs."""
    import importlib.util

    for name in RUNTIME_PROVIDED:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise RuntimeError(f"{name} is not installed here: make deps")
        source = Path(spec.origin)
        source = source.parent if source.name == "__init__.py" else source
        (into / source.name).symlink_to(source)
    return into


def _built_functions(build_dir: Path) -> dict[str, tuple[Path, str]]:
    built = _load_built_template(build_dir / "template.yaml")
    out = {}
    for logical_id, resource in built["Resources"].items():
        if resource.get("Type") == "AWS::Serverless::Function":
            props = resource["Properties"]
            out[logical_id] = ((build_dir / props["CodeUri"]).resolve(), props["Handler"])
    return out


def check_build(build_dir: Path, python: str = sys.executable) -> list[str]:
    """Problems with importing each function's handler from the build (empty: none)."""
    layer = (build_dir / "CoreLayer" / "python").resolve()
    if not layer.is_dir():
        return [f"{layer} is missing: run sam build first"]
    envs = environments("http://127.0.0.1:9")  # nothing listens: an import that calls AWS fails
    functions = _built_functions(build_dir)
    missing = sorted(set(envs) - set(functions))
    problems = [f"{name}: in template.yaml but not in the build" for name in missing]

    def one(item: tuple[str, tuple[Path, str]], runtime: Path) -> str | None:
        logical_id, (code, handler) = item
        env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}  # noqa: S108
        env.update(envs[logical_id])
        env.update(
            AWS_REGION=REGION,
            AWS_DEFAULT_REGION=REGION,
            AWS_ACCESS_KEY_ID="local",
            AWS_SECRET_ACCESS_KEY="local",  # noqa: S106 (moto's, not a secret)
            AWS_MAX_ATTEMPTS="1",
            PYTHONNOUSERSITE="1",
            POWERTOOLS_TRACE_DISABLED="1",
        )
        done = subprocess.run(  # noqa: S603 (our own interpreter and arguments)
            [python, "-S", "-c", _IMPORT_CHECK, str(code), str(layer), str(runtime), handler],
            env=env,
            cwd="/",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            return f"{logical_id}: {handler} does not import from {code}: {last}"
        return None

    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(max_workers=2) as pool:
        runtime = _runtime_packages(Path(folder))
        problems += [p for p in pool.map(lambda item: one(item, runtime), sorted(functions.items())) if p]
    return problems


def compare_with_sam(answer: dict[str, Any], envs: dict[str, dict[str, str]]) -> list[str]:
    """Problems between what SAM CLI would give the containers (infra/sam_local_probe.py's
    answer) and the env-vars file / template.yaml's routes (empty: none)."""
    problems = []
    for logical_id, wanted in sorted(envs.items()):
        got = answer["env"].get(logical_id)
        if got is None:
            problems.append(f"{logical_id}: sam local does not see this function")
            continue
        wrong = sorted(name for name, value in wanted.items() if got.get(name) != value)
        if wrong:
            problems.append(
                f"{logical_id}: sam local would not give it {', '.join(wrong)} from the env-vars file"
            )
    routes = {f"{r.method} {r.path} {r.function}" for r in build_plan().routes}
    mounted = {route.upper().split(" ", 1)[0] + " " + route.split(" ", 1)[1] for route in answer["routes"]}
    for route in sorted(routes - mounted):
        problems.append(f"sam local start-api would not mount {route}")
    return problems


def check_sam_local(build_dir: Path) -> list[str]:
    """Ask SAM CLI (its own venv) what it would give each container from the prepared files."""
    env_path, template_path = build_dir.parent / ENV_FILE, build_dir / TEMPLATE_FILE
    done = subprocess.run(  # noqa: S603
        [
            str(ROOT / ".venv-sam/bin/python"),
            str(ROOT / "infra/sam_local_probe.py"),
            str(template_path),
            str(env_path),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SAM_CLI_TELEMETRY": "0"},
    )
    return compare_with_sam(json.loads(done.stdout), json.loads(env_path.read_text()))


# ---------------------------------------------------------------- sample events

SAM = ROOT / ".venv-sam/bin/sam"
SAMPLE_EMAIL = {
    "channel": "email",
    "to": "demo@tandem.local",
    "subject": "Hello from sam local",
    "text": "This message came through the NotifierFunction run by sam local invoke.",
}
SAMPLE_BOUNCE = {
    "eventType": "Bounce",
    "bounce": {
        "bounceType": "Permanent",
        "bounceSubType": "General",
        "bouncedRecipients": [
            {"emailAddress": "bounce@simulator.amazonses.com", "diagnosticCode": "smtp; 550 5.1.1"}
        ],
    },
    "mail": {"source": "hello@tandem.example.com", "destination": ["bounce@simulator.amazonses.com"]},
}


def _generate(*args: str) -> dict[str, Any]:
    """One `sam local generate-event` (its text fields are pasted into JSON unescaped, so a
    JSON body is passed already escaped)."""
    done = subprocess.run(  # noqa: S603
        [str(SAM), "local", "generate-event", *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SAM_CLI_TELEMETRY": "0"},
    )
    return json.loads(done.stdout)


def _escaped(value: dict[str, Any]) -> str:
    return json.dumps(json.dumps(value))[1:-1]


def generated_events() -> dict[str, dict[str, Any]]:
    """The sample events `sam local generate-event` makes, and the scheduler's (the template's
    schedule inputs), by path under events/. The workflow tasks' events were recorded from
    executions on the local stack (events/README.md)."""
    plan = build_plan()
    queue = plan.queues["NotificationsQueue"]["name"]
    topic = plan.topics["EmailEventsTopic"]
    bounce = _generate(
        "sns",
        "notification",
        "--region",
        REGION,
        "--topic",
        topic,
        "--subject",
        "Amazon SES Email Event Notification",
        "--message",
        _escaped(SAMPLE_BOUNCE),
    )
    for record in bounce["Records"]:  # the generator's placeholders, as SNS really fills them
        sns = record["Sns"]
        record["EventSubscriptionArn"] = f"{sns['TopicArn']}:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55"
        sns["SigningCertUrl"] = f"https://sns.{REGION}.amazonaws.com/SimpleNotificationService-example.pem"
        sns["UnsubscribeUrl"] = (
            f"https://sns.{REGION}.amazonaws.com/?Action=Unsubscribe&SubscriptionArn={record['EventSubscriptionArn']}"
        )
    out = {
        "NotifierFunction/email.json": _generate(
            "sqs",
            "receive-message",
            "--region",
            REGION,
            "--queue-name",
            queue,
            "--body",
            _escaped(SAMPLE_EMAIL),
        ),
        "EmailEventsFunction/bounce.json": bounce,
        "ApiFunction/health.json": _generate(
            "apigateway",
            "aws-proxy",
            "--method",
            "GET",
            "--path",
            "api/health",
            "--resource",
            "/api/health",
            "--stage",
            "local",
            "--body",
            "",
        ),
    }
    for schedule in plan.schedules:
        out[f"SchedulerFunction/{schedule.input['job']}.json"] = schedule.input
    return out


def write_events() -> list[Path]:
    written = []
    for relative, event in generated_events().items():
        path = EVENTS / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(event, indent=2) + "\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="the env-vars file and the sam-local template")
    prep.add_argument("--build-dir", type=Path, default=ROOT / ".aws-sam/build")
    prep.add_argument("--endpoint", required=True, help="moto as a container reaches it")
    prep.add_argument("--stack-url", default="http://127.0.0.1:8080", help="the make dev site")
    check = sub.add_parser("check-build", help="every handler imports from sam build's output")
    check.add_argument("--build-dir", type=Path, default=ROOT / ".aws-sam/build")
    probe = sub.add_parser("check-sam-local", help="SAM CLI gives each function the env-vars file's values")
    probe.add_argument("--build-dir", type=Path, default=ROOT / ".aws-sam/build")
    sub.add_parser("events", help="rewrite the generated sample events under events/")
    args = parser.parse_args(argv)
    if args.command == "prepare":
        env_path, template_path = prepare(args.build_dir, args.endpoint, args.stack_url)
        print(f"{env_path}\n{template_path}")
        return 0
    if args.command in ("check-build", "check-sam-local"):
        check = check_build if args.command == "check-build" else check_sam_local
        problems = check(args.build_dir)
        for problem in problems:
            print(problem, file=sys.stderr)
        if not problems and args.command == "check-build":
            print(f"Every function's handler imports from {args.build_dir} with its sam-local variables.")
        elif not problems:
            print("sam local gives every function the env-vars file's variables and mounts every route.")
        return 1 if problems else 0
    for path in write_events():
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
