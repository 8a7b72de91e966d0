"""The documentation: the README is a user's first page (within its length, every link
leading to a file of the repository), and the site in docs/ builds with MkDocs --strict
(every page in the navigation, every link and anchor between pages found), offline: no
page loads anything from the network."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 250


def test_the_readme_fits_on_a_page_and_its_links_lead_somewhere():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= README_MAX_LINES
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert len(links) >= 10
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        target = link.split("#")[0]
        assert (ROOT / target).exists(), link


def test_the_docs_site_builds_strictly_and_offline(tmp_path):
    out = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("index.html"))
    assert {"index.html", "flags/index.html", "security/index.html", "advise/index.html"} <= set(pages)
    for page in out.rglob("*.html"):
        loads = re.findall(r'<(?:script|img|link)[^>]+(?:src|href)="(https?://[^"]+)"', page.read_text())
        assert loads == [], (page, loads)
    assert not (ROOT / "site").exists()    # nothing written into the repository
