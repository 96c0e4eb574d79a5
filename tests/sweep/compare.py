"""Compares symgrad's record of a sample with torch's: which aspects differ, and how.

Input: two records (``runner.run``: torch's, live or stored, and symgrad's). Output: a dict
aspect -> detail. Aspects: ``error:missing`` (torch raises, symgrad returns), ``error:extra``
(symgrad raises, torch returns), ``error:class`` (both raise, other classes), ``lenient``
(torch's argument parser rejects the call's types; symgrad accepts: allowed), ``timeout``,
``structure`` (the result's tuples, names, Python types), and per result leaf ``i`` or input
gradient ``j``: ``dtype[i] shape[i] requires_grad[i] grad_fn[i] value[i] identity`` (an
``out=``/in-place result is the tensor given), ``grad[j]``, ``grad:error``. Values compare
with torch's default tolerances by dtype (``assert_close``); NaN matches NaN.
"""

from __future__ import annotations

import math

TOLERANCE = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
             "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def close(a: list, b: list, dtype: str) -> bool:
    rtol, atol = TOLERANCE.get(dtype, (0.0, 0.0))
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y or (isinstance(x, float) and isinstance(y, float)
                      and math.isnan(x) and math.isnan(y)):
            continue
        if isinstance(x, bool) or isinstance(y, bool) or not _finite(x) or not _finite(y):
            return False
        if abs(x - y) > atol + rtol * abs(y):
            return False
    return True


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)


def worst(a: list, b: list, dtype: str) -> str:
    """Where values differ most beyond the tolerance: ``at i: symgrad x, torch y``."""
    if len(a) != len(b) or not a:
        return f"{len(a)} values, torch {len(b)}"
    rtol, atol = TOLERANCE.get(dtype, (0.0, 0.0))
    best, where = -1.0, 0
    for i, (x, y) in enumerate(zip(a, b)):
        if close([x], [y], dtype):
            continue
        excess = abs(x - y) / (atol + rtol * abs(y)) if _finite(x) and _finite(y) and (
            atol + rtol * abs(y)) > 0 else math.inf
        if excess > best:
            best, where = excess, i
    return f"at {where}: symgrad {a[where]!r}, torch {b[where]!r}"


def leaf_diffs(i: int, mine: dict, theirs: dict) -> dict:
    out = {}
    if "py" in theirs or "py" in mine:
        if mine.get("py", mine) != theirs.get("py", theirs) and not (
                isinstance(mine.get("py"), (int, float)) and isinstance(theirs.get("py"),
                                                                        (int, float))
                and close([mine["py"]], [theirs["py"]], "float64")):
            out[f"value[{i}]"] = f"symgrad {mine.get('py', 'a tensor')!r}, " \
                                 f"torch {theirs.get('py', 'a tensor')!r}"
        return out
    for key, aspect in (("dtype", "dtype"), ("shape", "shape"), ("rg", "requires_grad"),
                        ("fn", "grad_fn")):
        if mine.get(key) != theirs.get(key):
            out[f"{aspect}[{i}]"] = f"symgrad {mine.get(key)}, torch {theirs.get(key)}"
    looser = max((mine.get("dtype"), theirs.get("dtype")),
                 key=lambda d: TOLERANCE.get(d, (0, 0))[0])
    if not close(mine["v"], theirs["v"], looser):
        out[f"value[{i}]"] = worst(mine["v"], theirs["v"], looser)
    return out


def grad_diffs(mine: dict, theirs: dict) -> dict:
    if "ge" in theirs or "ge" in mine:
        if theirs.get("ge") != mine.get("ge"):
            return {"grad:error": f"symgrad {mine.get('ge', 'no error')}, "
                                  f"torch {theirs.get('ge', 'no error')}"}
        return {}
    out = {}
    a, b = mine.get("g", []), theirs.get("g", [])
    for j in range(max(len(a), len(b))):
        x = a[j] if j < len(a) else None
        y = b[j] if j < len(b) else None
        if x is None or y is None:
            if x is not y:
                out[f"grad[{j}]"] = f"symgrad {'none' if x is None else 'a gradient'}, " \
                                    f"torch {'none' if y is None else 'a gradient'}"
            continue
        d = {k: v for k, v in leaf_diffs(j, x, y).items() if not k.startswith(("requires",
                                                                                "grad_fn"))}
        if d:
            out[f"grad[{j}]"] = "; ".join(f"{k.split('[')[0]} {v}" for k, v in d.items())
    return out


def differences(mine: dict, theirs: dict) -> dict:
    """aspect -> detail for everything symgrad's record ``mine`` does not share with torch's
    ``theirs``."""
    if mine.get("timeout") or theirs.get("timeout"):
        return {} if mine.get("timeout") and theirs.get("timeout") else {
            "timeout": "symgrad ran over the time limit" if mine.get("timeout")
            else "torch ran over the time limit"}
    if "e" in theirs:
        if "e" in mine:
            # a result the sweep cannot read (complex32, which symgrad does not have either)
            # matches symgrad's refusing it with the error class reading it raised
            unread = theirs["e"].removeprefix("unreadable result: ")
            return {} if mine["e"] in (theirs["e"], unread) else {
                "error:class": f"symgrad {mine['e']}, torch {theirs['e']}"}
        if "k" in theirs:
            return {"lenient": theirs["k"]}
        return {"error:missing": f"torch raises {theirs['e']}{said(theirs)}"}
    if "e" in mine:
        return {"error:extra": f"symgrad raises {mine['e']}{said(mine)}"}
    if mine["s"] != theirs["s"]:
        return {"structure": f"symgrad {mine['s']}, torch {theirs['s']}"}
    out = {}
    for i, (a, b) in enumerate(zip(mine["o"], theirs["o"])):
        out.update(leaf_diffs(i, a, b))
    if mine.get("same") != theirs.get("same"):
        out["identity"] = f"symgrad returns {'the' if mine.get('same') else 'another'} " \
                          f"tensor, torch {'the' if theirs.get('same') else 'another'}"
    out.update(grad_diffs(mine, theirs))
    return out


def said(record: dict) -> str:
    """``: <its message>`` where a record holds one (live records do; stored ones do not)."""
    return f": {record['m'][:80]}" if record.get("m") else ""


def aspect_class(aspect: str) -> str:
    """``value[1]`` -> ``value``."""
    return aspect.split("[")[0]
