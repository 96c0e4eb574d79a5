"""Tables, targets, JSON and the plot from the harness's results (all within one run)."""

from __future__ import annotations

import json
import math
from pathlib import Path

SYSTEM_TITLES = {"symgrad": "symgrad", "numpy": "NumPy by hand", "torch": "torch eager",
                 "jax": "jax.jit", "pytensor": "PyTensor", "casadi": "CasADi"}

# Speed targets of issue 4, per kind (a problem module's TARGET maps its sizes to a kind).
TARGETS = {
    "3us": ("<= 3 us per call", lambda t, fastest: t <= 3.0),
    "20us": ("<= 20 us per call", lambda t, fastest: t <= 20.0),
    "half_fastest": ("<= 1/2 fastest other", lambda t, fastest: fastest is not None
                     and t <= 0.5 * fastest),
    "fastest": ("<= fastest other", lambda t, fastest: fastest is not None and t <= fastest),
}
COLD_LIMIT_S = {"ode": 3.0}         # else 1 s
CACHED_LIMIT_S = 0.050


def passed(r: dict) -> bool:
    """Ran, and both its checks (cold and warm process) agree with the reference."""
    return (r.get("status") == "ok" and "median_us" in r
            and r.get("cold_check", {}).get("ok", False) and r.get("check", {}).get("ok", False))


def fastest_other(systems: dict) -> tuple[str | None, float | None]:
    others = [(r["median_us"], s) for s, r in systems.items() if s != "symgrad" and passed(r)]
    if not others:
        return None, None
    t, s = min(others)
    return s, t


def evaluate(row: dict) -> dict:
    """The target verdicts of one problem size."""
    systems = row["systems"]
    sg = systems.get("symgrad", {})
    name, fastest = fastest_other(systems)
    out = {"fastest_other": name, "fastest_other_us": fastest}
    npy = systems.get("numpy", {})
    if passed(sg):
        t = sg["median_us"]
        out["ratio_fastest"] = t / fastest if fastest else None
        out["ratio_numpy"] = t / npy["median_us"] if passed(npy) else None
        out["target_met"] = TARGETS[row["target"]][1](t, fastest)
        out["numpy_met"] = out["ratio_numpy"] is not None and out["ratio_numpy"] < 1
    else:
        out.update(ratio_fastest=None, ratio_numpy=None, target_met=False, numpy_met=False)
    if "cold_s" in sg:
        # compile / load time: the first call less what a call costs once compiled
        run_s = sg.get("median_us", 0.0) * 1e-6
        limit = COLD_LIMIT_S.get(row["problem"], 1.0)
        out["cold_limit_s"] = limit
        out["cold_compile_s"] = sg["cold_s"] - run_s
        out["cold_met"] = out["cold_compile_s"] < limit
        out["cached_load_s"] = sg["cached_s"] - run_s if "cached_s" in sg else None
        out["cached_met"] = out["cached_load_s"] is not None and \
            out["cached_load_s"] < CACHED_LIMIT_S
    else:
        out.update(cold_limit_s=COLD_LIMIT_S.get(row["problem"], 1.0), cold_met=False,
                   cached_met=False)
    return out


def _us(t: float) -> str:
    if t >= 100:
        return f"{t:,.0f}"
    return f"{t:.3g}" if t < 10 else f"{t:.1f}"


def _ratio(x) -> str:
    return "-" if x is None else f"{x:.2f}"


def _yes(ok: bool) -> str:
    return "met" if ok else "**unmet**"


class Notes:
    """Numbered footnotes for errors and mismatches, so that table cells stay short."""

    def __init__(self):
        self.items: list[str] = []

    def add(self, text: str) -> str:
        if text not in self.items:
            self.items.append(text)
        return f"[{self.items.index(text) + 1}]"


def cell(r: dict, notes: Notes, where: str) -> str:
    status = r.get("status", "?")
    if status == "ok" and "median_us" in r:
        text = _us(r["median_us"])
        bad = [c.get("notes", "") for c in (r.get("cold_check", {}), r.get("check", {}))
               if not c.get("ok", False)]
        if bad:
            text += " MISMATCH " + notes.add(f"{where}: {bad[0] or bad[-1]}")
        return text
    if status in ("not installed", "skipped"):
        return status if status == "skipped" else "n/i"
    if status == "timeout":
        return "timeout " + notes.add(f"{where}: {r.get('error', 'timeout')}")
    return "error " + notes.add(f"{where}: {r.get('error', status)}")


