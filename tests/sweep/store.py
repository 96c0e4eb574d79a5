"""Writes the sweep's stored expectations from torch, and (``--known``) the open-differences
list of ``known_differences.py`` from a full run.

    python tests/sweep/store.py            # expected.json.gz: torch's record of every sample
    python tests/sweep/store.py --known    # also rewrite section (b) of known_differences.py
    python tests/sweep/store.py --known --only pow,ldexp   # only the ops whose name holds
                                           # one of these: their records and their lines

Input: torch (installed), the registry's samples. Output: ``expected.json.gz`` (torch's
version, its public callable names per namespace, and per sample pattern its record without
error messages: dtype, shape, requires_grad, grad_fn name, exception class and values and
gradients to the digits of their dtype; and for the ops whose rule in (a) measures accuracy,
torch's record of each float32 sample run in float64: ``accuracy``), and, with ``--known``,
the lines of (b).
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sweep import accuracy, known_differences, runner, suite  # noqa: E402


def records(ops: dict) -> dict:
    """pattern -> torch's record (with its error message: the store drops it)."""
    torch = runner.library("torch")
    return {sample.pattern: runner.run(torch, sample)
            for samples in ops.values() for sample in samples}


def references(ops: dict) -> dict:
    """pattern -> torch's record of the widened sample (float32 arguments as float64, the
    same values: ``accuracy``), for the samples of the ops whose rule reads one."""
    torch = runner.library("torch")
    return {sample.pattern: runner.run(torch, accuracy.widened(sample))
            for op, samples in ops.items() if op in known_differences.ACCURACY_OPS
            for sample in samples if accuracy.narrow_tensors(sample)}


def _without_messages(records: dict) -> dict:
    return {p: {k: v for k, v in r.items() if k != "m"} for p, r in records.items()}


def write_store(live: dict, keep: dict | None = None, refs: dict | None = None,
                keep_refs: dict | None = None) -> dict:
    """Stores ``live`` (pattern -> record) and the float64 references ``refs``; ``keep``,
    ``keep_refs``: the stored ones of the ops not run."""
    torch = runner.library("torch")
    stored = dict(keep or {})
    stored.update(_without_messages(live))
    widened = dict(keep_refs or {})
    widened.update(_without_messages(refs or {}))
    data = {"torch": torch["torch"].__version__,
            "torch_names": {ns: sorted(v) for ns, v in suite.torch_names({}).items()},
            "records": stored, "references": widened}
    text = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    old = gzip.decompress(suite.STORE.read_bytes()) if suite.STORE.exists() else b""
    if text != old:   # (unchanged: the file stays byte for byte)
        with gzip.GzipFile(suite.STORE, "wb", compresslevel=9, mtime=0) as f:
            f.write(text)
    return data


def open_lines(results: list) -> list:
    lines = []
    for r in sorted(results, key=lambda r: (r.sample.op, r.sample.pattern)):
        aspects = sorted(a for a in r.diffs if a != "lenient")
        if aspects:
            detail = f"{aspects[0]}: {r.diffs[aspects[0]]}".replace("\n", " ")[:140].rstrip()
            lines.append(f"{r.sample.op} | {r.sample.pattern} | {' '.join(aspects)} | {detail}")
    return lines


def write_known(results: list, ran: set | None = None) -> None:
    """Rewrites section (b) from ``results``; with ``ran`` (the ops that ran), only their
    lines: the other ops' lines stay as they are."""
    path = Path(known_differences.__file__)
    text = path.read_text()
    head, rest = text.split(known_differences.BEGIN + "\n", 1)
    old, tail = rest.split(known_differences.END, 1)
    lines = open_lines(results)
    if ran is not None:
        kept = [line for line in old.splitlines()[1:-1]
                if line.split(" | ")[0] not in ran]
        lines = sorted(kept + lines, key=lambda line: line.split(" | ")[:2])
    body = 'OPEN = """\n' + "\n".join(lines) + '\n"""\n'
    path.write_text(head + known_differences.BEGIN + "\n" + body + known_differences.END + tail)


def main() -> None:
    start = time.perf_counter()
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    ops = suite.plan("full", {})
    keep = keep_refs = None
    if only:
        ops = {op: s for op, s in ops.items() if any(part in op for part in only)}
        old = suite.load_store()
        keep, keep_refs = ({p: r for p, r in old.get(key, {}).items()
                            if p.split("(")[0] not in ops} for key in ("records", "references"))
    live, refs = records(ops), references(ops)
    data = write_store(live, keep, refs, keep_refs)
    print(f"stored {len(data['records'])} torch records of {len(ops)} ops in {suite.STORE} "
          f"({suite.STORE.stat().st_size / 1e6:.2f} MB, {time.perf_counter() - start:.0f} s)")
    if "--known" in sys.argv:
        results = suite.execute(ops, "stored", {"records": live, "references": refs})
        write_known(results, set(ops) if only else None)
        print(f"wrote {len(open_lines(results))} open differences into "
              f"{known_differences.__file__}")


if __name__ == "__main__":
    main()
