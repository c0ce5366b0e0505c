"""Tandem domain package: shipped to every Lambda function as the core layer."""

__version__ = "0.1.0"
