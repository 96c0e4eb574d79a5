"""The tables of ``make bench-compile`` (``benchmarks/results/compile.md``).

Benchmark helper. Input: ``compile.py``'s rows (each problem's medians over its runs, its
compiler processes, Dr.Jit's side when measured). Output: the Markdown document: per group of
targets, the cold first call against its target and its stages, then what ``build`` is made
of, the compiler processes, the program sizes, Dr.Jit side by side on the small problems, and
torch and JAX beside the large ones.
"""

from __future__ import annotations

import os

from compile_problems import GROUPS

STAGES = ("trace", "passes", "lower", "codegen", "build")


def ms(value) -> str:
    """Milliseconds, or "n/a" when the shim could not time it (a function that is gone)."""
    return "n/a" if value is None else f"{value * 1e3:,.0f}"


def _groups(rows: list):
    by_name = {r["problem"]: r for r in rows}
    for title, target, names in GROUPS:
        present = [by_name[n] for n in names if n in by_name]
        if present:
            yield title, target, present


def stages_table(rows: list, target) -> list:
    lines = ["| problem | cold first call | target | met | import symgrad | trace | passes | "
             "lower | codegen | (Jinja2 compiles) | build | after the stages | "
             "(call setup) | imports in the call | cached first call | "
             "Dr.Jit cold first call |",
             "|---|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
             "---:|"]
    for r in rows:
        m = r["median"]
        met = "" if target is None else ("yes" if m["first_call"] <= target else "**no**")
        side = r.get("drjit")
        lines.append(
            f"| {r['problem']} | {ms(m['first_call'])} | "
            f"{'-' if target is None else ms(target)} | {met} | {ms(m['import'])} | "
            + " | ".join(ms(m.get(s)) for s in STAGES[:-1])
            + f" | {ms(m.get('jinja2'))} | {ms(m.get('build'))} | {ms(m['after_stages'])} | "
            f"{ms(m.get('call_setup'))} | {ms(m.get('imports'))} | "
            f"{ms(m['cached_first_call'])} | "
            f"{ms(side['first_call']) if side else '-'} |")
    return lines


