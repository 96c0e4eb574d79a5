"""make bench-compile's peers (benchmarks/compile_peers.py) compute what symgrad computes: the
same problem functions on torch's tensors give symgrad's value and gradients (torch is an
optional test dependency: skipped without it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import compile_peers  # noqa: E402
from compile_problems import PROBLEMS, leaves  # noqa: E402


@pytest.mark.parametrize("name", ["rk4_10", "det7_flat"])
def test_torch_eager_gives_symgrads_value_and_gradients(name, tmp_path):
    pytest.importorskip("torch")
    dump = tmp_path / "torch.npz"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(BENCH.parent),
                                                        os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, str(BENCH / "compile_peers.py"), "--child", name, "--system",
           "torch", "--dump", str(dump)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    record = json.loads(out.strip().splitlines()[-1])
    assert record["system"] == "torch" and record["first_call"] > 0
    with np.load(dump) as z:
        theirs = [z[f"arr_{k}"] for k in range(len(z.files))]
    fn, args = PROBLEMS[name]()
    mine = leaves(fn(*args))
    assert len(mine) == len(theirs) == 1 + len(compile_peers.PROBLEMS[name][1])
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a, b.reshape(a.shape), rtol=1e-12, atol=1e-12)