def markdown(meta: dict, rows: list[dict], systems: list[str]) -> str:
    notes = Notes()
    lines = [f"# symgrad benchmark suite{' (quick)' if meta['quick'] else ''}", "",
             f"{meta['machine']}; {meta['date']}; whole run {meta['duration_s'] / 60:.1f} min; "
             f"{meta['rounds']} interleaved rounds per problem size, median over all samples "
             f"(a sample times a batch of calls, about 2 ms, as timeit does).", "",
             "Versions: " + ", ".join(f"{SYSTEM_TITLES[s]} {v}" for s, v in
                                      meta["versions"].items()) +
             f"; symgrad at commit {meta['symgrad_commit']}.", "",
             "## Time per value-and-gradient call (us), NumPy arrays in and out", "",
             "| problem | size | dtype | " + " | ".join(SYSTEM_TITLES[s] for s in systems) +
             " | fastest other | symgrad / fastest other | symgrad / NumPy | target | target met |"
             " faster than NumPy |",
             "|---|---|---|" + "---:|" * len(systems) + "---|---:|---:|---|---|---|"]
    for row in rows:
        ev = row["eval"]
        cells = [cell(row["systems"].get(s, {"status": "skipped"}), notes,
                      f"{row['problem']} {row['size']}, {SYSTEM_TITLES[s]}") for s in systems]
        fastest = "-" if ev["fastest_other"] is None else \
            f"{SYSTEM_TITLES[ev['fastest_other']]} ({_us(ev['fastest_other_us'])})"
        lines.append(f"| {row['problem']} | {row['size']} | {row['dtype']} | " +
                     " | ".join(cells) + f" | {fastest} | {_ratio(ev['ratio_fastest'])} | "
                     f"{_ratio(ev['ratio_numpy'])} | {TARGETS[row['target']][0]} | "
                     f"{_yes(ev['target_met'])} | {_yes(ev['numpy_met'])} |")
    lines += ["", "Fastest other: the fastest non-symgrad system whose value and gradient "
              "matched the reference (NumPy included).", "",
              "## symgrad compile and load", "",
              "Cold: build + first call in a fresh process with an empty SYMGRAD_CACHE_DIR "
              "(trace, passes, C, gcc, load, run). Cached: the same in a second fresh process "
              "with that cache dir (trace, passes, C, cache hit, load, run). The targets are "
              "judged on these first calls less one median call (the run itself), in "
              "parentheses.", "",
              "| problem | size | cold first call (s) | target | met | cached first call (ms) | "
              "target | met |", "|---|---|---:|---|---|---:|---|---|"]
    for row in rows:
        sg, ev = row["systems"].get("symgrad", {}), row["eval"]
        cold = f"{sg['cold_s']:.2f} ({ev['cold_compile_s']:.2f})" if "cold_s" in sg \
            else cell(sg, notes, f"{row['problem']} {row['size']}, symgrad")
        cached = f"{sg['cached_s'] * 1e3:.1f} ({ev['cached_load_s'] * 1e3:.1f})" \
            if "cached_s" in sg else "-"
        lines.append(f"| {row['problem']} | {row['size']} | {cold} | < {ev['cold_limit_s']:g} s "
                     f"| {_yes(ev['cold_met'])} | {cached} | < 50 ms | {_yes(ev['cached_met'])} |")
    lines += ["", "## Every system: how it ran, start-up, memory, check", "",
              "Cold / cached: build + first call in a fresh process with an empty / the same "
              "cache dir (symgrad's, JAX's persistent compilation cache, PyTensor's compiledir, "
              "CasADi's compiled C). Peak RSS: `ru_maxrss` of the timing process at its end "
              "(after imports, inputs, build and all timed calls), and in parentheses its "
              "growth since the inputs were made. Check: the largest error of the value and of "
              "the gradient relative to the reference's largest magnitude (the hand-written "
              "gradient in float64; rtol 1e-4 for float32 problems, 1e-8 for float64).", "",
              "| problem | size | system | how it ran | import (s) | cold (s) | cached (s) | "
              "peak RSS MB | check (value err, grad err) |",
              "|---|---|---|---|---:|---:|---:|---:|---|"]
    for row in rows:
        for s in systems:
            r = row["systems"].get(s, {"status": "skipped"})
            where = f"{row['problem']} {row['size']}, {SYSTEM_TITLES[s]}"
            if r.get("status") != "ok" and "cold_s" not in r:
                lines.append(f"| {row['problem']} | {row['size']} | {SYSTEM_TITLES[s]} | "
                             f"{cell(r, notes, where)} | | | | | |")
                continue
            checks = [c for c in (r.get("cold_check"), r.get("check")) if c]
            ok = all(c.get("ok") for c in checks) and r.get("status") == "ok"
            c = checks[-1]
            if ok:
                verdict = "ok"
            else:
                verdict = ("MISMATCH " if r.get("status") == "ok" else "error ") + notes.add(
                    f"{where}: " + "; ".join(x.get("notes", "") for x in checks if not x.get("ok"))
                    + ("" if r.get("status") == "ok" else f" {r.get('error', '')}"))
            nan = float("nan")
            errs = f" ({c.get('value_err', nan):.0e}, {c.get('grad_err', nan):.0e})"
            if s == "numpy" and "fd_rel_err" in r.get("cold_check", {}):
                fd = r["cold_check"]
                errs += f"; vs central difference {fd['fd_rel_err']:.0e}" + \
                    ("" if fd["fd_ok"] else " **BAD**")
            rss = "-" if "rss_peak_mb" not in r else \
                f"{r['rss_peak_mb']:.0f} (+{r['rss_peak_mb'] - r['rss_base_mb']:.0f})"
            cached = f"{r['cached_s']:.3f}" if "cached_s" in r else "-"
            lines.append(f"| {row['problem']} | {row['size']} | {SYSTEM_TITLES[s]} | "
                         f"{r.get('variant') or '-'} | {r.get('import_s', math.nan):.2f} | "
                         f"{r['cold_s']:.3f} | {cached} | {rss} | {verdict}{errs} |")
    evs = [row["eval"] for row in rows]
    met = sum(e["target_met"] for e in evs) + sum(e["numpy_met"] for e in evs) + \
        sum(e["cold_met"] for e in evs) + sum(e["cached_met"] for e in evs)
    lines += ["", f"Targets met: {met} of {4 * len(evs)} (speed target, faster than NumPy, "
              f"cold compile, cached load; per problem size)."]
    if meta.get("skipped"):
        lines += ["", "Not run: " + "; ".join(meta["skipped"]) + "."]
    if notes.items:
        lines += ["", "## Notes", ""] + [f"{i + 1}. {t}" for i, t in enumerate(notes.items)]
    return "\n".join(lines) + "\n"


