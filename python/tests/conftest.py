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
    release build (``cargo build --release``). The tests build nothing: where no binary
    is found the tests that need one are skipped, or fail under ``$ISOLO_AI_ALL_TESTS``."""
    if os.environ.get("ISOLO_AI"):
        binary = pathlib.Path(os.environ["ISOLO_AI"])
    else:
        built = [REPOSITORY / "target" / profile / "isolo-ai" for profile in ("testing", "release")]
        binary = next((path for path in built if path.exists()), built[-1])
    if not binary.exists():
        missing = (f"no isolo-ai binary at {binary}: build it with `cargo build --release` "
                   "or name one with $ISOLO_AI")
        if os.environ.get("ISOLO_AI_ALL_TESTS"):
            pytest.fail(missing)
        pytest.skip(missing)
    return str(binary)


@pytest.fixture(scope="session")
def cli():
    """Runs ``isolo-ai`` (`binary_path`) and returns its parsed ``--json`` answer."""
    binary = binary_path()

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
