"""What a staleness run found: counts per kind and mode, and each failure with its pair.

Statuses (``harness.Outcome``): ``ok``; ``stale`` (a result differs from the no-cache run of
its variant); ``error`` (a fuzzed run raised, crashed or gave no result); ``vacuous`` (the
no-cache runs of A and B agree: the pair tests nothing); ``reference-error`` (a no-cache run
failed: the program is not one symgrad runs).
"""

from __future__ import annotations

import collections

from .kinds import KINDS

STATUSES = ("ok", "stale", "error", "vacuous", "reference-error")


class Tally:
    def __init__(self) -> None:
        self.counts: dict = collections.defaultdict(collections.Counter)   # (kind, mode) ->
        self.failures: list = []

    def add(self, outcomes: list) -> list:
        """Count ``outcomes``; the failures among them."""
        new = []
        for o in outcomes:
            self.counts[(o.pair.kind, o.mode)][o.status] += 1
            if o.status != "ok":
                new.append(o)
        self.failures += new
        return new

    def table(self) -> str:
        """Pairs run per kind and mode, and how many of each status (n/a: the mode makes no
        sense for the kind, see ``kinds.py``; -: none ran)."""
        lines = [f"{'kind':<13} " + " ".join(f"{'(' + m + ')':<26}" for m in "abc")]
        how = {k.name: k.how for k in KINDS}
        for kind in [k.name for k in KINDS] + ["control"]:
            cells = []
            for mode in "abc":
                c = self.counts.get((kind, mode))
                if not c:
                    na = how.get(kind, {}).get(mode, "").startswith("n/a")
                    cells.append(f"{'n/a' if na else '-':<26}")
                    continue
                rest = ", ".join(f"{n} {s}" for s, n in sorted(c.items()) if s != "ok")
                cells.append(f"{sum(c.values())} ran, {c['ok']} ok" + (f"; {rest}" if rest
                                                                       else ""))
                cells[-1] = f"{cells[-1]:<26}"
            lines.append(f"{kind:<13} " + " ".join(cells))
        return "\n".join(lines)

    @staticmethod
    def not_applicable() -> str:
        """Why each n/a of the table makes no sense for its kind."""
        return "\n".join(f"  {k.name} ({m}): {how[5:]}" for k in KINDS
                         for m, how in sorted(k.how.items()) if how.startswith("n/a: "))

    def disagreements(self, expected: bool = True) -> list:
        """The failures, without (``expected=False``) those of the control pair, which must
        fail."""
        return [o for o in self.failures if expected or o.pair.kind != "control"]


def explain(o) -> str:
    """One failure as a reader needs it: the kind, the mode, what differed and the pair."""
    xfail = {k.name: k.xfail for k in KINDS}.get(o.pair.kind)
    head = f"### {o.status.upper()}: kind {o.pair.kind}, mode ({o.mode}), pair {o.pair.tag}"
    if xfail:
        head += f"\n(expected while {xfail})"
    return f"{head}\n{o.detail}\n{o.pair.describe(o.mode)}\n"
