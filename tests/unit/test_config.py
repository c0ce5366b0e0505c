"""Configuration is one settings object, checked when a function starts: a missing or empty
variable fails at import, with its name, not deep inside a request."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from infra.local.template import ROOT, build_plan
from tandem.config import REQUIRED, ConfigError, load


def environment(**changes: str | None) -> dict[str, str]:
    env = {**build_plan().environment, "AWS_REGION": "eu-west-2"}
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def test_the_template_environment_is_complete():
    current = load(environment())
    assert current.table_name == "tandem-local" and current.region == "eu-west-2"
    assert current.match_run_batch_size == 4000  # optional, with its documented default
    assert current.endpoint_url is None and current.assets_upload_url == ""
    assert current.require("match_run_state_machine_arn").endswith(":tandem-local-match-run")


@pytest.mark.parametrize("variable", sorted(REQUIRED.values()))
def test_a_missing_or_empty_variable_is_named(variable):
    for value in (None, "", "   "):
        with pytest.raises(ConfigError, match=f"Missing environment variable {variable}$"):
            load(environment(**{variable: value}))


def test_every_missing_variable_is_named_at_once_and_region_is_one_of_two():
    with pytest.raises(ConfigError) as raised:
        load({})
    assert all(variable in str(raised.value) for variable in [*REQUIRED.values(), "AWS_REGION"])
    assert load(environment(AWS_REGION=None, AWS_DEFAULT_REGION="eu-west-1")).region == "eu-west-1"


def test_a_bad_batch_size_is_named_not_silently_replaced():
    assert load(environment(MATCH_RUN_BATCH_SIZE="8")).match_run_batch_size == 8
    for bad in ("0", "-3", "eight", "2²"):
        with pytest.raises(ConfigError, match="MATCH_RUN_BATCH_SIZE"):
            load(environment(MATCH_RUN_BATCH_SIZE=bad))


def test_a_per_function_variable_is_named_when_its_function_requires_it():
    current = load(environment(BILLING_STATE_MACHINE_ARN=""))
    with pytest.raises(ConfigError, match="Missing environment variable BILLING_STATE_MACHINE_ARN"):
        current.require("billing_state_machine_arn")
    with pytest.raises(ValueError, match="unknown setting"):
        current.require("billing_arn")


def _import(module_dir: str, module: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    paths = [str(ROOT / module_dir), str(ROOT / "layers/core/python")]
    code = f"import sys; sys.path[:0] = {paths!r}; import {module}"
    return subprocess.run(
        [sys.executable, "-c", code],
        env={
            "PATH": os.environ.get("PATH", ""),
            **env,
            "AWS_ACCESS_KEY_ID": "x",
            "AWS_SECRET_ACCESS_KEY": "x",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "module_dir, module, missing",
    [
        ("functions/api", "app", "TABLE_NAME"),
        ("functions/api", "app", "JWT_SECRET_NAME"),
        ("functions/api", "app", "MATCH_RUN_STATE_MACHINE_ARN"),  # only the functions that start runs
        ("functions/stripe_webhook", "app", "BILLING_STATE_MACHINE_ARN"),
        ("functions/scheduler", "app", "NIGHTLY_MATCH_RUN_STATE_MACHINE_ARN"),
        ("functions/notifier", "app", "MAIL_FROM"),
    ],
)
def test_a_function_without_a_variable_fails_at_import_naming_it(module_dir, module, missing):
    failed = _import(module_dir, module, environment(**{missing: ""}))
    assert failed.returncode != 0
    assert f"ConfigError: Missing environment variable {missing}" in failed.stderr


def test_a_function_with_its_environment_imports():
    assert _import("functions/api", "app", environment()).returncode == 0


def test_cheap_password_hashing_is_for_the_local_stage_only():
    assert load(environment(PASSWORD_HASHING="test")).password_hashing == "test"
    assert load(environment(PASSWORD_HASHING=None)).password_hashing == ""
    assert load(environment(PASSWORD_HASHING="test", STAGE="prod")).password_hashing == ""
    with pytest.raises(ConfigError, match="PASSWORD_HASHING"):
        load(environment(PASSWORD_HASHING="cheap"))


def test_a_looser_sign_up_limit_is_honoured_on_the_local_stage_only():
    from tandem.config import ConfigError, load

    base = {name: "x" for name in __import__("tandem.config", fromlist=["REQUIRED"]).REQUIRED.values()}
    base |= {"AWS_REGION": "eu-west-2", "SITE_URL": "http://127.0.0.1:1"}
    assert load({**base, "STAGE": "local", "SIGN_UPS_PER_HOUR": "500"}).sign_ups_per_hour == 500
    assert load({**base, "STAGE": "prod", "SIGN_UPS_PER_HOUR": "500"}).sign_ups_per_hour is None
    assert load({**base, "STAGE": "local"}).sign_ups_per_hour is None
    with pytest.raises(ConfigError, match="SIGN_UPS_PER_HOUR must be a positive whole number"):
        load({**base, "STAGE": "local", "SIGN_UPS_PER_HOUR": "lots"})
