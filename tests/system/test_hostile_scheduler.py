"""``--scheduler`` pointed at something that is not a well-behaved Dask scheduler.

Real sockets on 127.0.0.1, each served by a thread that stops by itself: a peer that
accepts and never answers, one that sends a frame header announcing 4 EiB, one that
speaks HTTP. The real ``warnscope ub run --scheduler …`` (a one-program corpus, gcc-12
at -O0) ends each time with one ``warnscope: error:`` line within the connect timeout,
the database not created; ``tls://`` without certificates in dask's configuration is
one line at once; SIGTERM and Ctrl-C end the command while it waits for the handshake.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from analyzer.runtime.executors import CONNECT_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
#: seconds a listener lives, whatever the test does
LISTEN_FOR = CONNECT_TIMEOUT + 30
#: connections a listener takes before it stops
MAX_ACCEPTS = 20

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")


@contextlib.contextmanager
def listener(greet: Callable[[socket.socket], None]) -> Iterator[int]:
    """A port on 127.0.0.1 whose connections get ``greet`` and are then held open, up
    to :data:`MAX_ACCEPTS` connections and :data:`LISTEN_FOR` seconds."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        held = []
        end = time.monotonic() + LISTEN_FOR
        while not stop.is_set() and time.monotonic() < end and len(held) < MAX_ACCEPTS:
            try:
                conn, _ = srv.accept()
            except socket.timeout:
                continue
            except OSError:
                break
            held.append(conn)
            try:
                greet(conn)
            except OSError:
                pass
        stop.wait(max(0.0, end - time.monotonic()))
        for conn in held:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        srv.close()


@pytest.fixture
def silent() -> Iterator[int]:
    """Accepts and never says a word."""
    with listener(lambda conn: None) as port:
        yield port


@pytest.fixture
def silent_seen() -> Iterator[tuple[int, threading.Event]]:
    """Accepts and never says a word; the event is set at the first connection."""
    seen = threading.Event()
    with listener(lambda conn: seen.set()) as port:
        yield port, seen


@pytest.fixture
def huge_frame() -> Iterator[int]:
    """Sends the 8-byte length of a frame of 2**62 bytes (4 EiB), then nothing."""
    with listener(lambda conn: conn.sendall(struct.pack("Q", 2 ** 62))) as port:
        yield port


@pytest.fixture
def http() -> Iterator[int]:
    """Answers as a web server would."""
    with listener(lambda conn: conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")) as port:
        yield port


@pytest.fixture
def ub_args(tmp_path) -> Callable[[str], list[str]]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "ok.c").write_text("int main(void) { return 0; }\n")
    return lambda address: ["--db", str(tmp_path / "ub.db"), "ub", "run", "--corpus", str(corpus),
                            "--compilers", "gcc-12", "--levels", "O0", "--no-warnings",
                            "--no-sanitizers", "--scheduler", address]


def run_to_error(warnscope, one_error, args: list[str]) -> tuple[str, float]:
    t0 = time.monotonic()
    proc = warnscope(*args, timeout=CONNECT_TIMEOUT + 60)
    return one_error(proc), time.monotonic() - t0


def test_a_peer_that_never_answers_is_one_line_within_the_timeout(silent, ub_args, warnscope, one_error, tmp_path):
    line, took = run_to_error(warnscope, one_error, ub_args(f"tcp://127.0.0.1:{silent}"))
    assert f"did not answer within {CONNECT_TIMEOUT:g} s" in line
    assert took < CONNECT_TIMEOUT + 15
    assert not (tmp_path / "ub.db").exists()


def test_a_huge_frame_header_is_one_line(huge_frame, ub_args, warnscope, one_error, tmp_path):
    line, took = run_to_error(warnscope, one_error, ub_args(f"tcp://127.0.0.1:{huge_frame}"))
    assert "not a Dask scheduler" in line and "too large" in line, line
    assert took < CONNECT_TIMEOUT + 15
    assert not (tmp_path / "ub.db").exists()


def test_another_protocol_is_one_line(http, ub_args, warnscope, one_error, tmp_path):
    line, took = run_to_error(warnscope, one_error, ub_args(f"tcp://127.0.0.1:{http}"))
    assert f"127.0.0.1:{http}" in line
    assert took < CONNECT_TIMEOUT + 15
    assert not (tmp_path / "ub.db").exists()


def test_tls_without_certificates_says_so(silent, ub_args, warnscope, one_error, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                           *ub_args(f"tls://127.0.0.1:{silent}")],
                          cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120)
    line = one_error(proc)
    assert "tls:// needs a CA file and a client certificate" in line, line
    assert time.monotonic() - t0 < CONNECT_TIMEOUT
    assert not (tmp_path / "ub.db").exists()


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_ends_the_command_while_it_connects(sig, code, silent_seen, ub_args):
    silent, seen = silent_seen
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                             *ub_args(f"tcp://127.0.0.1:{silent}")],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert seen.wait(CONNECT_TIMEOUT), "the command never connected"
        time.sleep(0.5)  # connected: now waiting for the handshake
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == code and time.monotonic() - t0 < 5, err
        assert "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
