"""The `aws` fixture provisions moto once per worker and resets it before each test: nothing a
test writes may be seen by the next one. Each test first asserts the world is as provisioned,
then leaves something behind in every kind of store; whichever runs after another fails if the
reset misses one (run them in another order by naming them on the command line)."""

from __future__ import annotations

import json

import pytest

from tests.functional.helpers import sent_mail

# The GSI queries the last test answered (its index buckets built): (index, key, value).
_ASKED: list[tuple[str, str, dict]] = []


def _assert_as_provisioned(plan) -> None:
    from tandem.config import settings
    from tandem.integrations.aws import client

    dynamodb = client("dynamodb")
    assert dynamodb.scan(TableName=settings().table_name)["Items"] == []
    assert dynamodb.list_tables()["TableNames"] == [settings().table_name]
    for index, key, value in _ASKED:
        found = dynamodb.query(
            TableName=settings().table_name,
            IndexName=index,
            KeyConditionExpression="#k = :v",
            ExpressionAttributeNames={"#k": key},
            ExpressionAttributeValues={":v": value},
        )
        assert found["Items"] == [], index
    ttl = dynamodb.describe_time_to_live(TableName=settings().table_name)["TimeToLiveDescription"]
    assert (ttl["TimeToLiveStatus"], ttl["AttributeName"]) == ("ENABLED", "ttl")
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
    assert sorted(x["Name"] for x in sm.list_secrets(IncludePlannedDeletion=True)["SecretList"]) == sorted(
        plan.secrets.values()
    )
    assert "DeletedDate" not in sm.describe_secret(SecretId=plan.secrets["SlackSecret"])
    assert sorted(t["TopicArn"].rsplit(":", 1)[1] for t in client("sns").list_topics()["Topics"]) == sorted(
        plan.topics.values()
    )
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
    dynamodb = client("dynamodb")
    table = dynamodb.describe_table(TableName=settings().table_name)["Table"]
    items = dynamodb.scan(TableName=settings().table_name)["Items"]
    _ASKED.clear()
    for index in table["GlobalSecondaryIndexes"]:
        key = next(k["AttributeName"] for k in index["KeySchema"] if k["KeyType"] == "HASH")
        value = next(item[key] for item in items if key in item)
        found = dynamodb.query(
            TableName=settings().table_name,
            IndexName=index["IndexName"],
            KeyConditionExpression="#k = :v",
            ExpressionAttributeNames={"#k": key},
            ExpressionAttributeValues={":v": value},
        )
        assert found["Items"], index["IndexName"]  # answered here: the index's buckets are built
        _ASKED.append((index["IndexName"], key, value))
    dynamodb.create_table(
        TableName="left-behind-table",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
    client("sqs").send_message(QueueUrl=settings().notifications_queue_url, MessageBody=json.dumps({"x": 1}))
    client("sqs").create_queue(QueueName="left-behind")
    client("s3").put_object(Bucket=settings().assets_bucket, Key="left/behind.png", Body=b"x")
    client("s3").create_bucket(
        Bucket="left-behind-bucket", CreateBucketConfiguration={"LocationConstraint": "eu-west-2"}
    )
    client("secretsmanager").put_secret_value(
        SecretId=plan.secrets["JwtSecret"], SecretString=json.dumps({"key": "left-behind"})
    )
    client("secretsmanager").create_secret(Name="left-behind-secret", SecretString="x")
    client("secretsmanager").delete_secret(SecretId=plan.secrets["SlackSecret"], RecoveryWindowInDays=7)
    client("sns").create_topic(Name="left-behind-topic")
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


def test_a_table_a_test_changed_is_made_again_as_provisioned(aws):
    from tandem.config import settings
    from tandem.integrations.aws import client

    _assert_as_provisioned(aws)
    _leave_everything_behind(aws)
    client("dynamodb").update_time_to_live(
        TableName=settings().table_name, TimeToLiveSpecification={"AttributeName": "ttl", "Enabled": False}
    )
