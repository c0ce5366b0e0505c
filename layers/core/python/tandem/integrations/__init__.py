"""Clients for AWS and third-party services, created once per process and reused."""
