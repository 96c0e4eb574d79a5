"""The corpus: small torch programs in the style of the well-known tutorials and courses, run
unmodified with symgrad standing in for torch (``as_torch.py``); what they print must be what
torch prints, numbers compared at float32 tolerance.

With torch installed, each program also runs under torch and the two outputs are compared; the
outputs torch printed are stored in ``expected/`` (``python tests/programs/test_programs.py
--store`` rewrites them from torch) and compared when torch is absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from program_output import same_output

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted(HERE.glob("p[0-9][0-9]_*.py"))


def run(program: Path, with_torch: bool) -> str:
    cmd = [sys.executable] + ([] if with_torch else [str(HERE / "as_torch.py")]) + [str(program)]
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE, timeout=600)
    if done.returncode:
        raise AssertionError(f"{program.name} failed under {'torch' if with_torch else 'symgrad'}"
                             f":\n{done.stderr[-3000:]}")
    return done.stdout


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_torchs_output(program):
    try:
        import torch  # noqa: F401
        want = run(program, with_torch=True)
    except ImportError:
        stored = HERE / "expected" / (program.stem + ".out")
        want = stored.read_text()
    same_output(run(program, with_torch=False), want)


def test_the_corpus_is_there():
    assert len(PROGRAMS) >= 1
    for p in PROGRAMS:
        assert (HERE / "expected" / (p.stem + ".out")).exists(), f"store torch's output of {p}"


def test_the_comparison_can_fail():
    with pytest.raises(AssertionError):
        same_output("loss 0.5000\n", "loss 0.5100\n")
    with pytest.raises(AssertionError):
        same_output("tensor([1., 2.])\n", "tensor([1., 2.], dtype=torch.float64)\n")
    same_output("loss 0.50000\n", "loss 0.50001\n")
    same_output("tensor([nan, 1.])\n", "tensor([nan, 1.])\n")
    with pytest.raises(AssertionError):
        same_output("tensor([nan, 1.])\n", "tensor([0., 1.])\n")


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    for p in PROGRAMS:
        (HERE / "expected" / (p.stem + ".out")).write_text(run(p, with_torch=True))
        print("stored", p.stem)
