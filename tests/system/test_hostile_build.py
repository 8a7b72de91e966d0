"""A project's build is the tree author's code: it runs in the build sandbox.

A real tree whose build script tries what a hostile one would (read a root-only file,
write outside its tree, reach the network, leave a process running, put a link to a
root-only file where warnscope reads the compiler wrapper's log or a compile's output)
is built by the real ``warnings run`` and ``overhead run`` with gcc-12, as root. What the
script saw comes back as the compiler's own diagnostics: it writes each answer into a C
file as a ``#warning`` and compiles it, so the stored build says what happened inside.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from analyzer.projects import sandbox as build_sandbox

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the build sandbox's pool uid is root's to give")
pytestmark = [
    pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12"),
    pytest.mark.skipif(build_sandbox.containment() is not build_sandbox.Containment.NAMESPACE,
                       reason="needs bubblewrap's namespaces"),
]

SECRET = "/etc/shadow"
REPO = Path(__file__).resolve().parents[2]
MARK = "sleep 299.25"


def _tree(root: Path, outside: Path, port: int, extra: str = "") -> Path:
    """A project whose build.sh probes its sandbox and reports through #warning lines."""
    tree = root / "proj"
    tree.mkdir()
    (tree / "build.sh").write_text(f"""#!/bin/sh
say() {{ printf '#warning "%s"\\n' "$*" >> probe.c; }}
: > probe.c
say "uid $(id -u)"
if cat {SECRET} >/dev/null 2>&1; then say "secret read"; else say "secret refused"; fi
if touch {outside}/pwned 2>/dev/null; then say "outside written"; else say "outside refused"; fi
if [ -e {outside}/marker ] || [ -e {REPO}/README.md ]; then say "host seen"; else say "host hidden"; fi
if python3 -c "import socket; socket.create_connection(('127.0.0.1', {port}), 2)" 2>/dev/null
then say "network reached"; else say "network refused"; fi
({MARK} &) </dev/null >/dev/null 2>&1
{extra}
$CC $CFLAGS -c probe.c -o probe.o
""")
    return tree


@pytest.fixture
def listener():
    """A TCP port on 127.0.0.1 that counts the connections it accepts (for a bounded time)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    accepted: list[int] = []
    stop = threading.Event()

    def serve() -> None:
        deadline = time.monotonic() + 600
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            accepted.append(1)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield srv.getsockname()[1], accepted
    stop.set()
    thread.join(5)
    srv.close()


def _messages(out: str) -> list[str]:
    """What the build script said: its #warning lines' texts (GCC prints ``#warning "…"``)."""
    builds = json.loads(out)["builds"]
    return sorted(re.sub(r'^#warning "(.*)"$', r"\1", d["message"]) for b in builds for d in b["diagnostics"])


def _leftovers() -> list[str]:
    ps = subprocess.run(["ps", "-eo", "uid=,args="], capture_output=True, text=True, check=True)
    return [line for line in ps.stdout.splitlines() if MARK in line and "build.sh" not in line]


@as_root
def test_a_builds_script_runs_as_a_pool_uid_without_secrets_network_or_the_host(
        gcc_db_copy, cli_at, tmp_path, listener):
    port, accepted = listener
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "marker").write_text("")
    tree = _tree(tmp_path, outside, port)
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--build", "sh build.sh",
                                         "--compilers", "gcc-12", "--level", "default", "--json", "--quiet")
    assert code == 0, err
    said = _messages(out)
    assert said, out
    uid = next(int(m.split()[1]) for m in said if m.startswith("uid "))
    assert 64100 <= uid < 64164
    assert {"secret refused", "outside refused", "host hidden", "network refused"} <= set(said), said
    assert not (outside / "pwned").exists()
    assert accepted == []
    assert _leftovers() == []   # the build's PID namespace ended with it
    # the source tree itself is never written (the build ran in a private copy)
    assert sorted(p.name for p in tree.iterdir()) == ["build.sh"]


@as_root
def test_an_overhead_study_times_its_build_in_the_sandbox(gcc_db_copy, cli_at, tmp_path, listener):
    port, accepted = listener
    outside = tmp_path / "outside"
    outside.mkdir()
    tree = _tree(tmp_path, outside, port)
    code, out, err = cli_at(gcc_db_copy)("overhead", "run", "--source", str(tree), "--build", "sh build.sh",
                                         "--clean", "true", "--compilers", "gcc-12", "--levels", "default", "--runs", "1",
                                         "--no-accounting", "--json", "--quiet")
    assert code == 0, err
    cells = json.loads(out)["cells"]
    assert [c["status"] for c in cells] == ["ok"], cells
    assert cells[0]["warnings"] == 5   # the five answers of build.sh, as #warning lines
    assert not (outside / "pwned").exists() and accepted == [] and _leftovers() == []


