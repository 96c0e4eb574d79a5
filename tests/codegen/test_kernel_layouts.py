"""``render.render_kernel`` prints ``templates/kernel.c.j2`` through a cache of formats, one per
block layout (``render.Layouts``). That is only right while the template decides nothing from
the text it prints: each block here, with text that looks like a format or a marker, must come
out byte for byte as Jinja2's own rendering of the template (plain and standalone)."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from symgrad.codegen.c.render import render_kernel
from symgrad.codegen.c.templates import environment

ODD = ["x[i0] = 1.0;", "%s %d %%", "{{ y }}", "/* a */", "", "q\\n", "#pragma omp simd"]


def _block(rng: random.Random) -> dict:
    words = itertools.count()

    def text(n):
        return [f"{rng.choice(ODD)} t{next(words)}" for _ in range(n)]

    nests = []
    for _ in range(rng.randint(0, 3)):
        depth = rng.randint(0, 3)
        loops = [SimpleNamespace(depth=d, pragma=rng.choice(["", "omp simd", "omp simd %x"]),
                                 var=f"i{d}", start=rng.choice([0, "lo%"]), end=rng.randint(1, 9),
                                 prologue=text(rng.randint(0, 2)),
                                 epilogue=text(rng.randint(0, 2)))
                 for d in range(depth)]
        nests.append(SimpleNamespace(before=text(rng.randint(0, 2)), loops=loops, depth=depth,
                                     body=text(rng.randint(0, 3)),
                                     after=text(rng.randint(0, 2))))
    return {"number": rng.randint(0, 99), "title": f"{rng.choice(ODD)} -> tmp",
            "comments": text(rng.randint(0, 2)), "init": text(rng.randint(0, 2)),
            "nests": nests, "final": text(rng.randint(0, 2))}


@pytest.mark.parametrize("standalone", [False, True], ids=["plain", "standalone"])
def test_every_layout_prints_as_the_template_does(standalone):
    env = environment(standalone=standalone)
    template = env.get_template("kernel.c.j2")
    rng = random.Random(7)
    for _ in range(300):
        b = _block(rng)
        want = template.render(**b)
        got = render_kernel(env, b["number"], b["title"], b["comments"], b["nests"], b["init"],
                            b["final"])
        assert got == want
