"""The sandbox's pool of uids (as root): a uid is held by its flock
(:func:`warnscope.locks.flocked`) for as long as a run uses it, so concurrent runs
never share one."""
from __future__ import annotations

import os

import pytest

from analyzer.sandbox import runner as sandbox
from warnscope.locks import flocked

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the uid pool is used as root only")


def test_concurrent_claims_get_different_uids():
    with sandbox.claim_uid() as first:
        assert sandbox.UID_BASE <= first < sandbox.UID_BASE + sandbox.UID_COUNT
        with sandbox.claim_uid() as second:
            assert second != first
        with sandbox.claim_uid() as third:
            assert third != first


def test_a_uid_whose_lock_is_held_elsewhere_is_never_claimed():
    held_uid = sandbox.UID_BASE
    sandbox.LOCK_DIR.mkdir(mode=0o700, exist_ok=True)  # as the sandbox makes it
    with flocked(sandbox.LOCK_DIR / str(held_uid), wait=False) as held:
        if held is None:
            pytest.skip("another run on this host uses the first uid of the pool")
        with sandbox.claim_uid() as uid:
            assert uid != held_uid
