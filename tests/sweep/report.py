"""Prints the sweep's summary: names, patterns, matching, differences by class (most
patterns first, one example call each), lenient kinds, undefined exclusions, timing.

    python tests/sweep/report.py [--default] [--stored] [--only SUBSTRING] [--examples N]

Input: a sweep run (``suite``: the full set unless ``--default``; against torch live when it
is installed, unless ``--stored``). Output: the summary on stdout (the exit status is 0: it
reports; ``test_sweep`` judges).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sweep import names, suite  # noqa: E402
from sweep.compare import aspect_class  # noqa: E402


def normal(text: str) -> str:
    """A message or detail with its numbers and quoted names blanked, to group by."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text or "")
    return re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", text)[:90]


def subkind(cls: str, r, detail: str) -> str:
    """What groups a class's patterns into one fix: the message, the dtypes or grad_fn names
    that differ, or the op."""
    if cls == "error:missing":
        return f"torch: {normal((r.torch or {}).get('m') or detail)}"
    if cls == "error:extra":
        return f"symgrad: {normal((r.symgrad or {}).get('m') or detail)}"
    if cls in ("error:class", "dtype", "grad_fn", "requires_grad", "structure", "grad:error",
               "identity", "timeout"):
        return detail
    if cls == "shape":
        return normal(detail)
    return r.sample.op.replace("Tensor.", "").rstrip("_")


def classes(results: list) -> dict:
    """class -> [(subkind, pattern, detail)], a pattern counted once per class."""
    out = collections.defaultdict(list)
    for r in results:
        seen = set()
        for aspect, detail in sorted(r.diffs.items()):
            cls = aspect_class(aspect)
            if cls == "lenient" or cls in seen:
                continue
            seen.add(cls)
            out[cls].append((subkind(cls, r, detail), r.sample.pattern, detail))
    return out


def print_classes(results: list, examples: int) -> None:
    print("differences by class (patterns), most first; within each, the largest groups "
          "with an example:")
    for cls, rows in sorted(classes(results).items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(rows):6d}  {cls}")
        groups = collections.defaultdict(list)
        for kind, pattern, detail in rows:
            groups[kind].append((pattern, detail))
        for kind, members in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:examples]:
            pattern, detail = members[0]
            print(f"          {len(members):5d}  {kind}\n                 e.g. {pattern}"
                  f"  ->  {detail}")


def print_summary(results: list, ops: dict, store: dict, seconds: float, examples: int) -> None:
    shared = suite.shared(store)
    not_ops = [n for n in shared if n in names.NOT_OPS]
    later = [n for n in shared if n in names.NOT_SWEPT_YET]
    differing = [r for r in results if any(a != "lenient" for a in r.diffs)]
    lenient = [r for r in results if "lenient" in r.diffs]
    raises = sum(1 for r in results if r.torch and "e" in r.torch)
    print(f"names shared with torch: {len(shared)} ({len(ops)} swept, {len(not_ops)} not ops, "
          f"{len(later)} with their own torch tests, not swept yet)")
    print(f"patterns: {len(results)} ({len(results) - raises} torch accepts, {raises} it "
          f"rejects); {len(results) / max(seconds, 1e-9):.0f} per second, {seconds:.1f} s")
    print(f"matching torch: {len(results) - len(differing) - len(lenient)}; differing: "
          f"{len(differing)}; lenient (torch's parser rejects, symgrad accepts): {len(lenient)}")
    undefined = collections.Counter(reason for r in results for reason in r.undefined.values())
    print(f"aspects excluded as undefined in torch: {sum(undefined.values())}")
    for reason, n in undefined.most_common():
        print(f"  {n:6d}  {reason}")
    print_classes(results, examples)
    kinds = collections.Counter(r.diffs["lenient"] for r in lenient)
    print("lenient kinds (allowed):")
    for kind, n in kinds.most_common():
        print(f"  {n:6d}  {kind}")
    slow = sorted(results, key=lambda r: -r.seconds)[:5]
    print("slowest samples: " + "; ".join(f"{r.sample.pattern} {r.seconds:.2f} s" for r in slow))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--default", action="store_true", help="the default subset")
    parser.add_argument("--stored", action="store_true", help="torch's stored records")
    parser.add_argument("--only", help="ops whose name holds this")
    parser.add_argument("--examples", type=int, default=3, help="groups shown per class")
    args = parser.parse_args()
    store = suite.load_store()
    oracle = "stored" if args.stored or not suite.have_torch() else "torch"
    ops = suite.plan("default" if args.default else "full", store, args.only)
    start = time.perf_counter()
    results = suite.execute(ops, oracle, store)
    print(f"sweep: {'default' if args.default else 'full'} run against torch "
          f"({'live' if oracle == 'torch' else 'stored records'})")
    print_summary(results, ops, store, time.perf_counter() - start, args.examples)


if __name__ == "__main__":
    main()
