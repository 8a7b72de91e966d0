"""A tarball's SHA-256 is remembered under the file's identity: the same unchanged file
is not hashed again, a changed one always is (even with its size and mtime put back),
and a digest given with --sha256 is checked against the bytes."""
from __future__ import annotations

import hashlib
import os

import pytest

from flagdb import sources
from warnscope.errors import BadInput


def test_a_changed_file_is_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "x.tar.xz"
    path.write_bytes(b"a" * 1000)
    first = sources.sha256_of(path)
    assert first == hashlib.sha256(b"a" * 1000).hexdigest()
    assert len(list((tmp_path / "cache" / "sources" / "sha256").iterdir())) == 1
    assert sources.sha256_of(path) == first          # from the memo
    st = os.stat(path)
    with open(path, "r+b") as fh:                   # same size, same mtime: new bytes
        fh.write(b"b")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert sources.sha256_of(path) == hashlib.sha256(b"b" + b"a" * 999).hexdigest()


def test_a_given_digest_is_checked_against_the_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "x.tar.gz"
    path.write_bytes(b"data")
    right = hashlib.sha256(b"data").hexdigest()
    sources.sha256_of(path)
    # a memo that lies is not believed when the user gives the digest
    memo = next((tmp_path / "cache" / "sources" / "sha256").iterdir())
    memo.write_text("0" * 64 + "\n")
    assert sources.sha256_of(path, right.upper()) == right
    with pytest.raises(BadInput, match="SHA-256 is " + right):
        sources.sha256_of(path, "1" * 64)
    with pytest.raises(BadInput, match="expected 64 hexadecimal digits"):
        sources.sha256_of(path, "xyz")
    with pytest.raises(BadInput, match="No such file"):
        sources.sha256_of(tmp_path / "missing.tar.gz")
