"""Shared fixtures: the repository, the release binary to compare against, the shared corpus.

Under CI=true a missing binary or corpus fails the tests that need it instead of skipping them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CI = os.environ.get("CI") == "true"


def _need(path: Path, what: str) -> Path:
    if not path.exists():
        message = f"{what} not found at {path}"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `bimaru-sat` binary (BIMARU_SAT_BIN, else target/release/bimaru-sat)."""
    given = os.environ.get("BIMARU_SAT_BIN")
    return _need(Path(given) if given else ROOT / "target" / "release" / "bimaru-sat", "bimaru-sat")


@pytest.fixture(scope="session")
def corpus() -> Path:
    return _need(ROOT.parent / "shared" / "corpus", "the shared corpus")


def run(cli: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Runs the binary in the repository, capturing text."""
    return subprocess.run([str(cli), *args], cwd=cwd, capture_output=True, text=True)
