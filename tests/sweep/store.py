"""Writes the sweep's stored expectations from torch, and (``--known``) the open-differences
list of ``known_differences.py`` from a full run.

    python tests/sweep/store.py            # expected.json.gz: torch's record of every sample
    python tests/sweep/store.py --known    # also rewrite section (b) of known_differences.py

Input: torch (installed), the registry's samples. Output: ``expected.json.gz`` (torch's
version, its public callable names per namespace, and per sample pattern its record without
error messages: dtype, shape, requires_grad, grad_fn name, exception class and values and
gradients to the digits of their dtype), and, with ``--known``, the lines of (b).
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sweep import known_differences, runner, suite  # noqa: E402


def records(ops: dict) -> dict:
    """pattern -> torch's record (with its error message: the store drops it)."""
    torch = runner.library("torch")
    return {sample.pattern: runner.run(torch, sample)
            for samples in ops.values() for sample in samples}


def write_store(live: dict) -> dict:
    torch = runner.library("torch")
    stored = {p: {k: v for k, v in r.items() if k != "m"} for p, r in live.items()}
    data = {"torch": torch["torch"].__version__,
            "torch_names": {ns: sorted(v) for ns, v in suite.torch_names({}).items()},
            "records": stored}
    with gzip.open(suite.STORE, "wt", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
    return data


def open_lines(results: list) -> list:
    lines = []
    for r in sorted(results, key=lambda r: (r.sample.op, r.sample.pattern)):
        aspects = sorted(a for a in r.diffs if a != "lenient")
        if aspects:
            detail = f"{aspects[0]}: {r.diffs[aspects[0]]}".replace("\n", " ")[:140].rstrip()
            lines.append(f"{r.sample.op} | {r.sample.pattern} | {' '.join(aspects)} | {detail}")
    return lines


def write_known(results: list) -> None:
    path = Path(known_differences.__file__)
    text = path.read_text()
    head, rest = text.split(known_differences.BEGIN + "\n", 1)
    _, tail = rest.split(known_differences.END, 1)
    body = 'OPEN = """\n' + "\n".join(open_lines(results)) + '\n"""\n'
    path.write_text(head + known_differences.BEGIN + "\n" + body + known_differences.END + tail)


def main() -> None:
    start = time.perf_counter()
    ops = suite.plan("full", {})
    live = records(ops)
    data = write_store(live)
    print(f"stored {len(data['records'])} torch records of {len(ops)} ops in {suite.STORE} "
          f"({suite.STORE.stat().st_size / 1e6:.2f} MB, {time.perf_counter() - start:.0f} s)")
    if "--known" in sys.argv:
        results = suite.execute(ops, "stored", {"records": live})
        write_known(results)
        print(f"wrote {len(open_lines(results))} open differences into "
              f"{known_differences.__file__}")


if __name__ == "__main__":
    main()
