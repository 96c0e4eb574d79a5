"""The call path of a specialization, generated as straight-line Python for its signature.

Layer: runtime. Input: a ``Specialization`` (its signature, module, pools and checks). Output:
a function that checks and passes each argument, allocates each output (or takes the caller's),
calls C and builds the result structure. Generated from the signature alone (names and shapes,
never user data), it is the whole per-call cost above C, so every decision that can be made
once is made here.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .captured import convert_capture


def make_call(spec, build, into: bool | str = False, flat: bool = False):
    """``call(args)`` for ``spec``; ``build(outputs)`` makes the result from the flat outputs.

    ``into=True``: ``call(args, out)`` checks the caller's ``out`` arrays, writes into them and
    returns ``out``; ``into="optional"``: ``call(args, out=None)`` does either. ``flat``: the
    outputs are a flat list (``run``), and each input array's shape is checked too (``run``
    gets leaves that no signature lookup has matched)."""
    checks = spec.checks
    n_in, n_out = len(checks.in_dtypes), len(checks.out_specs)
    n_args = n_in - len(spec.captured.objects)     # (then the captured values: runtime.captured)
    lines = ["def call(args, out):" if into is True else
             "def call(args, out=None):" if into else "def call(args):"]
    if into == "optional":
        lines += ["    if out is not None:", "        return into(args, out)"]
    lines.append(f"    {''.join(f'a{i}, ' for i in range(n_args))}= args" if n_args
                 else "    pass")
    lines += ["    " + ln for ln in spec.captured.lines(n_args)]
    if into is True:
        lines += ["    " + ln for ln in checks.out_check_lines(flat)]
    lines += _input_lines(checks, into is True, flat, n_args)
    if into is True:
        lines += ["    " + ln for ln in checks.in_overlap_lines(flat)]
        out_ptrs = [f"q{j}" for j in range(n_out)]
    else:
        lines += [f"    o{j} = pool{j}()" if j in spec.pools else
                  f"    o{j} = empty(oshape{j}, odt{j})" for j in range(n_out)]
        out_ptrs = [f"o{j}" for j in range(n_out)]
    lead = [f"lead{k}" for k in range(len(spec.fn_lead))]
    consts = [f"c{k}" for k in range(len(spec.const_ptrs))]
    ptrs = lead + [f"p{i}" for i in range(n_in)] + consts + out_ptrs + \
        ["w", "threads()" if spec.artifact.source.threaded else "1"] + \
        [str(int(v)) for v in spec.artifact.sizes]
    if spec.poll is not None:     # its loops poll for Ctrl-C (runtime.interrupt)
        ptrs += ["sig", "since"]
    lines += ["    try:", "        w = local.work", "    except AttributeError:",
              "        w = new_workspace()"]
    lines += spec.poll.lines() if spec.poll is not None else []
    lines += [f"    status = fn({', '.join(ptrs)})",
              "    if status:", "        fail(status)",
              "    return out" if into is True else
              f"    return build([{', '.join(f'o{j}' for j in range(n_out))}])"]
    env = _environment(spec, build, into, flat)
    exec("\n".join(lines), env)  # noqa: S102  (source built from the signature only)
    return env["call"]


def _input_lines(checks, into: bool, flat: bool, n_args: int) -> list[str]:
    """Each input ``p{i}``: the array itself when it is a NumPy array of the right dtype,
    aligned and C-contiguous (and, for ``flat`` or a captured value, of the right shape), else a
    converted copy. In call_into, an input that gets copied is first checked against the
    outputs (np.shares_memory); one passed as it is, by its address (``in_overlap_lines``)."""
    n_out = len(checks.out_specs)
    outs = "(" + "".join(f"o{j}, " for j in range(n_out)) + ")"
    checked = checks.checked_inputs(flat)
    lines = []
    for i in range(len(checks.in_dtypes)):
        captured = i >= n_args
        same_shape = f" and a{i}.shape == ishape{i}" if flat or captured else ""
        conv = f"convert_captured({i}, a{i})" if captured else \
            f"convert_into({i}, a{i}, dt{i}, {outs})" if into and i in checked \
            else f"convert({i}, a{i}, dt{i})"
        # (``is`` first: a native dtype is NumPy's one object; ``==`` for the others)
        lines += [(f"    if type(a{i}) is ndarray and ((d := a{i}.dtype) is dt{i} or "
                   f"d == dt{i}) and (fl := a{i}.flags).aligned and "
                   f"fl.c_contiguous{same_shape}:"),
                  f"        p{i} = a{i}",
                  "    else:",
                  f"        p{i} = {conv}"]
    return lines


def _environment(spec, build, into, flat: bool) -> dict:
    """The names the generated function reads: the spec's objects, one per argument/output."""
    checks = spec.checks
    env = {"ndarray": np.ndarray, "address": spec.module.address, "convert": spec.convert,
           "empty": np.empty, "local": spec.local, "new_workspace": spec.new_workspace,
           "fn": spec.fn, "fail": spec.fail,
           "threads": spec.module.threads, "build": build}
    env.update({f"lead{k}": v for k, v in enumerate(spec.fn_lead)})
    env.update({f"c{k}": v for k, v in enumerate(spec.const_ptrs)})
    if spec.poll is not None:
        env.update(spec.poll.environment())
    if into is True:
        paths = [f"out[{j}]" for j in range(len(checks.out_specs))] if flat else checks.paths
        env.update({k: partial(m, paths) for k, m in (
            ("check_out", checks.check_out), ("out_overlap", checks.out_overlap),
            ("in_overlap", checks.in_overlap), ("convert_into", checks.convert_into),
            ("check_overlaps", checks.check_overlaps))},
            out_leaves=checks.flat_out_leaves if flat else checks.out_leaves)
    elif into:
        env["into"] = make_call(spec, build, True, flat)
    for i, (dt, _) in enumerate(checks.in_dtypes):
        env[f"dt{i}"] = dt
        env[f"ishape{i}"] = checks.in_shapes[i]
    for j, (dt, shape, _) in enumerate(checks.out_specs):
        env[f"odt{j}"], env[f"oshape{j}"] = dt, shape
    for j, pool in spec.pools.items():
        env[f"pool{j}"] = pool
    if spec.captured:
        env.update(spec.captured.environment())
        specs = spec.artifact.in_specs
        env["convert_captured"] = lambda i, value: convert_capture(specs[i].name, value,
                                                                   specs[i])
    return env
