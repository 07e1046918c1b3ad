"""Shared fixtures: the corpus ($FLINCH_DATA, else ../shared/data beside the repository) and the CLI binary
($FLINCH_BIN, set by tests/python_package.rs; tests comparing with the CLI skip without it)."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def data_dir() -> pathlib.Path:
    d = pathlib.Path(os.environ.get("FLINCH_DATA") or REPO.parent / "shared" / "data")
    if not d.is_dir():
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"corpus missing: {d}")
        pytest.skip(f"corpus missing: {d}")
    return d


@pytest.fixture(scope="session")
def data() -> pathlib.Path:
    return data_dir()


@pytest.fixture(scope="session")
def walk(data) -> pathlib.Path:
    return data / "bvh" / "cmu_02_01_walk.bvh"


@pytest.fixture(scope="session")
def flinch_bin():
    b = os.environ.get("FLINCH_BIN")
    if not b:
        if os.environ.get("CI") == "true":
            raise RuntimeError("FLINCH_BIN is not set (tests/python_package.rs sets it)")
        pytest.skip("FLINCH_BIN not set: no CLI to compare with")
    return b
