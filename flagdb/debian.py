"""Fetching Debian packages into the cache and streaming selected files out of them.

A ``.deb`` is an ``ar`` archive whose ``data.tar.*`` member holds the files. We never
install and never unpack whole: members are read as a stream and only the wanted
ones are written, which matters for gcc-N-source (an 80 MB .deb wrapping a 700 MB
source tree).
"""
from __future__ import annotations

import functools
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterator

from flagdb import extract
from flagdb.errors import WarnscopeError
from flagdb.paths import cache_dir


@functools.lru_cache(maxsize=None)
def package_version(package: str) -> str:
    """The candidate version apt would download, or a clear error if there is none."""
    proc = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, text=True, check=False
    )
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("Candidate:"):
            version = line.split(":", 1)[1].strip()
            if version and version != "(none)":
                return version
    raise WarnscopeError(
        f"Debian package {package!r} is not available here "
        "(apt-cache policy knows no candidate; is it in this distribution, and was 'apt-get update' run?)"
    )


def download(package: str) -> Path:
    """The package's .deb in the cache, downloaded with ``apt-get download`` if absent."""
    version = package_version(package)
    dest_dir = cache_dir("debs")
    safe_version = version.replace(":", "%3a")
    for existing in dest_dir.glob(f"{package}_{safe_version}_*.deb"):
        return existing
    with tempfile.TemporaryDirectory(dir=dest_dir, prefix=".dl-") as tmp:
        proc = subprocess.run(
            ["apt-get", "download", f"{package}={version}"],
            cwd=tmp, capture_output=True, text=True, check=False,
        )
        debs = list(Path(tmp).glob("*.deb"))
        if proc.returncode != 0 or not debs:
            detail = (proc.stderr.strip().splitlines() or ["no .deb produced"])[-1]
            raise WarnscopeError(f"apt-get download {package} failed: {detail}")
        os.chmod(tmp, 0o755)
        target = dest_dir / debs[0].name
        os.replace(debs[0], target)
    return target


def data_tar(deb: Path) -> Iterator[tuple[str, tarfile.TarInfo, tarfile.TarFile]]:
    """Stream the members of a .deb's ``data.tar.*`` as (safe relative name, member,
    open tar for extractfile); names that could point outside refuse the package."""
    try:
        with open(deb, "rb") as fh:
            if fh.read(8) != b"!<arch>\n":
                raise WarnscopeError(f"{deb}: not a Debian package (no ar header)")
            while True:
                header = fh.read(60)
                if len(header) < 60:
                    raise WarnscopeError(f"{deb}: truncated Debian package (no data.tar member)")
                name = header[:16].decode("ascii", "replace").strip().rstrip("/")
                size = int(header[48:58].decode("ascii").strip() or 0)
                if name.startswith("data.tar"):
                    break
                fh.seek(size + (size & 1), os.SEEK_CUR)
            with tarfile.open(fileobj=_Limited(fh, size), mode="r|*") as tar:
                for name, member in extract.members(tar, str(deb)):
                    yield name, member, tar
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise WarnscopeError(f"{deb}: corrupt Debian package ({exc})") from None


class _Limited:
    """A read-only view of the next ``size`` bytes of a file (one ar member)."""

    def __init__(self, fh: BinaryIO, size: int):
        self._fh = fh
        self._left = size

    def read(self, n: int = -1) -> bytes:
        if n < 0 or n > self._left:
            n = self._left
        data = self._fh.read(n)
        self._left -= len(data)
        return data

