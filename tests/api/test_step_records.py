"""A captured eager step's compiled code kept on disk under the key of its structure
(``api.step_key``, ``api.replay``): a later process loads it instead of tracing it again, and
prints the same bits; a key holds everything the step's code depends on, or there is none."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import symgrad as sg
from symgrad import dtypes
from symgrad.api import replay
from symgrad.api.step_key import step_key

_PROGRAM = """
import numpy as np, symgrad as torch
import symgrad.nn.functional as F
from symgrad.frontend.core import lazy
lazy.SETTINGS.update(repeats=2, min_ops=0)
rng = np.random.default_rng(0)
X = torch.tensor(rng.standard_normal((32, 4)).astype(np.float32))
y = torch.tensor(rng.integers(0, 3, 32))
w = torch.zeros(4, 3, requires_grad=True)
for step in range(6):
    loss = F.cross_entropy(X @ w * 2.0, y)      # (a composite: its rule is symgrad's code)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad = None
    print(step, loss.item().hex(), [v.hex() for row in w.tolist() for v in row])
print("replayed", lazy.STATS["replayed"])
"""


def _run(tmp_path, **env) -> tuple[list, list]:
    """The program's printed lines, and symgrad's log lines, in a fresh process."""
    # (none of the suite's settings: SYMGRAD_CHECK=1 turns warm starts off)
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    environ.update(SYMGRAD_CACHE_DIR=str(tmp_path / "cache"), SYMGRAD_DEBUG="1", **env)
    out = subprocess.run([sys.executable, "-c", _PROGRAM], capture_output=True, text=True,
                         check=True, env=environ).stdout.splitlines()
    return ([ln for ln in out if not ln.startswith("[symgrad]")],
            [ln for ln in out if ln.startswith("[symgrad]")])


def _numbers(lines: list) -> list:
    return [float.fromhex(v.strip("[]',")) for ln in lines for v in ln.split()[1:]]


def test_a_later_process_loads_the_step_and_prints_the_same_bits(tmp_path):
    first, log1 = _run(tmp_path)
    second, log2 = _run(tmp_path)
    eager, _ = _run(tmp_path, SYMGRAD_CAPTURE="0")
    assert int(first[-1].split()[-1]) > 0, first       # (steps ran compiled)
    assert first == second                               # the same bits, loaded or traced
    # (and the eager numbers, to float32 rounding: compiled kernels may round the last bits
    # otherwise -- when the switch to them happens is counted, the same in every run)
    np.testing.assert_allclose(_numbers(first[:-1]), _numbers(eager[:-1]), rtol=1e-5, atol=1e-7)
    assert any("eager_step:" in ln and "nodes" in ln for ln in log1), log1   # traced
    assert any("eager_step: from disk" in ln for ln in log2), log2           # loaded
    assert not any("eager_step:" in ln and "nodes" in ln for ln in log2), log2


def test_without_warm_starts_every_process_traces(tmp_path):
    _run(tmp_path)
    again, log = _run(tmp_path, SYMGRAD_WARM_START="0")
    assert not any("from disk" in ln for ln in log), log
    assert any("eager_step:" in ln and "nodes" in ln for ln in log), log
    assert int(again[-1].split()[-1]) > 0


_META = ((3,), dtypes.float32, True, True, None, False, False, None)


def _mul(c: float, meta=_META, root=0, outs=()):
    entries = [("a", "mul", {}, (-1, (float, c.hex())), None, None, True),
               ("a", "sum", {}, (0,), None, None, True)]
    return step_key(entries, [meta], root if root else 1, outs, "target")


def test_the_key_holds_what_the_step_depends_on():
    key = _mul(2.0)
    assert key is not None and key == _mul(2.0)
    others = [_mul(3.0), _mul(-0.0), _mul(0.0),                   # a constant, to its sign
              _mul(2.0, meta=((4,),) + _META[1:]),                # a shape
              _mul(2.0, meta=(_META[0], dtypes.float64) + _META[2:]),   # a dtype
              _mul(2.0, meta=_META[:2] + (False,) + _META[3:]),   # requires_grad
              _mul(2.0, outs=(0,)),                               # what it returns
              step_key([("a", "sum", {}, (-1,), None, None, True)], [_META], 0, (), "target"),
              step_key([("a", "mul", {}, (-1, (float, (2.0).hex())), None, None, True),
                        ("a", "sum", {}, (0,), None, None, True)], [_META], 1, (), "other")]
    assert len({key, *others}) == len(others) + 1


def test_a_step_holding_the_program_s_own_code_has_no_key():
    def rule(g, out, ins):      # (a rule from outside symgrad: its globals are not keyed)
        return (g,)
    spec = ("f", rule.__code__, (), ())
    entries = [("c", "MyBackward", None, False, False, False, -1, (-1,), spec)]
    assert step_key(entries, [_META], 0, (), "target") is None
    # symgrad's own rule is keyed by its file, name, line and bytecode
    own = ("f", sg.nn.functional.cross_entropy.__code__, (), ())
    assert step_key([entries[0][:8] + (own,)], [_META], 0, (), "target") is not None


@pytest.mark.parametrize("record", [("x", ()), (1, 2, 3), "text"])
def test_a_record_that_is_not_a_step_s_is_not_loaded(record):
    assert replay._loaded(record, 1) is None