def write_json(path: Path, meta: dict, rows: list[dict]) -> None:
    path.write_text(json.dumps({"meta": meta, "results": rows}, indent=1, default=str))


def plot(path: Path, rows: list[dict], systems: list[str],
         problems=("seed", "elementwise", "rosenbrock", "nbody")) -> bool:
    """Time per call vs size for the scalable problems, one panel each; False without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    markers = dict(zip(SYSTEM_TITLES, "o^sDvP"))
    for ax, name in zip(axes.flat, problems):
        prow = [r for r in rows if r["problem"] == name]
        for s in systems:
            pts = [(r["x"], r["systems"][s]["median_us"]) for r in prow
                   if s in r["systems"] and passed(r["systems"][s])]
            if pts:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, marker=markers.get(s, "o"), label=SYSTEM_TITLES[s],
                        linewidth=2.5 if s == "symgrad" else 1.2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        xlabel = {"nbody": "N bodies"}.get(name, "elements")
        ax.set_title(name)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("us per value_and_grad call (median)")
        ax.grid(True, which="both", alpha=0.3)
        if not prow:
            ax.text(0.5, 0.5, "not run", ha="center", transform=ax.transAxes)
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="upper center", ncol=len(labels))
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None) -> None:
    """Rewrite the markdown and the plot from a JSON report (after editing this file):
    python benchmarks/report.py benchmarks/results/bench.json"""
    import sys
    path = Path((argv or sys.argv[1:] or [str(Path(__file__).parent / "results/bench.json")])[0])
    data = json.loads(path.read_text())
    meta, rows = data["meta"], data["results"]
    meta.setdefault("symgrad_commit", "unknown")
    systems = list(rows[0]["systems"]) if rows else []
    for row in rows:
        row["eval"] = evaluate(row)
    text = markdown(meta, rows, systems)
    path.with_suffix(".md").write_text(text)
    plot(path.with_suffix(".png"), rows, systems)
    print(text)


if __name__ == "__main__":
    main()