def build_table(rows: list) -> list:
    lines = ["| problem | build stage | plan (commands, key, compiler probe) | write sources | "
             "compile (the batches of concurrent processes before the link) | link | "
             "load module (a helper's build excluded) | cache bookkeeping | "
             "compiler CPU (all processes) | helper modules' builds (Ctrl-C, native) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        m = r["median"]
        lines.append(f"| {r['problem']} | {ms(m.get('build'))} | {ms(m.get('plan'))} | "
                     f"{ms(m.get('write'))} | {ms(m.get('compile'))} | {ms(m.get('link'))} | "
                     f"{ms(m.get('load'))} | {ms(m.get('cache_bookkeeping'))} | "
                     f"{ms(m.get('cc_cpu'))} | {ms(m.get('helpers'))} |")
    return lines


def process_table(rows: list) -> list:
    lines = ["| problem | processes: wall time of each (ms, median) |", "|---|---|"]
    for r in rows:
        m = r["median"]
        procs = sorted(((k[5:], v) for k, v in m.items() if k.startswith("proc:")),
                       key=lambda kv: (kv[0].startswith(("Ctrl-C", "native")), kv[0] == "link",
                                       kv[0]))
        lines.append(f"| {r['problem']} | "
                     + ", ".join(f"{name} {ms(v)}" for name, v in procs) + " |")
    return lines


def size_table(rows: list) -> list:
    lines = ["| problem | traced nodes | optimized | kernels | C MB | units | "
             "Python stages per traced node |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        m = r["median"]
        python = sum(m.get(s) or 0.0 for s in STAGES[:-1])
        lines.append(f"| {r['problem']} | {r['nodes']:,} | {r['optimized']:,} | "
                     f"{r['kernels']:,} | {r['c_bytes'] / 1e6:.2f} | {r['units']} | "
                     f"{python / max(r['nodes'], 1) * 1e6:.0f} us |")
    return lines


def peers_table(rows: list, note: str, runs: int) -> list:
    """The large problems beside torch (eager: the program run once, forward and backward) and
    JAX (``jax.jit``: its cold first call), seconds."""
    sides = [r for r in rows if r.get("peers")]
    if not sides:
        return [f"{note}."]
    lines = [f"{note}; seconds, the median of {runs} fresh process(es) per system; CPU: the "
             "process's CPU time (all threads), which a busy machine inflates less than wall "
             "time.", "",
             "| problem | symgrad cold first call | of which compiler processes (wall) | "
             "torch eager, one forward and backward | JAX cold first call | (its CPU) | "
             "JAX second call | max abs diff from symgrad: torch value, gradients | "
             "JAX value, gradients |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sides:
        m, t, j = r["median"], r["peers"]["torch"], r["peers"]["jax"]

        lines.append(f"| {r['problem']} | {m['first_call']:.2f} | "
                     f"{(m.get('compile') or 0) + (m.get('link') or 0):.2f} | "
                     f"{_secs(t, 'first_call')} | {_secs(j, 'first_call')} | "
                     f"{_secs(j, 'first_call_cpu')} | {_secs(j, 'second_call', 1e3)} | "
                     f"{_diffs(t)} | {_diffs(j)} |")
    return lines


def _secs(side: dict, key: str, scale: float = 1.0) -> str:
    if "timeout" in side:
        return f"> {side['timeout']:.0f} s (stopped)"
    if "failed" in side:
        return f"failed: {side['failed']}"
    return f"{side[key] * scale:.2f}" + (" ms" if scale != 1.0 else "")


def _diffs(side: dict) -> str:
    return (f"{side['value_diff']:.1e}, {side['grad_diff']:.1e}" if "value_diff" in side
            else "-")


def drjit_table(rows: list, note: str) -> list:
    sides = [r for r in rows if r.get("drjit")]
    if not sides:
        return [f"{note}."]
    lines = [f"{note}; the Dr.Jit problem each row runs in brackets.", "",
             "| problem | symgrad cold first call | Dr.Jit cold first call | Dr.Jit import | "
             "kernels compiled | their LLVM time | their code generation | "
             "max abs diff: value | gradients (largest gradient) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sides:
        s = r["drjit"]
        diffs = (f"{s['value_diff']:.1e} | {s['grad_diff']:.1e} ({s['grad_scale']:.2g})"
                 if "value_diff" in s else "- | -")
        lines.append(f"| {r['problem']} ({s['problem']}) | {ms(r['median']['first_call'])} | "
                     f"{ms(s['first_call'])} | {ms(s['import'])} | {s['compiled']:.0f} | "
                     f"{s['llvm_ms']:,.0f} | {s['codegen_ms']:,.1f} | {diffs} |")
    return lines


INTRO = """# Compile time

`make bench-compile` (`python benchmarks/compile.py --runs {runs}`): milliseconds, the
median of {runs} runs, each in fresh processes with an empty cache directory (`cold`), then
with that cache (`cached`), on this machine ({cores} cores; the 1-minute load average was
{load} at the start and the end of the run: above the core count, other work shares the
cores and inflates every time here). `cold first call` is the first call's wall time, the
library already imported (`import symgrad` beside it); its stages are symgrad's own record
(`pipeline.STAGES`); `after the stages` is the rest of the first call (the call path, the run
itself, a helper module's build: the Ctrl-C helper's when the function has loops). In
brackets, parts of the column before them: `Jinja2 compiles`, the templates Jinja2 compiles
to Python during codegen (symgrad keeps compiled templates in the cache directory: an empty
one has none); `call setup`, making the specialization's call path (a helper module's build
excluded). `imports in the call`: the modules the first call imports (symgrad loads its
compiler's stages, Jinja2 and cffi on first use), part of the stages' times. Inside `build`,
a timing shim in the child (`benchmarks/compile_probe.py`) times the build's functions and
every process it starts.
"""


def document(rows: list, runs: int, drjit_note: str, load: list, peers_note: str = "",
             peer_runs: int = 1) -> str:
    parts = [INTRO.format(runs=runs, cores=os.cpu_count(),
                          load=" and ".join(f"{x:.1f}" for x in load))]
    for title, target, group in _groups(rows):
        head = f"## {title[0].upper() + title[1:]}"
        if target is not None:
            head += f": target {ms(target)} ms for the cold first call"
        parts += [head, "", *stages_table(group, target), "",
                  "Inside `build` (the translation units, and the cffi wrapper where there is "
                  "one, compile concurrently; the link after them, when it is a command of its "
                  "own):", "", *build_table(group), "",
                  "Every process the first call started:", "", *process_table(group), "",
                  "Program sizes:", "", *size_table(group), ""]
    missing = sorted({m for r in rows for m in r.get("missing", [])})
    if missing:
        parts += [f"Not timed (absent from this symgrad): {', '.join(missing)}.", ""]
    parts += ["## Dr.Jit side by side (LLVM backend, fresh process, empty kernel cache)", "",
              *drjit_table(rows, drjit_note), ""]
    if peers_note:
        parts += ["## The large problems beside torch and JAX", "",
                  *peers_table(rows, peers_note, peer_runs), ""]
    return "\n".join(parts)