@as_root
@pytest.mark.parametrize("planted", ["wrapper log", "compile output"])
def test_a_link_planted_where_warnscope_reads_the_builds_output_is_refused(
        planted, gcc_db_copy, cli_at, tmp_path, listener, dump):
    """The build replaces a file warnscope reads back (the wrapper's log, a compile's
    stderr) by a link to a root-only file: it is not read, and nothing of it is stored."""
    port, _ = listener
    outside = tmp_path / "outside"
    outside.mkdir()
    swap = ('ln -sf /etc/shadow "$WARNSCOPE_BUILD_LOG"' if planted == "wrapper log" else
            'for f in "$WARNSCOPE_BUILD_STDERR"/*; do ln -sf /etc/shadow "$f"; done')
    tree = _tree(tmp_path, outside, port)
    script = tree / "build.sh"
    script.write_text(script.read_text() + swap + "\n")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--build", "sh build.sh",
                                         "--compilers", "gcc-12", "--level", "default", "--json", "--quiet")
    first = Path(SECRET).read_text().splitlines()[0]
    assert first.split(":")[0] == "root"
    assert not any(first in line for line in dump(gcc_db_copy))
    assert first not in out and first not in err
    if planted == "wrapper log":
        assert code != 0 and "symbolic link" in err, err
    else:
        assert code == 0, err
        tus = json.loads(out)["builds"][0]["tus"]
        assert any("refused" in (t.get("problem") or "") for t in tus), tus


@as_root
def test_a_fifo_in_the_tree_refuses_the_build_in_one_line(gcc_db_copy, fails_on, tmp_path):
    tree = tmp_path / "proj"
    tree.mkdir()
    (tree / "a.c").write_text("int a;\n")
    os.mkfifo(tree / "pipe.c")
    line = fails_on(gcc_db_copy, "warnings", "run", "--source", str(tree), "--build", "true",
                    "--compilers", "gcc-12", "--level", "off", "--quiet")
    assert "pipe.c" in line and "FIFO" in line


# ------------------------------------------------------------------ as a normal user

USER_SCRIPT = """
say() {{ echo "$*"; }}
say "uid $(id -u)"
if cat {secret} >/dev/null 2>&1; then say "secret read"; else say "secret refused"; fi
if touch {home}/pwned 2>/dev/null; then say "outside written"; else say "outside refused"; fi
if [ -e {home}/marker ]; then say "host seen"; else say "host hidden"; fi
if python3 -c "import socket; socket.create_connection(('127.0.0.1', {port}), 2)" 2>/dev/null
then say "network reached"; else say "network refused"; fi
({mark} &) </dev/null >/dev/null 2>&1
touch made-in-box && say "box written"
"""


def exercise() -> dict:
    """What a build step sees of the host, run through the build sandbox by whoever calls
    it (the user half of the test: a user namespace instead of the uid pool)."""
    import tempfile
    from analyzer.projects import process

    home = Path(os.environ["HOME"])
    (home / "marker").write_text("")
    work = Path(tempfile.mkdtemp(dir=home))
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    srv.settimeout(0.5)
    script = USER_SCRIPT.format(secret=ROOT_ONLY, home=home, port=srv.getsockname()[1], mark=MARK)
    with build_sandbox.build_sandbox(work) as box:
        t = process.run(script, box.box, process.build_env(), work / "log", box=box)
        said = (work / "log").read_text().splitlines()
        made = (box.box / "made-in-box").exists()
    try:
        srv.accept()
        accepted = True
    except OSError:
        accepted = False
    srv.close()
    return {"euid": os.geteuid(), "exit": t.exit, "said": said, "made": made, "accepted": accepted,
            "containment": build_sandbox.containment().value, "outside": (home / "pwned").exists()}


#: a file only root can read, made by the test as root
ROOT_ONLY = "/var/tmp/warnscope-build-secret"


def test_a_builds_script_as_a_normal_user_sees_nothing_of_the_user(exercised_as_user):
    Path(ROOT_ONLY).write_text("root only\n")
    os.chmod(ROOT_ONLY, 0o600)
    try:
        seen = exercised_as_user("tests.system.test_hostile_build")
    finally:
        os.unlink(ROOT_ONLY)
    assert seen["containment"] == "namespace" and seen["exit"] == 0, seen
    said = set(seen["said"])
    # (a write to a directory above the box lands in the sandbox's own tmpfs, not the host's)
    assert {"secret refused", "host hidden", "network refused", "box written"} <= said, said
    assert f"uid {seen['euid']}" in said          # the user itself, in its own user namespace
    assert seen["made"] and not seen["outside"] and not seen["accepted"]
    assert _leftovers() == []
