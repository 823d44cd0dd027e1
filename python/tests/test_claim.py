"""shiftdp.check_claim: the library's claim checker (lib.rs front page, task 5)."""

import pickle

import pytest

import shiftdp


def test_sound_claim_passes():
    # BSA24 Thm 4.1 (composition) as an upper bound
    r = shiftdp.check_claim("mu <= sqrt(t)*L/(b*sigma)", "gd", samples=3)
    assert r.status == "pass" and r.passed and bool(r)
    assert r.counterexample is None
    assert r.obligations and all(o.points >= 1 for o in r.obligations)
    assert pickle.loads(pickle.dumps(r)) == r


def test_unsound_claim_fails_with_counterexample():
    r = shiftdp.check_claim("mu <= sqrt(t)*L/(2*b*sigma)", "gd", samples=3)
    assert r.status == "fail" and not r.passed
    cx = r.counterexample
    assert cx is not None and cx.params and cx.detail
    assert "counterexample" in repr(r)


def test_bad_claims_raise():
    with pytest.raises(shiftdp.ShiftdpError):
        shiftdp.check_claim("mu <= sqrt(", "gd", samples=1)
    with pytest.raises(shiftdp.ShiftdpError):
        shiftdp.check_claim("mu <= t", "no-such-family", samples=1)
    with pytest.raises(shiftdp.ShiftdpError):
        shiftdp.check_claim("eps <= t", "gd", samples=1)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.check_claim("mu <= t", "gd", samples=1, tolerance=float("nan"))
    with pytest.raises(TypeError):
        shiftdp.check_claim("mu <= t", "gd", samples=0)
