"""``site serve`` over a directory someone else filled.

The real ``warnscope site serve`` runs as a child on a free port of 127.0.0.1 over a
site holding a link to a root-only file (``/etc/shadow``), a link to a file outside
the site, a link to a directory outside, a FIFO, a link that stays inside and normal
pages. Only the regular files reached without a link are served (a directory is its
``index.html``); every link and the FIFO are 404, and so is ``..`` however it is
spelled. A client that connects and says nothing holds no one up, and its connection
is closed by the server. SIGTERM ends the server with 143, Ctrl-C with 130.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from analyzer.site import serve

ROOT = Path(__file__).resolve().parents[2]
SECRET = "outside the site"


@pytest.fixture
def hostile_site(tmp_path) -> Path:
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.html").write_text(SECRET)
    (site / "index.html").write_text("<h1>the site</h1>")
    (site / "page.html").write_text("<p>a page</p>")
    (site / "sub" / "index.html").write_text("<p>sub</p>")
    (site / "shadow.html").symlink_to("/etc/shadow")
    (site / "secret.html").symlink_to(outside / "secret.html")
    (site / "out").symlink_to(outside, target_is_directory=True)
    (site / "inner.html").symlink_to("page.html")
    os.mkfifo(site / "fifo.html")
    return site


def start(site: Path) -> tuple[subprocess.Popen, str]:
    """The real CLI serving ``site`` on any free port; (the child, its base URL)."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                             "site", "serve", "-d", str(site), "--port", "0"],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # the child prints it once listening
    url = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not url:
        proc.kill()
        pytest.fail(f"no URL in {line!r}: {proc.communicate(timeout=10)[1]}")
    return proc, url.group(0)


def status(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def stop(proc: subprocess.Popen, sig: int) -> tuple[int, float, str]:
    """Send ``sig``; (exit status, seconds it took, stderr). Killed after 10 s."""
    t0 = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate(timeout=10)
    return proc.returncode, time.monotonic() - t0, err


def test_only_regular_files_reached_without_a_link_are_served(hostile_site):
    proc, base = start(hostile_site)
    try:
        assert status(base + "page.html") == (200, b"<p>a page</p>")
        assert status(base) == (200, b"<h1>the site</h1>")
        assert status(base + "sub/") == (200, b"<p>sub</p>")
        assert status(base + "sub") == (200, b"<p>sub</p>")  # redirected to sub/, as a static host
        for name in ("shadow.html", "secret.html", "out/secret.html", "out/", "inner.html",
                     "fifo.html", "missing.html", "page.html/", "../outside/secret.html",
                     "%2e%2e/outside/secret.html", "sub/%2E%2E/%2e%2e/outside/secret.html", "%ff"):
            code, body = status(base + name)
            assert code == 404 and SECRET.encode() not in body, name
        assert status(base + "page.html")[0] == 200  # the FIFO blocked nothing
    finally:
        code, took, err = stop(proc, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and took < 5, err
    assert err.strip().splitlines()[-1] == "warnscope: terminated"


def test_an_idle_client_is_cut_off_and_holds_no_one_up(hostile_site):
    proc, base = start(hostile_site)
    port = int(base.rsplit(":", 1)[1].strip("/"))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=serve.SOCKET_TIMEOUT + 10) as idle:
            t0 = time.monotonic()
            assert status(base + "page.html")[0] == 200   # served while the idle one waits
            assert idle.recv(1024) == b""                 # the server closes it ...
            assert time.monotonic() - t0 < serve.SOCKET_TIMEOUT + 5  # ... within its timeout
    finally:
        code, took, err = stop(proc, signal.SIGINT)
    assert code == 130 and took < 5, err


def test_the_site_directory_itself_must_hold_a_real_index(tmp_path, warnscope, one_error):
    """An ``index.html`` that is a link (to a file outside) is no site: one line."""
    site = tmp_path / "site"
    site.mkdir()
    (tmp_path / "page.html").write_text(SECRET)
    (site / "index.html").symlink_to(tmp_path / "page.html")
    assert "no index.html" in one_error(warnscope("site", "serve", "-d", str(site), "--port", "0", timeout=60))
