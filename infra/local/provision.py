"""Create the template's resources in moto (server or `mock_aws`), through boto3.

Used by the local stack and by the tests, so both run on exactly what template.yaml describes.
"""

from __future__ import annotations

import io
import json
import secrets
import zipfile
from typing import Any

import boto3

from infra.local import (
    lambda_inprocess,
    moto_dispatch,
    moto_faults,
    moto_isolation,
    moto_items,
    moto_sfn,
    moto_sqs,
)
from infra.local.template import ACCOUNT, REGION, LocalPlan, build_plan

LAMBDA_ROLE = "tandem-local-lambda"
STATES_ROLE = "tandem-local-states"
TABLE_KEYS = (
    "TableName",
    "AttributeDefinitions",
    "KeySchema",
    "GlobalSecondaryIndexes",
    "BillingMode",
)


def _client(service: str, endpoint_url: str | None) -> Any:
    return boto3.client(service, region_name=REGION, endpoint_url=endpoint_url)


def _placeholder_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", "Code runs in-process from the repository (infra/local).")
    return buffer.getvalue()


def new_encryption_key() -> str:
    from tandem.integrations.slack import new_encryption_key as new_key

    return new_key()


def _vapid_keys() -> dict[str, str]:
    """A VAPID key pair of the local stack's own, made on its first start (AWS stages keep theirs
    in Secrets Manager, stored by the operator)."""
    from tandem.integrations.webpush import generate_vapid_keys

    keys = generate_vapid_keys()
    return {"public_key": keys.public_key, "private_key": keys.private_key}


def default_secret_values(plan: LocalPlan) -> dict[str, str]:
    """Fresh local secret values, shaped like the ones an operator stores in AWS."""
    return {
        plan.secrets["JwtSecret"]: secrets.token_urlsafe(48),
        plan.secrets["StripeSecret"]: json.dumps(
            {"api_key": "sk_test_local", "webhook_secret": "whsec_" + secrets.token_hex(16)}
        ),
        plan.secrets["VapidSecret"]: json.dumps(_vapid_keys()),
        plan.secrets["SlackSecret"]: json.dumps(
            {"client_id": "local", "client_secret": "local", "encryption_key": new_encryption_key()}
        ),
    }


