"""apt's failures are typed by cause: an archive that cannot be reached is
NetworkUnreachable (a kind of PackageError), a bad package name is BadInput."""
from __future__ import annotations

import shutil

import pytest

from warnscope import apt
from warnscope.errors import BadInput, NetworkUnreachable


def test_an_unreachable_archive_is_network_unreachable(tmp_path):
    if shutil.which("apt-get") is None:
        pytest.skip("apt-get is not installed")
    state = apt.AptState(tmp_path, ("bookworm",), mirror="http://127.0.0.1:9/debian",
                         kinds=("deb",))
    with pytest.raises(NetworkUnreachable, match="cannot read Debian's package lists from "
                                                 "http://127.0.0.1:9/debian"):
        state.update()


def test_a_bad_package_name_is_bad_input(tmp_path):
    state = apt.AptState(tmp_path, ("bookworm",), kinds=("deb",))
    with pytest.raises(BadInput, match="not a Debian package name"):
        state.candidates("../etc/passwd")
