"""The decomposition benchmark (make bench-linalg): symgrad's compiled linalg.solve and
linalg.eigh (codegen/c/decomp.py: its own loops below ``LAPACK_MIN``'s orders, LAPACK from
them) vs NumPy's LAPACK per size. Medians of repeated calls, NumPy in and out, in this
process, one thread each (the Makefile sets OPENBLAS_NUM_THREADS and SYMGRAD_NUM_THREADS).

Writes benchmarks/results/linalg.md and .json.
"""

from __future__ import annotations

import json
import platform
from pathlib import Path

import numpy as np

import symgrad as sg
from matmul import median_us

OUT = Path(__file__).resolve().parent / "results"
SIZES = (4, 16, 64, 200)


def measure(n: int, rng) -> dict:
    a = rng.normal(size=(n, n)) + n * np.eye(n)
    b = rng.normal(size=(n,))
    s = a @ a.T
    solve = sg.compile(lambda m, v: sg.linalg.solve(m, v))
    eigh = sg.compile(lambda m: sg.linalg.eigh(m).eigenvalues)
    np.testing.assert_allclose(solve(a, b), np.linalg.solve(a, b), rtol=1e-9)
    np.testing.assert_allclose(eigh(s), np.linalg.eigvalsh(s), rtol=1e-9)
    return {"n": n, "solve_symgrad": median_us(solve, a, b),
            "solve_numpy": median_us(np.linalg.solve, a, b),
            "eigh_symgrad": median_us(eigh, s), "eigh_numpy": median_us(np.linalg.eigh, s)}


def main() -> None:
    rng = np.random.default_rng(0)
    rows = [measure(n, rng) for n in SIZES]
    lines = ["# Decompositions: compiled kernels vs NumPy's LAPACK", "",
             f"`make bench-linalg`; medians in us, one process, one thread each; "
             f"{platform.machine()}.", "",
             "| n | solve symgrad | solve NumPy | eigh symgrad | eigh NumPy |",
             "|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['n']} | {r['solve_symgrad']:.1f} | {r['solve_numpy']:.1f} | "
              f"{r['eigh_symgrad']:.1f} | {r['eigh_numpy']:.1f} |" for r in rows]
    OUT.mkdir(exist_ok=True)
    (OUT / "linalg.md").write_text("\n".join(lines) + "\n")
    (OUT / "linalg.json").write_text(json.dumps(rows, indent=1))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
