"""Read template.yaml and resolve what the local stack and the tests need from it.

The template is the only description of the system: tables, functions (code and handler),
state machines (with their DefinitionSubstitutions), queues, buckets, secrets and API routes
are all read from it here, so local and test resources cannot drift from production.
Intrinsics are resolved for a local account/region; names and ARNs are deterministic.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
ACCOUNT = "123456789012"
REGION = "eu-west-2"
LOCAL_STAGE = "local"
FUNCTION = "AWS::Serverless::Function"
STATE_MACHINE = "AWS::Serverless::StateMachine"


@dataclass(frozen=True)
class ApiRoute:
    path: str
    method: str
    function: str  # logical id


@dataclass
class FunctionSpec:
    logical_id: str
    name: str
    code_dir: Path
    handler: str
    environment: dict[str, str]
    timeout: int


@dataclass
class StateMachineSpec:
    logical_id: str
    name: str
    arn: str
    definition: str


@dataclass(frozen=True)
class ScheduleSpec:
    """An EventBridge schedule of a function (its Events of Type Schedule)."""

    name: str  # the event's logical id, e.g. ExpireFeatures
    function: str  # logical id of the function it invokes
    expression: str  # rate(...) or cron(...)
    input: dict[str, Any]  # the event the function gets


@dataclass
class LocalPlan:
    table: dict[str, Any]
    functions: dict[str, FunctionSpec]
    state_machines: dict[str, StateMachineSpec]
    queues: dict[str, dict[str, Any]]
    buckets: dict[str, str]
    secrets: dict[str, str]  # logical id -> secret name
    routes: list[ApiRoute]
    sqs_triggers: list[tuple[str, str, int]] = field(default_factory=list)  # queue, fn, batch
    topics: dict[str, str] = field(default_factory=dict)  # logical id -> topic name
    sns_triggers: list[tuple[str, str]] = field(default_factory=list)  # topic, fn
    configuration_sets: list[str] = field(default_factory=list)  # SES configuration set names
    environment: dict[str, str] = field(default_factory=dict)  # union of all function env
    schedules: list[ScheduleSpec] = field(default_factory=list)  # EventBridge schedules


def _construct_intrinsic(loader: Any, tag: str, node: Any) -> dict[str, Any]:
    """A CloudFormation short form (`!Ref X`, `!Sub ...`, `!GetAtt A.B`, `!If [...]`) as its
    long form ({"Ref": "X"}, {"Fn::Sub": ...}, {"Fn::GetAtt": ["A", "B"]}, ...)."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if tag == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {"Ref" if tag == "Ref" else f"Fn::{tag}": value}


@lru_cache(maxsize=1)
def load_template() -> dict[str, Any]:
    """template.yaml as data, the short forms in their long form: PyYAML's C loader and one
    constructor, as cfn-lint's decoder reads it (tests/unit/test_template.py compares them)
    but without importing cfn-lint, which cost the local stack 1 s of CPU at every start."""
    import yaml

    loader = type("CloudFormationLoader", (getattr(yaml, "CSafeLoader", yaml.SafeLoader),), {})
    loader.add_multi_constructor("!", _construct_intrinsic)
    template = yaml.load(TEMPLATE.read_text(), Loader=loader)  # noqa: S506 (a safe loader)
    if not isinstance(template, dict) or "Resources" not in template:
        raise RuntimeError("template.yaml does not parse as a CloudFormation template")
    return template


