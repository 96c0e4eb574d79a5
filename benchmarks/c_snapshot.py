"""Write the C symgrad generates for every benchmark problem and size into a directory, one
file per (problem, size), and print each file's SHA-256.

A change meant to keep the generated code as it is (a refactoring of lowering or codegen) is
checked by two snapshots, before and after, compared byte for byte:

    python benchmarks/c_snapshot.py /tmp/c-before
    ... (the change) ...
    python benchmarks/c_snapshot.py /tmp/c-after && diff -r /tmp/c-before /tmp/c-after

The C is the text symgrad builds on this machine (it names this machine's toolchain choices:
vector math, BLAS), compiled in a private cache so that nothing is loaded from an earlier
build. ``--problems seed,mlp`` chooses problems; ``--quick`` only the sizes ``make
bench-quick`` runs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import problems  # noqa: E402


def snapshot(out: Path, names: list[str], quick: bool) -> dict[str, str]:
    """problem/size file name -> SHA-256 of its C, each written into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    digests = {}
    for name in names:
        module = problems.load(name)
        for size in module.SIZES:
            if quick and not size.quick:
                continue
            args = module.inputs(size)
            fn = module.symgrad(args)
            fn(*args)
            text = fn.c_source
            label = re.sub(r"[^A-Za-z0-9]+", "-", size.label).strip("-")
            path = out / f"{name}--{label}.c"
            path.write_text(text)
            digests[path.name] = hashlib.sha256(text.encode()).hexdigest()
    return digests


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="the directory to write the C files into")
    p.add_argument("--problems", default=",".join(problems.NAMES))
    p.add_argument("--quick", action="store_true", help="only the sizes of make bench-quick")
    a = p.parse_args(argv)
    os.environ["SYMGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="symgrad-c-snapshot-")
    for file, digest in snapshot(a.out, a.problems.split(","), a.quick).items():
        print(f"{digest}  {file}")


if __name__ == "__main__":
    main()
