"""Every API log line carries the request id, the correlation id, the user and the brand; business
events are Powertools metrics (EMF), flushed with each invocation."""

from __future__ import annotations

import io
import json
import logging

import pytest

from tests.factories import auth_headers, member


@pytest.fixture
def log_lines():
    """The service logger's JSON lines, at INFO, as Lambda would write them."""
    from tandem.observability import logger

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logger.registered_formatter)
    level = logger.log_level
    logger._logger.addHandler(handler)
    logger.setLevel("INFO")
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger._logger.removeHandler(handler)
        logger.setLevel(level)


def test_an_api_log_line_carries_request_correlation_user_and_brand(api, log_lines):
    user, (brand,), token = member()
    headers = {**auth_headers(token, int(brand.brand_id)), "X-Correlation-Id": "corr-42"}
    assert api.call("GET", "/api/dashboard", headers)[0] == 200
    assert api.call("GET", "/api/health")[0] == 200

    dashboard, health = [line for line in log_lines() if line["message"] == "API call"]
    assert dashboard["route"] == "/api/dashboard" and dashboard["status"] == 200
    assert dashboard["correlation_id"] == "corr-42"
    assert dashboard["request_id"] and dashboard["request_id"] != "corr-42"
    assert dashboard["user"] == user.user_id
    assert dashboard["brand"] == int(brand.brand_id)
    # Keys are per request: the next call has its own ids and no user or brand.
    assert health["route"] == "/api/health"
    assert health["request_id"] and health["request_id"] != dashboard["request_id"]
    assert health["correlation_id"] not in ("", "corr-42")
    assert "user" not in health and "brand" not in health


def test_an_error_line_inside_a_request_carries_the_same_keys(api, log_lines, monkeypatch):
    from tandem.services import dashboard

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(dashboard, "build", broken)
    user, (brand,), token = member()
    headers = {**auth_headers(token, int(brand.brand_id)), "X-Correlation-Id": "corr-500"}
    assert api.call("GET", "/api/dashboard", headers)[0] == 500
    error = next(line for line in log_lines() if line["level"] == "ERROR")
    assert error["message"].startswith("Unhandled error")
    assert (error["correlation_id"], error["user"], error["brand"]) == (
        "corr-500",
        user.user_id,
        int(brand.brand_id),
    )


def _emf(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"_aws"')]


def test_sending_a_request_emits_a_request_sent_metric(api, capsys):
    from tandem.services import credits
    from tandem.store.models import Account

    sender, (from_brand,), token = member("a@example.com", ("Oat & Co",))
    Account.at(sender.account_id).update(actions=[Account.subscription_status.set("active")])
    credits.grant(sender.account_id, kind="main", amount=3, valid_from=0, valid_to=4_000_000_000, op_id="t")
    _, (to_brand,), _ = member("b@example.com", ("Fern Candles",))
    capsys.readouterr()

    status, body = api.call(
        "POST",
        "/api/requests",
        auth_headers(token, int(from_brand.brand_id)),
        {"toBrandId": int(to_brand.brand_id), "message": "Hello"},
    )
    assert status == 201, body
    (blob,) = [b for b in _emf(capsys.readouterr().out) if "RequestSent" in b]
    assert blob["RequestSent"] == [1.0] and blob["service"] == "tandem"
    (directive,) = blob["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "Tandem"
    assert {"Name": "RequestSent", "Unit": "Count"} in directive["Metrics"]

    # Flushed with that invocation: the next call emits no RequestSent again.
    assert api.call("GET", "/api/health")[0] == 200
    assert not [b for b in _emf(capsys.readouterr().out) if "RequestSent" in b]


def test_a_sign_up_emits_a_sign_up_metric(api, capsys):
    body = {
        "name": "Sam Sign",
        "email": "sam@example.com",
        "password": "Tandem-Pass-2026",
        "brandName": "Sam Co",
    }
    assert api.call("POST", "/api/users/create-account", {}, body)[0] == 201
    assert [b["SignUp"] for b in _emf(capsys.readouterr().out) if "SignUp" in b] == [[1.0]]
