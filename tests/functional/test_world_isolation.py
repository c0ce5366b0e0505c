"""The `aws` fixture provisions moto once per worker and resets it before each test: nothing a
test writes may be seen by the next one. Each test first asserts the world is as provisioned,
then leaves something behind in every kind of store; whichever runs second (pytest-randomly
shuffles them; run them in both orders with -p no:randomly) fails if the reset misses one."""

from __future__ import annotations

import json

import pytest

from tests.functional.helpers import sent_mail


def _assert_as_provisioned(plan) -> None:
    from tandem.config import settings
    from tandem.integrations.aws import client

    assert client("dynamodb").scan(TableName=settings().table_name)["Items"] == []
    for queue in plan.queues.values():
        url = client("sqs").get_queue_url(QueueName=queue["name"])["QueueUrl"]
        attributes = client("sqs").get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        assert attributes["ApproximateNumberOfMessages"] == "0", url
        assert attributes["ApproximateNumberOfMessagesNotVisible"] == "0", url
    assert sorted(q.rsplit("/", 1)[1] for q in client("sqs").list_queues()["QueueUrls"]) == sorted(
        q["name"] for q in plan.queues.values()
    )
    s3 = client("s3")
    assert sorted(b["Name"] for b in s3.list_buckets()["Buckets"]) == sorted(plan.buckets.values())
    for bucket in plan.buckets.values():
        assert s3.list_objects_v2(Bucket=bucket).get("KeyCount", 0) == 0, bucket
    sm = client("secretsmanager")
    jwt = sm.get_secret_value(SecretId=plan.secrets["JwtSecret"])["SecretString"]
    assert "left-behind" not in jwt
    assert sent_mail() == []
    for machine in client("stepfunctions").list_state_machines()["stateMachines"]:
        assert (
            client("stepfunctions").list_executions(stateMachineArn=machine["stateMachineArn"])["executions"]
            == []
        ), machine["name"]
    assert client("cloudwatch").list_metrics(Namespace="LeftBehind")["Metrics"] == []


def _leave_everything_behind(plan) -> None:
    from tandem.config import settings
    from tandem.integrations.aws import client
    from tests.factories import member

    member("left@example.com", ("Left Behind Ltd",))
    client("sqs").send_message(QueueUrl=settings().notifications_queue_url, MessageBody=json.dumps({"x": 1}))
    client("sqs").create_queue(QueueName="left-behind")
    client("s3").put_object(Bucket=settings().assets_bucket, Key="left/behind.png", Body=b"x")
    client("s3").create_bucket(
        Bucket="left-behind-bucket", CreateBucketConfiguration={"LocationConstraint": "eu-west-2"}
    )
    client("secretsmanager").put_secret_value(
        SecretId=plan.secrets["JwtSecret"], SecretString=json.dumps({"key": "left-behind"})
    )
    client("ses").send_email(
        Source=settings().mail_from,
        Destination={"ToAddresses": ["left@example.com"]},
        Message={"Subject": {"Data": "left"}, "Body": {"Text": {"Data": "behind"}}},
    )
    machine = client("stepfunctions").list_state_machines()["stateMachines"][0]
    client("stepfunctions").start_execution(stateMachineArn=machine["stateMachineArn"], input="{}")
    client("cloudwatch").put_metric_data(Namespace="LeftBehind", MetricData=[{"MetricName": "m", "Value": 1}])


@pytest.mark.parametrize("run", ["first", "second"])
def test_a_test_starts_from_the_provisioned_world_and_leaves_a_mess(aws, run):
    _assert_as_provisioned(aws)
    _leave_everything_behind(aws)


def test_another_test_starts_from_the_provisioned_world_too(aws):
    _assert_as_provisioned(aws)
    _leave_everything_behind(aws)
