"""The private copy of a tree a build runs on (``analyzer/projects/sandbox.copy_tree``):
every file, directory and link keeps its times, whatever its size and whatever the
times (make compares them: an automake tree whose m4 file looks newer than
``aclocal.m4`` runs ``aclocal``); a tree that cannot be read is refused in one line
naming the file. Real files on the test's file system; the builds of a real automake
tarball are in ``system/test_build_times_real.py``."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from analyzer.projects.sandbox import BuildSandbox, Containment, check_tree, copy_tree
from warnscope.errors import UnsafeInput

#: the sizes the copy met: empty, under and over a buffered writer's buffer (4 and 8 KiB),
#: 1,331 bytes (an automake tree's version.m4), 44 KiB, and over the 1 MiB chunk the
#: copy reads with a last chunk under a buffer
SIZES = (0, 1, 1331, 4095, 4096, 8193, 44 * 1024, (3 << 20) + 5)
#: 2001-09-09, nanoseconds included: each path gets its own time from here
BASE = 1_000_000_000_123_456_789
DAY = 86_400 * 10**9


def _box(tmp_path: Path) -> BuildSandbox:
    box = tmp_path / "box"
    box.mkdir()
    return BuildSandbox(box, None, Containment.NONE)


def _tree(root: Path) -> None:
    """Files of every size in nested directories, an empty directory, links (to a file,
    dangling), a file in the future and one before 1970; every path its own mtime,
    directories' set last (a file made in them would change them)."""
    (root / "m4" / "deep").mkdir(parents=True)
    (root / "empty").mkdir()
    for i, size in enumerate(SIZES):
        (root / f"f{size}").write_bytes(os.urandom(size))
        (root / "m4" / f"f{i}.m4").write_bytes(b"x" * size)
    (root / "m4" / "deep" / "version.m4").write_bytes(b"m4_define([VERSION_NUMBER], [1.0])\n" * 38)
    (root / "future").write_text("from 2100\n")
    (root / "old").write_text("from 1960\n")
    os.symlink("f1331", root / "link")
    os.symlink("nowhere", root / "dangling")
    paths = sorted((p for p in root.rglob("*")), key=lambda p: (-len(p.parts), str(p)))
    for n, p in enumerate(paths):
        os.utime(p, ns=(BASE + n * DAY + 7, BASE + n * DAY + 11), follow_symlinks=False)
    os.utime(root / "future", ns=(4_102_444_800 * 10**9 + 5, 4_102_444_800 * 10**9 + 5))   # 2100-01-01
    os.utime(root / "old", ns=(-315_619_200 * 10**9 + 3, -315_619_200 * 10**9 + 3))        # 1960-01-01
    os.utime(root, ns=(BASE - DAY, BASE - DAY))


def _times(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every path below ``root`` (and it) -> (mtime in ns, mode, size), links not followed."""
    out = {}
    for p in [root, *root.rglob("*")]:
        st = os.lstat(p)
        out[str(p.relative_to(root))] = (st.st_mtime_ns, st.st_mode & 0o7777 if not os.path.islink(p)
                                         else 0, st.st_size)
    return out


def test_every_file_directory_and_link_keeps_its_time(tmp_path):
    src = tmp_path / "tree"
    src.mkdir()
    _tree(src)
    box = _box(tmp_path)
    before = _times(src)
    copy_tree(src, box.box / "tree", box)
    copied = _times(box.box / "tree")
    assert copied.keys() == before.keys()
    wrong = {p: (before[p][0], copied[p][0]) for p in before if copied[p][0] != before[p][0]}
    assert not wrong, f"times not kept (source, copy): {wrong}"
    assert copied == before
    for size in SIZES:
        assert (box.box / "tree" / f"f{size}").read_bytes() == (src / f"f{size}").read_bytes()
    assert os.readlink(box.box / "tree" / "link") == "f1331"
    assert _times(src) == before                      # the source as it was


def test_a_tree_checked_before_it_is_copied(tmp_path):
    src = tmp_path / "tree"
    src.mkdir()
    _tree(src)
    check_tree(src)                                   # times of any age are no reason to refuse
    os.mkfifo(src / "m4" / "pipe")
    with pytest.raises(UnsafeInput, match=r"/m4/pipe: not a regular file, directory or link \(a FIFO\)"):
        check_tree(src)


def test_a_file_or_directory_without_read_permission(tmp_path):
    """As root it is read all the same and copied as it is (its mode too: the build's uid
    then cannot read it, as on the tree's own machine); as anyone else it is refused,
    naming it, before anything is copied or built (system/test_build_times_real.py: the
    CLI as a normal user)."""
    src = tmp_path / "tree"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "secret.m4").write_text("dnl only its owner reads this\n")
    (src / "closed").mkdir()
    (src / "closed" / "inside.c").write_text("int x;\n")
    os.chmod(src / "sub" / "secret.m4", 0)
    os.chmod(src / "closed", 0)
    before = _times(src)
    box = _box(tmp_path)
    try:
        if os.geteuid() == 0:
            check_tree(src)
            copy_tree(src, box.box / "tree", box)
            copied = _times(box.box / "tree")
            assert {p: t[0] for p, t in copied.items()} == {p: t[0] for p, t in before.items()}
            assert copied["sub/secret.m4"][1] == 0        # a directory is made enterable (0700)
            assert (box.box / "tree/sub/secret.m4").read_text() == "dnl only its owner reads this\n"
            assert (box.box / "tree/closed/inside.c").read_text() == "int x;\n"
        else:
            with pytest.raises(UnsafeInput, match=r"/tree/closed: cannot be read \(permission denied\): "
                                                  r"the tree is not built"):
                check_tree(src)
            os.chmod(src / "closed", 0o755)
            with pytest.raises(UnsafeInput, match=r"/tree/sub/secret\.m4: cannot be read \(permission denied\)"):
                check_tree(src)
            with pytest.raises(UnsafeInput, match=r"/tree/sub/secret\.m4: cannot be read \(permission denied\)"):
                copy_tree(src, box.box / "tree", box)
    finally:
        os.chmod(src / "sub" / "secret.m4", 0o644)
        os.chmod(src / "closed", 0o755)
