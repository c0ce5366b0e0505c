"""One Powertools logger, tracer and metrics namespace for every function."""

from __future__ import annotations

from aws_lambda_powertools import Logger

logger = Logger(service="tandem")