class Resolver:
    """Resolves Ref / GetAtt / Sub / If / Equals for the local account, region and stage."""

    def __init__(self, template: dict[str, Any], stage: str, queue_urls: dict[str, str]):
        self.template = template
        self.resources = template["Resources"]
        self.stage = stage
        self.queue_urls = queue_urls
        self.parameters = {name: spec.get("Default") for name, spec in template.get("Parameters", {}).items()}
        self.parameters["Stage"] = stage
        self.pseudo = {
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT,
            "AWS::Partition": "aws",
            "AWS::StackName": f"tandem-{stage}",
            "AWS::URLSuffix": "amazonaws.com",
        }

    def name_of(self, logical_id: str) -> str:
        resource = self.resources[logical_id]
        props = resource.get("Properties", {})
        kind = resource["Type"]
        for key in ("TableName", "QueueName", "BucketName", "TopicName", "Name", "FunctionName"):
            if key in props:
                return str(self.resolve(props[key]))
        if kind == FUNCTION:
            return f"tandem-{self.stage}-{logical_id}"
        return f"tandem-{self.stage}-{logical_id}".lower()

    def arn_of(self, logical_id: str) -> str:
        kind = self.resources[logical_id]["Type"]
        name = self.name_of(logical_id)
        if kind == FUNCTION:
            return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"
        if kind == STATE_MACHINE:
            return f"arn:aws:states:{REGION}:{ACCOUNT}:stateMachine:{name}"
        if kind == "AWS::SQS::Queue":
            return f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"
        if kind == "AWS::SNS::Topic":
            return f"arn:aws:sns:{REGION}:{ACCOUNT}:{name}"
        if kind == "AWS::DynamoDB::Table":
            return f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
        if kind == "AWS::SecretsManager::Secret":
            return f"arn:aws:secretsmanager:{REGION}:{ACCOUNT}:secret:{name}"
        if kind == "AWS::S3::Bucket":
            return f"arn:aws:s3:::{name}"
        return f"arn:aws:local:{REGION}:{ACCOUNT}:{logical_id}"

    def ref(self, target: str) -> str:
        if target in self.pseudo:
            return self.pseudo[target]
        if target in self.parameters:
            value = self.parameters[target]
            return ",".join(value) if isinstance(value, list) else str(value)
        kind = self.resources[target]["Type"]
        if kind == "AWS::SQS::Queue":
            return self.queue_urls.get(target, self.name_of(target))
        if kind in (
            STATE_MACHINE,
            "AWS::SecretsManager::Secret",
            "AWS::Serverless::LayerVersion",
            "AWS::SNS::Topic",
        ):
            return self.arn_of(target)
        return self.name_of(target)

    def get_att(self, target: str, attribute: str) -> str:
        if attribute == "Arn":
            return self.arn_of(target)
        if attribute in ("Name", "QueueName"):
            return self.name_of(target)
        if attribute == "QueueUrl":
            return self.ref(target)
        return f"{target}.{attribute}.local"

    def condition(self, name: str) -> bool:
        return bool(self.resolve(self.template.get("Conditions", {})[name]))

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Fn::GetAtt":
                target, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                return self.get_att(target, attribute)
            if key == "Fn::Sub":
                return self._sub(arg)
            if key == "Fn::If":
                cond, yes, no = arg
                return self.resolve(yes if self.condition(cond) else no)
            if key == "Fn::Equals":
                left, right = (self.resolve(v) for v in arg)
                return left == right
            if key == "Fn::Join":
                sep, parts = arg
                return sep.join(str(p) for p in self.resolve(parts))
        return {k: self.resolve(v) for k, v in value.items()}

    def _sub(self, arg: Any) -> str:
        text, extra = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])

        def replace(match: re.Match[str]) -> str:
            token = match.group(1)
            if token in extra:
                return str(self.resolve(extra[token]))
            if "." in token and token.split(".", 1)[0] in self.resources:
                return self.get_att(*token.split(".", 1))
            return self.ref(token)

        return re.sub(r"\$\{([^}!]+)\}", replace, text)


def _substitute(definition: str, substitutions: dict[str, str]) -> str:
    for key, value in substitutions.items():
        definition = definition.replace("${" + key + "}", value)
    left = re.findall(r"\$\{[A-Za-z0-9_]+\}", definition)
    if left:
        raise RuntimeError(f"Unsubstituted placeholders in state machine: {left}")
    return definition


def _code_dir(logical_id: str, code_uri: str) -> Path:
    """A function's code: its CodeUri in the repository, or, on a stack started from the
    `sam build` output (LOCAL_BUILD_DIR, infra/local/artifact.py), the folder sam build made
    for it."""
    from infra.local.artifact import build_dir

    build = build_dir()
    return build / logical_id if build is not None else ROOT / code_uri


