"""Shared fixtures: the command-line binary the package is checked against."""

from __future__ import annotations

import importlib
import json
import os
import pathlib
import subprocess

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def binary_path() -> str:
    """The ``isolo-ai`` the package is checked against: ``$ISOLO_AI``, or the
    workspace's build by the tests' profile (``cargo test --profile testing``), or its
    release build."""
    if os.environ.get("ISOLO_AI"):
        return os.environ["ISOLO_AI"]
    built = [REPOSITORY / "target" / profile / "isolo-ai" for profile in ("testing", "release")]
    return str(next((path for path in built if path.exists()), built[-1]))


@pytest.fixture(scope="session")
def cli():
    """Runs ``isolo-ai`` (`binary_path`, built when missing) and returns its parsed
    ``--json`` answer."""
    binary = binary_path()
    if not os.path.exists(binary):
        subprocess.run(
            ["cargo", "build", "--release", "--bin", "isolo-ai"], cwd=REPOSITORY, check=True
        )

    def run(*args: str):
        done = subprocess.run(
            [binary, *args, "--json"], capture_output=True, text=True, check=True
        )
        return json.loads(done.stdout)

    return run


def need(module: str):
    """`module` imported, or the calling test module skipped when it is not installed,
    unless ``$ISOLO_AI_ALL_TESTS`` is set (as `.ci/run` sets it): then a missing module
    fails."""
    if os.environ.get("ISOLO_AI_ALL_TESTS"):
        return importlib.import_module(module)
    return pytest.importorskip(module)