def provision(endpoint_url: str | None = None, secret_values: dict[str, str] | None = None) -> LocalPlan:
    """Create everything; returns the plan with queue URLs resolved."""
    moto_isolation.install()
    moto_items.install()
    moto_sfn.install()
    moto_dispatch.install()
    moto_faults.install()
    moto_sqs.install()
    first = build_plan()

    sqs = _client("sqs", endpoint_url)
    queue_urls: dict[str, str] = {}
    # Dead-letter queues first: a redrive policy names its target by ARN.
    ordered = sorted(first.queues.items(), key=lambda kv: "RedrivePolicy" in kv[1])
    for logical_id, queue in ordered:
        attributes = {}
        if "VisibilityTimeout" in queue:
            attributes["VisibilityTimeout"] = str(queue["VisibilityTimeout"])
        if "RedrivePolicy" in queue:
            attributes["RedrivePolicy"] = json.dumps(queue["RedrivePolicy"])
        queue_urls[logical_id] = sqs.create_queue(QueueName=queue["name"], Attributes=attributes)["QueueUrl"]
    plan = build_plan(queue_urls=queue_urls)

    table = {k: v for k, v in plan.table.items() if k in TABLE_KEYS}
    dynamodb = _client("dynamodb", endpoint_url)
    dynamodb.create_table(**table)
    ttl = plan.table.get("TimeToLiveSpecification")
    if ttl:
        dynamodb.update_time_to_live(TableName=table["TableName"], TimeToLiveSpecification=ttl)

    s3 = _client("s3", endpoint_url)
    for bucket in plan.buckets.values():
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": REGION})

    values = secret_values or default_secret_values(plan)
    sm = _client("secretsmanager", endpoint_url)
    for name in plan.secrets.values():
        sm.create_secret(Name=name, SecretString=values[name])

    mail_from = plan.environment.get("MAIL_FROM", "")
    if "@" in mail_from:  # SES only sends from verified identities
        domain = mail_from.split("@", 1)[1].rstrip(">").strip()
        _client("ses", endpoint_url).verify_domain_identity(Domain=domain)
    for name in plan.configuration_sets:  # the notifier sends through it (bounces, complaints)
        _client("ses", endpoint_url).create_configuration_set(ConfigurationSet={"Name": name})

    iam = _client("iam", endpoint_url)
    trust = json.dumps({"Version": "2012-10-17", "Statement": []})
    lambda_role = iam.create_role(RoleName=LAMBDA_ROLE, AssumeRolePolicyDocument=trust)["Role"]["Arn"]
    states_role = iam.create_role(RoleName=STATES_ROLE, AssumeRolePolicyDocument=trust)["Role"]["Arn"]

    lam = _client("lambda", endpoint_url)
    code = _placeholder_zip()
    for spec in plan.functions.values():
        lam.create_function(
            FunctionName=spec.name,
            Runtime="python3.11",
            Role=lambda_role,
            Handler=spec.handler,
            Code={"ZipFile": code},
            Timeout=spec.timeout,
            Environment={"Variables": spec.environment},
        )
    lambda_inprocess.register(plan.functions)
    lambda_inprocess.install()

    for queue_logical, function_logical, batch in plan.sqs_triggers:
        queue_arn = sqs.get_queue_attributes(QueueUrl=queue_urls[queue_logical], AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
        lam.create_event_source_mapping(
            EventSourceArn=queue_arn, FunctionName=plan.functions[function_logical].name, BatchSize=batch
        )

    sns = _client("sns", endpoint_url)
    topic_arns = {logical: sns.create_topic(Name=name)["TopicArn"] for logical, name in plan.topics.items()}
    for topic_logical, function_logical in plan.sns_triggers:  # moto's SNS invokes the function
        function_arn = lam.get_function(FunctionName=plan.functions[function_logical].name)["Configuration"][
            "FunctionArn"
        ]
        sns.subscribe(TopicArn=topic_arns[topic_logical], Protocol="lambda", Endpoint=function_arn)

    sfn = _client("stepfunctions", endpoint_url)
    for machine in plan.state_machines.values():
        sfn.create_state_machine(
            name=machine.name, definition=machine.definition, roleArn=states_role, type="STANDARD"
        )
    return plan


# Services provision() fills, each reset per test by `reset_world`; any other moto service a
# test touched (CloudWatch metrics, logs, scheduler...) is reset whole.
PROVISIONED_SERVICES = frozenset(
    {"dynamodb", "sqs", "s3", "secretsmanager", "ses", "sesv2", "iam", "lambda", "sns", "stepfunctions"}
)


def inline_queue_consumers(enabled: bool) -> None:
    """Turn moto's SQS -> Lambda event source mappings (the notifier) on or off. On, moto runs
    the consumer inline on every message sent, inside the sender's call; off, messages wait on
    the queue, as they do for the sender in AWS, where the notifier is another function. The
    tests that look at delivery and the local stack keep it on; benches counting one
    function's calls and the other tests turn it off."""
    from moto.backends import get_backend

    for queue in get_backend("sqs")[ACCOUNT][REGION].queues.values():
        for mapping in queue.lambda_event_source_mappings.values():
            mapping.enabled = enabled


def _step_functions() -> Any:
    """moto's Step Functions backend that runs executions (MOTO_CONFIG's execute_state_machine)."""
    from moto.stepfunctions.parser.models import stepfunctions_parser_backends

    return stepfunctions_parser_backends[ACCOUNT][REGION]


def is_provisioned(plan: LocalPlan) -> bool:
    """Whether moto (in this process) still holds what provision() made for `plan`: another
    mock (a test's own mock_aws, a ThreadedMotoServer) may have reset every backend since."""
    from moto.backends import get_backend

    tables = get_backend("dynamodb")[ACCOUNT][REGION].tables
    machines = _step_functions().state_machines
    return plan.table["TableName"] in tables and len(machines) == len(plan.state_machines)


_RESET_CLIENTS: dict[str, Any] = {}


def _reset_client(service: str, endpoint_url: None) -> Any:
    """reset_world's client of `service`, made once: making one costs more than a whole reset."""
    if service not in _RESET_CLIENTS:
        _RESET_CLIENTS[service] = boto3.client(service, region_name=REGION)
    return _RESET_CLIENTS[service]


def settle_executions(wait_s: float = 30.0) -> None:
    """Let the Step Functions executions the last test started finish before the world is reset.
    moto runs each execution on threads of its own (`TMP_THREADS`), so one still running (a
    webhook answered before its billing execution ended) would otherwise write into the next
    test's fresh table (a journal test once counted a Stripe event's `done_at` it never wrote).
    Our machines have no Wait states or callbacks, so they end; one still running after
    `wait_s` is stopped at its next state, and one that will not stop fails the reset loudly."""
    import datetime
    import time

    from moto.stepfunctions.parser.utils import TMP_THREADS

    deadline = time.monotonic() + wait_s
    for thread in list(TMP_THREADS):
        thread.join(max(0.0, deadline - time.monotonic()))
    if any(thread.is_alive() for thread in TMP_THREADS):
        now = datetime.datetime.now(datetime.UTC)
        for machine in _step_functions().state_machines:
            for execution in machine.executions:
                if execution.exec_worker is not None and execution.status == "RUNNING":
                    execution.stop(now, "Reset", "The local world was reset while it ran.")
        for thread in list(TMP_THREADS):
            thread.join(5.0)
    alive = [thread for thread in TMP_THREADS if thread.is_alive()]
    TMP_THREADS[:] = alive
    if alive:
        raise RuntimeError(
            f"{len(alive)} Step Functions execution thread(s) still running after the reset's wait"
        )


# reset_world works on moto's backends in this process, not through boto3: each call through
# botocore and moto's dispatch cost 3-5 ms, and the 14 a reset made were 40-60 ms of every test
# that uses the `aws` fixture (docs/decisions.md 2026-12-07 "a reset without boto3"). Writes
# that happen only after a test changed something (a secret's value) still go through boto3.
_SHAPES: dict[str, Any] = {}  # the table's description (and TTL) as provision() left it


def _table_shape(table: Any) -> Any:
    described = dict(table.describe()["TableDescription"])
    for changing in ("ItemCount", "TableSizeBytes", "CreationDateTime"):
        described.pop(changing, None)
    return described, dict(table.ttl)


def _reset_table(plan: LocalPlan) -> None:
    """The table empty, as created: emptied in place while its shape is the one provision()
    made (moto keeps every item, GSIs included, in `table.items`; infra/local/moto_index its
    own GSI buckets on the table), created again through boto3 otherwise (a test changed or
    deleted it). Tables a test created are dropped."""
    from moto.backends import get_backend

    from infra.local import moto_index

    name = plan.table["TableName"]
    tables = get_backend("dynamodb")[ACCOUNT][REGION].tables
    for other in [other for other in tables if other != name]:
        tables.pop(other)
    table = tables.get(name)
    if table is not None and _SHAPES.get(name) == _table_shape(table):
        table.items.clear()
        moto_index.forget(table)
        return
    dynamodb = _reset_client("dynamodb", None)
    if table is not None:
        dynamodb.delete_table(TableName=name)
    dynamodb.create_table(**{k: v for k, v in plan.table.items() if k in TABLE_KEYS})
    ttl = plan.table.get("TimeToLiveSpecification")
    if ttl:
        dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    _SHAPES[name] = _table_shape(tables[name])


def _reset_buckets(wanted: set[str]) -> None:
    """Every object of the provisioned buckets gone (every version), other buckets deleted."""
    from moto.backends import get_backend
    from moto.s3.models import FakeKey, s3_backends

    s3 = get_backend("s3")[ACCOUNT]["global"]
    for name, bucket in list(s3.buckets.items()):
        for held in list(bucket.keys):
            for key in bucket.keys.getlist(held):  # every version (and delete marker) of the key
                if isinstance(key, FakeKey):
                    key.dispose()
        for part in bucket.multiparts.values():
            part.dispose()
        bucket.keys.clear()
        bucket.multiparts.clear()
        if name not in wanted:
            s3.buckets.pop(name)
            s3_backends.bucket_accounts.pop(name, None)


def _reset_secrets(secret_values: dict[str, str]) -> None:
    """Each provisioned secret back to its first value (restored if a test deleted it), others
    deleted. Read on the backend; written through boto3 only when a test changed one."""
    from moto.backends import get_backend

    secrets = get_backend("secretsmanager")[ACCOUNT][REGION].secrets
    sm = _reset_client("secretsmanager", None)  # made once, used only to write
    for name, secret in list(secrets.items()):
        if name not in secret_values:
            sm.delete_secret(SecretId=name, ForceDeleteWithoutRecovery=True)
            continue
        if secret.is_deleted():
            sm.restore_secret(SecretId=name)
            current = None
        else:
            version = secret.versions.get(secret.default_version_id) or {}
            current = version.get("secret_string")
        if current != secret_values[name]:
            sm.put_secret_value(SecretId=name, SecretString=secret_values[name])


def reset_world(plan: LocalPlan, secret_values: dict[str, str]) -> None:
    """Put a provisioned moto back as provision() left it, without provisioning again (the
    tests call this before each test; provisioning everything cost 0.5 s a test): the table
    emptied (made again if a test changed it), queues purged (extra queues deleted), buckets
    emptied (extra buckets deleted), secrets back to their first values, SES's sent mail and
    SNS's extra topics gone, Step Functions executions forgotten, and every service provision()
    does not use reset."""
    from moto.backends import get_backend
    from moto.core.base_backend import BackendDict

    settle_executions()
    for backend_dict in list(BackendDict._instances):
        if backend_dict.service_name not in PROVISIONED_SERVICES:
            for account_backend in backend_dict.values():
                account_backend.reset()

    _reset_table(plan)

    sqs = get_backend("sqs")[ACCOUNT][REGION]
    wanted_queues = {queue["name"] for queue in plan.queues.values()}
    for name in list(sqs.queues):
        if name in wanted_queues:
            sqs.purge_queue(name)
        else:
            sqs.delete_queue(name)

    _reset_buckets(set(plan.buckets.values()))
    _reset_secrets(secret_values)

    ses = get_backend("ses")[ACCOUNT][REGION]
    ses.sent_messages.clear()
    ses.sent_message_count = 0

    sns = get_backend("sns")[ACCOUNT][REGION]
    wanted_topics = set(plan.topics.values())
    for arn in list(sns.topics):
        if arn.rsplit(":", 1)[1] not in wanted_topics:
            sns.delete_topic(arn)

    for machine in _step_functions().state_machines:
        machine.executions.clear()
