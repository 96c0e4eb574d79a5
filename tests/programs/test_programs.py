"""The corpus: small torch programs in the style of the well-known tutorials and courses, run
unmodified with symgrad standing in for torch (``as_torch.py``); what they print must be what
torch prints, numbers compared at float32 tolerance.

With torch installed, each program also runs under torch and the two outputs are compared; the
outputs torch printed are stored in ``expected/`` (``python tests/programs/test_programs.py
--store`` rewrites them from torch) and compared when torch is absent.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted(HERE.glob("p[0-9][0-9]_*.py"))
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


def run(program: Path, with_torch: bool) -> str:
    cmd = [sys.executable] + ([] if with_torch else [str(HERE / "as_torch.py")]) + [str(program)]
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE, timeout=600)
    if done.returncode:
        raise AssertionError(f"{program.name} failed under {'torch' if with_torch else 'symgrad'}"
                             f":\n{done.stderr[-3000:]}")
    return done.stdout


def same_output(got: str, want: str, rtol: float = 2e-4, atol: float = 1e-5) -> None:
    """Line by line: the same text around the numbers, the numbers close."""
    g_lines, w_lines = got.strip().splitlines(), want.strip().splitlines()
    assert len(g_lines) == len(w_lines), f"{len(g_lines)} lines printed, torch printed " \
                                         f"{len(w_lines)}:\n{got}\n---- torch:\n{want}"
    for k, (g, w) in enumerate(zip(g_lines, w_lines)):
        gn, wn = NUMBER.findall(g), NUMBER.findall(w)
        assert NUMBER.sub("#", g) == NUMBER.sub("#", w) and len(gn) == len(wn), \
            f"line {k + 1}:\n  symgrad: {g}\n  torch:   {w}"
        for a, b in zip(gn, wn):
            fa, fb = float(a), float(b)
            assert a == b or fa == fb or abs(fa - fb) <= atol + rtol * abs(fb), \
                f"line {k + 1}: {a} vs torch's {b}\n  symgrad: {g}\n  torch:   {w}"


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
