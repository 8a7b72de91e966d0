"""Shared loading of the real libclang-N-dev tables for the clang tests.

Each package is downloaded and extracted once into the shared cache; parsing is
memoised per test process.
"""
from __future__ import annotations

import shutil
from functools import lru_cache

import pytest

from flagdb.clang_inc import Tables, parse_dir
from flagdb.clang_ingest import fetch_package, load_clang
from flagdb.model import CompilerData

VERSIONS = (13, 14, 15, 16, 19, 22)
#: CI installs these binaries; the others are verified where installed.
VERIFIED = (14, 16, 19)


@lru_cache(maxsize=None)
def real_data(major: int) -> CompilerData:
    return load_clang(f"clang-{major}")


@lru_cache(maxsize=None)
def real_tables(major: int) -> Tables:
    directory, _ = fetch_package(major)
    return parse_dir(directory)


def need_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path
