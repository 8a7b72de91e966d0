"""``warnscope docs``: the manual built offline into the cache, once per content of its
pages, opened as a file or served on loopback."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

REPO = Path(__file__).resolve().parents[2]


def test_docs_builds_the_manual_once_into_the_cache(warnscope, tmp_path):
    env = {"WARNSCOPE_CACHE": str(tmp_path / "cache")}
    first = warnscope("docs", env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    address = re.fullmatch(r"open (file://\S+)\n", first.stdout.decode()).group(1)
    index = Path(url2pathname(urlsplit(address).path))
    assert index.is_file() and (tmp_path / "cache") in index.parents
    pages = {p.parent.name for p in index.parent.rglob("index.html")}
    assert {"flags", "ub", "security", "json", "advise"} <= pages
    for page in index.parent.rglob("*.html"):
        assert not re.findall(r'<(?:script|img|link)[^>]+(?:src|href)="https?://', page.read_text()), page
    built = index.stat().st_mtime_ns
    again = warnscope("docs", env=env, timeout=300)
    assert again.stdout == first.stdout and index.stat().st_mtime_ns == built   # not built again


def test_docs_serve_answers_on_loopback(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                             "docs", "--serve", "--port", "0"], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO), "WARNSCOPE_CACHE": str(tmp_path)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, (line, proc.stderr.read() if proc.poll() is not None else "")
        with urllib.request.urlopen(url.group(0) + "flags/", timeout=10) as resp:
            assert b"flags tree" in resp.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
