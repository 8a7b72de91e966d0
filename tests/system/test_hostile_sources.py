"""Sources from a hostile user (warnscope runs as root): each gives one error line,
a non-zero exit, a database left as it was, and nothing written outside the cache.

Hostile inputs are built by hand in tmp_path; completeness and concurrency use the
real gcc-11 / gcc-12 option files of Debian's packages.
"""
from __future__ import annotations

import json

import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ERROR = "warnscope: error: "


# ------------------------------------------------------------------ helpers

@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private, empty extraction cache."""
    path = tmp_path / "cache"
    monkeypatch.setenv("WARNSCOPE_CACHE", str(path))
    return path


class _Zeros(io.RawIOBase):
    """``size`` zero bytes, without holding them in memory."""

    def __init__(self, size: int):
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


@pytest.fixture
def tarball(common_opt, c_opt):
    """``tarball(path, extra, data)``: a small valid GCC 99.1.0 tarball plus ``extra``
    members (``data``: member -> size of zeros to store with it)."""

    def make(path: Path, extra: list[tarfile.TarInfo], data: dict[str, int] | None = None) -> Path:
        return _tarball(path, {"BASE-VER": "99.1.0\n", "common.opt": common_opt,
                               "c-family/c.opt": c_opt}, extra, data)

    return make


def _tarball(path: Path, files: dict[str, str], extra: list[tarfile.TarInfo],
             data: dict[str, int] | None) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(f"gcc-99.1.0/gcc/{name}")
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
        for info in extra:
            size = (data or {}).get(info.name, 0)
            info.size = size
            tar.addfile(info, io.BufferedReader(_Zeros(size)) if size else None)
    return path


def member(name: str, kind: bytes = tarfile.REGTYPE, linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info


def leftovers(cache: Path) -> list[Path]:
    """Files an extraction left in the cache (lock files are kept on purpose, and so is
    the tarball's remembered SHA-256, ``sources/sha256/``: a digest under the file's
    identity, nothing of its contents)."""
    memos = cache / "sources" / "sha256"
    return [p for p in cache.rglob("*") if not p.is_dir() and p.suffix != ".lock"
            and p.parent != memos] if cache.exists() else []


@pytest.fixture
def no_hang():
    """Fail instead of hanging forever (a FIFO read blocks without a writer)."""
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("hung reading a FIFO"))
    signal.alarm(60)
    yield
    signal.alarm(0)


# ------------------------------------------------------------------ archives

@pytest.mark.parametrize("name", [
    "gcc-99.1.0/gcc/../../../../../../x.opt",
    "gcc-99.1.0/gcc/config/../../../../../../../x.opt",
])
def test_member_leading_out_is_refused(must_fail, tmp_path, cache, name, tarball):
    src = tarball(tmp_path / "evil.tar.gz", [member(name)], {name: 10})
    msg = must_fail("flags", "ingest", "gcc-99", "--source", str(src))
    assert "unsafe member name" in msg
    assert not list(tmp_path.rglob("x.opt")) and not leftovers(cache)


def test_absolute_member_is_refused(must_fail, tmp_path, cache, tarball):
    target = tmp_path / "abs" / "x.opt"
    src = tarball(tmp_path / "evil.tar.gz", [member(str(target))], {str(target): 10})
    assert "unsafe member name" in must_fail("flags", "ingest", "gcc-99", "--source", str(src))
    assert not target.exists() and not leftovers(cache)


@pytest.mark.parametrize("kind, linkname, word", [
    (tarfile.SYMTYPE, "/etc/shadow", "symbolic link"),
    (tarfile.SYMTYPE, "../../../../../../etc", "symbolic link"),
    (tarfile.LNKTYPE, "gcc-99.1.0/gcc/common.opt", "hard link"),
    (tarfile.FIFOTYPE, "", "FIFO"),
    (tarfile.CHRTYPE, "", "device"),
])
def test_links_devices_and_fifos_are_refused(must_fail, tmp_path, cache, kind, linkname, word, tarball):
    src = tarball(tmp_path / "evil.tar.gz", [member("gcc-99.1.0/gcc/x.opt", kind, linkname)])
    msg = must_fail("flags", "ingest", "gcc-99", "--source", str(src))
    assert f"gcc/x.opt is a {word}, not a regular file" in msg
    assert not leftovers(cache)


def test_tar_bomb_member_is_refused_and_nothing_left(must_fail, tmp_path, cache, tarball):
    name = "gcc-99.1.0/gcc/bomb.opt"
    src = tarball(tmp_path / "bomb.tar.gz", [member(name)], {name: 1 << 30})  # 1 GB of zeros
    assert src.stat().st_size < 2 << 20
    msg = must_fail("flags", "ingest", "gcc-99", "--source", str(src))
    assert "gcc/bomb.opt is 1073741824 bytes, over the 16 MB limit" in msg
    assert not leftovers(cache)


def test_tar_bomb_of_many_members_is_capped(must_fail, tmp_path, cache, tarball):
    names = [f"gcc-99.1.0/gcc/config/t{i}.opt" for i in range(6)]
    src = tarball(tmp_path / "bomb.tar.gz", [member(n) for n in names], {n: 15 << 20 for n in names})
    assert "exceed 64 MB" in must_fail("flags", "ingest", "gcc-99", "--source", str(src))
    assert not leftovers(cache)


def test_member_name_not_utf8_is_refused(must_fail, tmp_path, cache, tarball):
    name = "gcc-99.1.0/gcc/\udcff.opt"
    src = tarball(tmp_path / "evil.tar.gz", [member(name)], {name: 10})
    assert "not valid UTF-8" in must_fail("flags", "ingest", "gcc-99", "--source", str(src))


def test_cache_on_a_full_disk(tmp_path, gcc_db_copy, tarball, dump, in_namespace, one_error):
    """Extraction into a cache on a full file system: one line, nothing left."""
    small = tmp_path / "small"
    small.mkdir()
    src = tarball(tmp_path / "big.tar.gz", [member("gcc-99.1.0/gcc/config/big.opt")],
                  {"gcc-99.1.0/gcc/config/big.opt": 2 << 20})
    before = dump(gcc_db_copy)
    proc = in_namespace(f"mount -t tmpfs -o size=1m tmpfs {small}",
                        "--db", str(gcc_db_copy), "flags", "ingest", "gcc-99", "--source", str(src),
                        env={"WARNSCOPE_CACHE": str(small / "cache")})
    assert "No space left on device" in one_error(proc)
    assert dump(gcc_db_copy) == before


# ------------------------------------------------------------------ files in a tree

@pytest.fixture
def good_tree(tmp_path, gcc_tree, common_opt) -> Path:
    """A valid hand-written GCC 99.1.0 source tree, for one hostile file to be added."""
    return gcc_tree(tmp_path / "src", {"common.opt": common_opt})


def test_fifo_named_opt_does_not_hang(must_fail, tmp_path, no_hang, good_tree):
    root = good_tree
    os.mkfifo(root / "gcc" / "x.opt")
    assert "x.opt: not a regular file (a FIFO)" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_fifo_named_inc_does_not_hang(must_fail, tmp_path, no_hang):
    from flagdb.clang_ingest import fetch_package

    src, _ = fetch_package(16)
    d = tmp_path / "inc"
    shutil.copytree(src, d)
    os.mkfifo(d / "DiagnosticZzzKinds.inc")
    msg = must_fail("flags", "ingest", "clang-16", "--source", str(d))
    assert "DiagnosticZzzKinds.inc: not a regular file (a FIFO)" in msg


def test_dangling_symlink(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "x.opt").symlink_to(tmp_path / "nowhere")
    assert "x.opt: dangling symbolic link" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_directory_named_opt(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "x.opt").mkdir()
    assert "x.opt: not a regular file (a directory)" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_symlink_loop(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "x.opt").symlink_to("y.opt")
    (root / "gcc" / "y.opt").symlink_to("x.opt")
    assert "symbolic link loop" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_device_named_opt(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "zero.opt").symlink_to("/dev/zero")
    assert "zero.opt: not a regular file (a device)" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_binary_base_ver(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "BASE-VER").write_bytes(b"\xff\xfe\x00\x01" * 100)
    assert "BASE-VER:1: not a GCC version" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_huge_base_ver(must_fail, tmp_path, good_tree):
    root = good_tree
    (root / "gcc" / "BASE-VER").write_bytes(b"9" * 100_000)
    assert "BASE-VER" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_file_name_not_utf8(must_fail, tmp_path, good_tree, c_opt):
    root = good_tree
    (root / "gcc" / "config").mkdir()
    with open(os.fsencode(root / "gcc" / "config") + b"/\xff.opt", "wb") as fh:
        fh.write(c_opt.encode())
    assert "config/\\xff.opt: file name is not valid UTF-8" in must_fail(
        "flags", "ingest", "gcc-99", "--source", str(root))


def test_source_path_not_utf8(tmp_path, gcc_db_copy, warnscope, one_error):
    proc = warnscope("--db", str(gcc_db_copy), "flags", "ingest", "gcc-99", "--source",
                     os.fsencode(tmp_path) + b"/\xff")
    assert "/\\xff: no such file or directory" in one_error(proc)


def test_long_line_in_opt_file(must_fail, tmp_path, good_tree, common_opt):
    root = good_tree
    with open(root / "gcc" / "common.opt", "a") as fh:
        fh.write("\nWlong\nCommon Warning\n" + "x" * (50 << 20) + "\n")
    lines = common_opt.count("\n") + 4
    assert f"common.opt:{lines}: line longer than 65536 bytes" in must_fail(
        "flags", "ingest", "gcc-99", "--source", str(root))


def test_50mb_line_in_clang_inc_fails_in_bounded_memory(tmp_path, gcc_db_copy, warnscope, one_error):
    from flagdb.clang_ingest import fetch_package

    src, _ = fetch_package(16)
    d = tmp_path / "inc"
    shutil.copytree(src, d)
    path = d / "DiagnosticSemaKinds.inc"
    n = path.read_text().count("\n")
    with open(path, "a") as fh:
        fh.write('DIAG(warn_x, CLASS_WARNING, "' + "x" * (50 << 20) + '")\n')
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = warnscope("--db", str(gcc_db_copy), "flags", "ingest", "clang-16", "--source", str(d))
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert f"DiagnosticSemaKinds.inc:{n + 1}: line longer than" in one_error(proc)
    if before < rss_mb * 1024:   # this child set the children's maximum
        assert rss_mb < 300, f"{rss_mb:.0f} MB"


def test_file_over_the_size_cap(must_fail, tmp_path, good_tree):
    root = good_tree
    with open(root / "gcc" / "common.opt", "a") as fh:
        for _ in range(17 << 10):
            fh.write(";" + "x" * 1022 + "\n")
    assert "common.opt: over the 16 MB limit" in must_fail("flags", "ingest", "gcc-99", "--source", str(root))


def test_argument_list_too_long(cli, require):
    """300000 flags for GCC (the plugin route runs gcc-12 with them): one line, no traceback."""
    require("gcc-12")
    code, _, err = cli("flags", "closure", "gcc-12", *(["-Wformat=2"] * 300_000))
    assert code == 1 and err.startswith(ERROR) and len(err.strip().splitlines()) == 1, err[:500]
    assert "Argument list too long" in err or "plugin" in err


def test_non_utf8_arguments(gcc_db_copy, dump, one_error, warnscope):
    before = dump(gcc_db_copy)
    for args in ([b"flags", b"show", b"-W\xff", b"-c", b"gcc-12"],
                 [b"flags", b"check", b"-c", b"gcc-12", b"--", b"-W\xffoo"],
                 [b"flags", b"list", b"gcc-\xff"],
                 [b"--db", os.fsencode(gcc_db_copy.parent) + b"/\xff.db", b"flags", b"versions"]):
        proc = warnscope("--db", str(gcc_db_copy), *args) if args[0] != b"--db" else warnscope(*args)
        msg = one_error(proc)
        assert "\\xff" in msg, msg
    assert dump(gcc_db_copy) == before


# ------------------------------------------------------------------ complete sources

@pytest.fixture(scope="module")
def gcc12_tree() -> Path:
    from flagdb.gcc_ingest import fetch_debian

    return fetch_debian("12")[0]


def _copy(tree: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "gcc12"
    shutil.copytree(tree, dest)
    return dest


def test_empty_common_opt(must_fail, tmp_path, gcc12_tree):
    root = _copy(gcc12_tree, tmp_path)
    (root / "gcc" / "common.opt").write_text("")
    assert "common.opt: holds no options" in must_fail("flags", "ingest", "gcc-12", "--source", str(root))


def test_tree_without_c_family(must_fail, tmp_path, gcc12_tree):
    root = _copy(gcc12_tree, tmp_path)
    (root / "gcc" / "c-family" / "c.opt").unlink()
    line = must_fail("flags", "ingest", "gcc-12", "--source", str(root))
    assert "no c-family/c.opt or c.opt: an incomplete GCC source tree" in line   # (gcc/c.opt before 4.6)
    assert "looked for gcc/common.opt, gcc/c-family/c.opt, gcc/c.opt" in line


def test_far_fewer_flags_need_force(must_fail, tmp_path, gcc12_tree, gcc_db_copy, capsys, cli_at):
    root = _copy(gcc12_tree, tmp_path)
    c_opt = root / "gcc" / "c-family" / "c.opt"
    text = c_opt.read_text()
    c_opt.write_text(text[: len(text) // 10].rpartition("\n\n")[0] + "\n")
    msg = must_fail("flags", "ingest", "gcc-12", "--source", str(root))
    stored = len(json.loads(cli_at(gcc_db_copy)("flags", "list", "gcc-12", "--all", "--json")[1]))
    assert f"far fewer than the {stored} stored" in msg and "--force" in msg
    code, out, _ = cli_at(gcc_db_copy)("flags", "ingest", "gcc-12", "--source", str(root), "--force")
    assert code == 0 and "gcc-12: replaced" in out


def test_concurrent_first_ingests_of_one_version(tmp_path, gcc11, seeded_cache):
    """Two first-time ingests at once on an empty extraction cache: two full entries.
    (The .deb is linked in from the shared cache: the race was in the extraction.)"""
    from warnscope import apt
    from flagdb.gcc_ingest import fetch_debian

    deb = apt.archive().fetch(apt.archive().best("gcc-11-source"))
    fetch_debian("11")  # the shared cache's copy, for the expected count
    cache = seeded_cache(tmp_path / "cache")
    (cache / "debs").mkdir(parents=True)
    os.link(deb, cache / "debs" / deb.name)
    cmd = [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARNSCOPE_CACHE": str(cache)}
    procs = [subprocess.Popen([*cmd, "--db", str(tmp_path / f"{i}.db"), "flags", "ingest", "gcc-11"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for i in range(2)]
    outs = [p.communicate(timeout=900) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err.decode()
        assert f"gcc-11: added (11.3.0, {len(gcc11.flags)} flags" in out.decode()
    assert not [p for p in (cache / "gcc").iterdir() if ".part-" in p.name]