def build_plan(stage: str = LOCAL_STAGE, queue_urls: dict[str, str] | None = None) -> LocalPlan:
    template = load_template()
    resolver = Resolver(template, stage, queue_urls or {})
    resources = template["Resources"]
    globals_fn = template.get("Globals", {}).get("Function", {})
    global_env = resolver.resolve(globals_fn.get("Environment", {}).get("Variables", {}))

    table: dict[str, Any] = {}
    functions: dict[str, FunctionSpec] = {}
    machines: dict[str, StateMachineSpec] = {}
    queues: dict[str, dict[str, Any]] = {}
    buckets: dict[str, str] = {}
    secrets: dict[str, str] = {}
    routes: list[ApiRoute] = []
    triggers: list[tuple[str, str, int]] = []
    topics: dict[str, str] = {}
    sns_triggers: list[tuple[str, str]] = []
    configuration_sets: list[str] = []
    union_env: dict[str, str] = {}
    schedules: list[ScheduleSpec] = []

    for logical_id, resource in resources.items():
        kind = resource["Type"]
        props = resource.get("Properties", {})
        if kind == "AWS::DynamoDB::Table":
            table = {"logical_id": logical_id, **resolver.resolve(props)}
        elif kind == FUNCTION:
            env = dict(global_env)
            env.update(resolver.resolve(props.get("Environment", {}).get("Variables", {})))
            env = {k: str(v) for k, v in env.items()}
            union_env.update(env)
            functions[logical_id] = FunctionSpec(
                logical_id=logical_id,
                name=resolver.name_of(logical_id),
                code_dir=_code_dir(logical_id, props["CodeUri"]),
                handler=props["Handler"],
                environment=env,
                timeout=int(props.get("Timeout", globals_fn.get("Timeout", 3))),
            )
            for event_id, event in props.get("Events", {}).items():
                eprops = event.get("Properties", {})
                if event["Type"] == "Api":
                    routes.append(ApiRoute(eprops["Path"], eprops["Method"].upper(), logical_id))
                elif event["Type"] == "SQS":
                    queue_logical = eprops["Queue"]["Fn::GetAtt"][0]
                    triggers.append((queue_logical, logical_id, int(eprops.get("BatchSize", 10))))
                elif event["Type"] == "SNS":
                    sns_triggers.append((eprops["Topic"]["Ref"], logical_id))
                elif event["Type"] == "Schedule":
                    raw = resolver.resolve(eprops.get("Input", "{}"))
                    schedules.append(
                        ScheduleSpec(
                            name=event_id,
                            function=logical_id,
                            expression=str(resolver.resolve(eprops["Schedule"])).strip(),
                            input=json.loads(raw) if isinstance(raw, str) else dict(raw),
                        )
                    )
        elif kind == STATE_MACHINE:
            text = (ROOT / props["DefinitionUri"]).read_text()
            subs = {k: str(resolver.resolve(v)) for k, v in props.get("DefinitionSubstitutions", {}).items()}
            machines[logical_id] = StateMachineSpec(
                logical_id=logical_id,
                name=resolver.name_of(logical_id),
                arn=resolver.arn_of(logical_id),
                definition=_substitute(text, subs),
            )
        elif kind == "AWS::SQS::Queue":
            queues[logical_id] = {"name": resolver.name_of(logical_id), **resolver.resolve(props)}
        elif kind == "AWS::S3::Bucket":
            buckets[logical_id] = resolver.name_of(logical_id)
        elif kind == "AWS::SecretsManager::Secret":
            secrets[logical_id] = resolver.name_of(logical_id)
        elif kind == "AWS::SNS::Topic":
            topics[logical_id] = resolver.name_of(logical_id)
        elif kind == "AWS::SES::ConfigurationSet":
            configuration_sets.append(resolver.name_of(logical_id))

    return LocalPlan(
        table=table,
        functions=functions,
        state_machines=machines,
        queues=queues,
        buckets=buckets,
        secrets=secrets,
        routes=routes,
        sqs_triggers=triggers,
        topics=topics,
        sns_triggers=sns_triggers,
        configuration_sets=configuration_sets,
        environment=union_env,
        schedules=schedules,
    )


