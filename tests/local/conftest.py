"""Fixtures for the tests of the local stack (infra/local)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.local.stack import StackProcesses


@pytest.fixture
def stacks() -> Iterator[StackProcesses]:
    """Start local stacks with `stacks.start(data_dir, web_root)`; all are killed at teardown."""
    processes = StackProcesses()
    try:
        yield processes
    finally:
        processes.close()


@pytest.fixture
def web_root(tmp_path: Path) -> Path:
    """A stand-in for web/dist: an index.html and one file at the root."""
    root = tmp_path / "web"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Tandem</title><div id=root></div>")
    (root / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root / "assets" / "index-abc123.js").write_text("console.log('app')")
    return root


@pytest.fixture(scope="session")
def seeded_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with the demo data, seeded once per test process by a real first start and
    left by a clean stop; tests copy it (`data_dir`) so that each starts from the same data."""
    data = tmp_path_factory.mktemp("seeded") / "data"
    web = tmp_path_factory.mktemp("seeded-web")
    (web / "index.html").write_text("<!doctype html><title>Tandem</title>")
    processes = StackProcesses()
    try:
        stack = processes.start(data, web)
        assert "First start: seeding demo data" in stack.output
        code, _ = stack.stop()
        assert code == 0, stack.output
    finally:
        processes.close()
    return data


@pytest.fixture
def data_dir(seeded_data: Path, tmp_path: Path) -> Path:
    """This test's own copy of the seeded data."""
    copy = tmp_path / "data"
    shutil.copytree(seeded_data, copy)
    return copy
