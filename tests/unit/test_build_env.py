"""A build step's environment is composed, never the caller's
(:func:`analyzer.projects.process.build_env`), and ``--env NAME`` takes exactly the
variables named (:func:`analyzer.projects.process.passed_env`)."""
from __future__ import annotations

import pytest

from analyzer.projects import process
from warnscope.errors import BadInput


def test_the_callers_variables_stay_out(monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hunter2")
    monkeypatch.setenv("CFLAGS", "-O0 -fplugin=evil.so")
    monkeypatch.setenv("LD_PRELOAD", "/tmp/evil.so")
    monkeypatch.setenv("PATH", "/usr/lib/ccache:/usr/bin:/bin")
    monkeypatch.setenv("HOME", "/home/someone")
    env = process.build_env({"CC": "/w/cc"})
    assert "hunter2" not in env.values()
    assert set(env) == {"PATH", "HOME", "CCACHE_DISABLE", "LC_ALL", "LANG", "CC"} | (
        {"TMPDIR"} if "TMPDIR" in env else set())
    assert env["PATH"].split(":")[:2] == ["/usr/bin", "/bin"]      # ccache's directory dropped
    assert (env["HOME"], env["LC_ALL"], env["CC"]) == ("/home/someone", "C", "/w/cc")


def test_a_passed_variable_and_what_warnscope_sets_win(monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("PASSME", "yes")
    passed = process.passed_env(["PASSME"])
    assert passed == {"PASSME": "yes"}
    env = process.build_env({"CC": "/w/cc"}, passed=passed)
    assert env["PASSME"] == "yes" and "SECRET_TOKEN" not in env


@pytest.mark.parametrize("name, why", [
    ("NOT_SET_HERE", "not set in this environment"),
    ("CC", "sets or keeps out CC"), ("CFLAGS", "sets or keeps out CFLAGS"),
    ("PATH", "sets or keeps out PATH"), ("LC_ALL", "sets or keeps out LC_ALL"),
    ("WARNSCOPE_BUILD_LOG", "sets or keeps out"), ("A=B", "not a variable's name"),
    ("", "not a variable's name"), ("X\x1b[2J", "not a variable's name"), ("1X", "not a variable's name"),
])
def test_env_refuses_in_one_line(monkeypatch, name, why):
    monkeypatch.delenv("NOT_SET_HERE", raising=False)
    with pytest.raises(BadInput) as err:
        process.passed_env([name], {"CC": "x", "CFLAGS": "x", "PATH": "x", "LC_ALL": "x",
                                    "WARNSCOPE_BUILD_LOG": "x"})
    assert why in str(err.value) and "\n" not in str(err.value) and "\x1b" not in str(err.value)