@lru_cache(maxsize=1)
def spa_file_pattern() -> re.Pattern[str]:
    """Which paths CloudFront serves as files rather than the app's index.html: the `FILES`
    regular expression of the SpaFallbackFunction's code. The local server uses this same
    pattern, so the two cannot disagree (the JavaScript subset used is also valid Python)."""
    code = load_template()["Resources"]["SpaFallbackFunction"]["Properties"]["FunctionCode"]
    found = re.search(r"^\s*var FILES = /(.+)/;\s*$", str(code), re.MULTILINE)
    if found is None:
        raise RuntimeError("SpaFallbackFunction in template.yaml has no `var FILES = /.../;` line")
    return re.compile(found.group(1))


@dataclass(frozen=True)
class ResponseHeader:
    name: str
    value: str
    override: bool  # CloudFront replaces the origin's header; otherwise adds it only when absent


def _security_header(kind: str, config: dict[str, Any]) -> tuple[str, str]:
    if kind == "StrictTransportSecurity":
        value = f"max-age={int(config['AccessControlMaxAgeSec'])}"
        value += "; includeSubDomains" if config.get("IncludeSubdomains") else ""
        value += "; preload" if config.get("Preload") else ""
        return "Strict-Transport-Security", value
    if kind == "ContentTypeOptions":
        return "X-Content-Type-Options", "nosniff"
    if kind == "FrameOptions":
        return "X-Frame-Options", str(config["FrameOption"])
    if kind == "ReferrerPolicy":
        return "Referrer-Policy", str(config["ReferrerPolicy"])
    if kind == "ContentSecurityPolicy":
        return "Content-Security-Policy", " ".join(str(config["ContentSecurityPolicy"]).split())
    if kind == "XSSProtection":
        value = "1" if config.get("Protection") else "0"
        value += "; mode=block" if config.get("ModeBlock") else ""
        value += f"; report={config['ReportUri']}" if config.get("ReportUri") else ""
        return "X-XSS-Protection", value
    raise RuntimeError(
        f"SecurityHeadersPolicy in template.yaml has {kind}, which the local site cannot serve"
    )


@lru_cache(maxsize=1)
def security_headers() -> tuple[ResponseHeader, ...]:
    """The headers CloudFront's SecurityHeadersPolicy (template.yaml) adds to every answer, as
    CloudFront writes them: the local site serves exactly these, so the app and the e2e
    journeys run under the real CSP, HSTS, Permissions-Policy and the rest. A setting the
    translation does not know fails the local stack's start rather than being left out."""
    resource = load_template()["Resources"]["SecurityHeadersPolicy"]
    config = resource["Properties"]["ResponseHeadersPolicyConfig"]
    unknown = set(config) - {"Name", "Comment", "SecurityHeadersConfig", "CustomHeadersConfig"}
    if unknown:
        raise RuntimeError(
            f"SecurityHeadersPolicy in template.yaml has {sorted(unknown)}, not served locally"
        )
    headers = []
    for kind, settings in (config.get("SecurityHeadersConfig") or {}).items():
        name, value = _security_header(kind, settings)
        headers.append(ResponseHeader(name, value, bool(settings.get("Override"))))
    for item in (config.get("CustomHeadersConfig") or {}).get("Items", []):
        headers.append(ResponseHeader(str(item["Header"]), str(item["Value"]), bool(item.get("Override"))))
    return tuple(headers)


def with_security_headers(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """An answer's headers as CloudFront's response headers policy leaves them."""
    policy = security_headers()
    replaced = {h.name.lower() for h in policy if h.override}
    out = [(n, v) for n, v in headers if n.lower() not in replaced]
    present = {n.lower() for n, _ in out}
    out.extend((h.name, h.value) for h in policy if h.name.lower() not in present)
    return out


@cache
def gateway_response_headers(response_type: str) -> tuple[tuple[str, str], ...]:
    """The headers of one of API Gateway's own answers (RestApi GatewayResponses in
    template.yaml: MISSING_AUTHENTICATION_TOKEN for no route, DEFAULT_5XX for a function that
    failed), their single-quoted static values unquoted, as API Gateway sends them."""
    responses = load_template()["Resources"]["RestApi"]["Properties"].get("GatewayResponses", {})
    spec = responses.get(response_type) or {}
    found = (spec.get("ResponseParameters") or {}).get("Headers") or {}
    return tuple((str(name), str(value).strip("'")) for name, value in found.items())
