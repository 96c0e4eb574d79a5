"""Outlining (lower.outline, codegen.c.outline): an unrolled Python loop's repeated blocks are
printed once as a C function and called per block, or looped over a table of addresses. (By
default only programs of MIN_KERNELS kernels and more are outlined; the tests lower it.)

The oracle for every compiled result here is the same program compiled with outlining off
(``MIN_KERNELS`` above the program's size): the results must be the same bits, and the
unrolled build's results are checked against NumPy and central differences."""

import sys
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg
from symgrad import dtypes
from symgrad.frontend.control import rolling
from symgrad.lower import outline as outlining
from symgrad.lower import repeats
from symgrad.lower.loopir import Buffer, ElementStmt, Expr, Literal, Scalar, ScalarStmt, View
from symgrad.lower.outline import OutlineCall, OutlineLoop, outline

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
from compile_problems import rk4_loss  # noqa: E402
from references import outputs_in_fresh_interpreters  # noqa: E402


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 8 kernels and more (not MIN_BLOCK's 128): the small programs here outline.
    Rolling off: it would make the unrolled loops here one loop before lowering
    (frontend/control/rolling.py, tested in tests/frontend/test_rolling.py)."""
    monkeypatch.setattr(repeats, "MIN_BLOCK", 8)
    monkeypatch.setattr(rolling, "MIN_NODES", float("inf"))


def _rk4(steps):
    """An unrolled RK4 of a damped pendulum on 2-vectors (``make bench-compile``'s rk4_N)."""
    return rk4_loss(sg, steps)[0]


def _rk4_numpy(u0, p, steps):
    return float(rk4_loss(np, steps)[0](np.asarray(u0, dtype=float), p))


def _both(monkeypatch, make, *args, argnums=0):
    """(outlined result, its C, unrolled result, its C) of ``value_and_grad(make())``."""
    original = outlining.MIN_KERNELS
    if original > 256:
        monkeypatch.setattr(outlining, "MIN_KERNELS", 256)
    f = sg.value_and_grad(make(), argnums=argnums)
    out = f(*args)
    text = f.c_source
    monkeypatch.setattr(outlining, "MIN_KERNELS", 10 ** 9)
    g = sg.value_and_grad(make(), argnums=argnums)
    plain = g(*args)
    monkeypatch.setattr(outlining, "MIN_KERNELS", original)
    return out, text, plain, g.c_source


def _same_bits(a, b):
    for x, y in zip(_leaves(a), _leaves(b)):
        np.testing.assert_array_equal(np.signbit(x), np.signbit(y))
        np.testing.assert_array_equal(x, y)


def _same_up_to_vector_math(a, b):
    """The same numbers but for the last bits of transcendental functions in small loops: a
    block's function is compiled in unit 0, where those loops are vectorized (glibc's vector
    math, within 4 ulp of libm), while the unrolled program's copies of them sit in cold units
    at -O1, calling the scalar libm."""
    for x, y in zip(_leaves(a), _leaves(b)):
        np.testing.assert_array_equal(np.signbit(x), np.signbit(y))
        np.testing.assert_allclose(x, y, rtol=1e-13, atol=1e-13 * float(np.abs(y).max()))


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [np.asarray(tree)]


def test_unrolled_rk4_is_outlined_looped_and_bit_identical(monkeypatch):
    u0, p = np.array([1.0, 0.5]), np.array([9.81, 0.3])
    out, text, plain, plain_text = _both(monkeypatch, lambda: _rk4(60), u0, p, argnums=(0, 1))
    _same_bits(out, plain)
    assert "_block0(" in text and "_block0(" not in plain_text
    assert "static const int32_t rows[" in text          # the calls run as table loops
    assert len(text) * 3 < len(plain_text)
    # the oracle: NumPy's forward pass, central differences for the gradient
    np.testing.assert_allclose(out[0], _rk4_numpy(u0, p, 60), rtol=1e-13)
    eps = 1e-6
    for which, x in ((0, u0), (1, p)):
        for i in range(2):
            d = np.zeros(2)
            d[i] = eps
            args = [u0, p]
            args[which] = x + d
            up = _rk4_numpy(*args, 60)
            args[which] = x - d
            down = _rk4_numpy(*args, 60)
            np.testing.assert_allclose(out[1][which][i], (up - down) / (2 * eps), rtol=1e-6)


def test_loops_with_gathers_stay_out_of_blocks(monkeypatch):
    """A loop reading at the indices it computes can fail (an index out of range), and a
    block is a function with no status: such loops stay in the caller, checked, as index
    kernels do (this program then has no block to outline; outlined, it failed to build)."""
    perms = np.array([[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]])

    def make():
        def f(a, p):
            h = a[:3] * 0.0
            for k in range(40):       # (an index of its own each step: computed in its loop)
                src = sg.sin(a + h.sum())
                h = h + src[(p + k) % a.shape[0]].prod(1)[:3] * 0.01 + sg.cos(h)
            return h.sum()
        return f

    def f_np(a):
        h = a[:3] * 0.0
        for k in range(40):
            src = np.sin(a + h.sum())
            h = h + src[(perms + k) % 5].prod(1)[:3] * 0.01 + np.cos(h)
        return h.sum()
    a = np.linspace(0.1, 0.9, 5)
    monkeypatch.setattr(outlining, "MIN_KERNELS", 64)     # (the program has ~600 kernels)
    out, text, plain, _ = _both(monkeypatch, make, a, perms)
    _same_bits(out, plain)
    assert text.count("sg_bad |=") == 40
    np.testing.assert_allclose(out[0], f_np(a), rtol=1e-13)
    fd = [(f_np(a + d) - f_np(a - d)) / 2e-6 for d in np.eye(5) * 1e-6]
    np.testing.assert_allclose(out[1], fd, rtol=1e-6, atol=1e-9)


def test_blocks_that_differ_in_a_constant_are_not_merged(monkeypatch):
    """Each step multiplies by its own constant, some of them zeros of either sign: a block
    runs only with the constants it was printed with (Python's -0.0 == 0.0 is no excuse)."""
    consts = [(-0.0 if i % 7 == 3 else 0.0) if i % 5 == 0 else 1.5 for i in range(120)]

    def make():
        def f(x):
            outs = []
            y = x[0]
            for i, c in enumerate(consts):
                y = sg.sin(y) * 0.5 + x[i % 4]
                outs.append(y * c)
            return sg.stack(outs).sum() + sg.stack(outs)[::7].prod()
        return f

    x = np.array([0.3, -0.2, 0.7, 1.1])
    monkeypatch.setattr(outlining, "MIN_KERNELS", 256)
    f = sg.compile(make())
    value = f(x)
    text = f.c_source
    monkeypatch.setattr(outlining, "MIN_KERNELS", 10 ** 9)
    plain = sg.compile(make())(x)
    _same_bits(value, plain)
    assert "_block0(" in text
    ys, y = [], x[0]
    for i, c in enumerate(consts):
        y = np.sin(y) * 0.5 + x[i % 4]
        ys.append(y * c)
    ys = np.array(ys)
    np.testing.assert_allclose(value, ys.sum() + ys[::7].prod(), rtol=1e-13)


def test_signs_of_zero_survive_outlining(monkeypatch):
    """Outputs that are zeros whose sign depends on each step's literal."""
    signs = [-0.0 if (i * 7) % 3 == 1 else 0.0 for i in range(300)]

    def make():
        def f(x):
            return sg.stack([x[i % 3] * s for i, s in enumerate(signs)])
        return f

    x = np.array([0.5, 2.0, 3.0])
    monkeypatch.setattr(outlining, "MIN_KERNELS", 256)
    f = sg.compile(make())
    out = f(x)
    monkeypatch.setattr(outlining, "MIN_KERNELS", 10 ** 9)
    _same_bits(out, sg.compile(make())(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(np.array(signs)))


@pytest.mark.parametrize("seed", range(8))
def test_random_unrolled_programs_match_the_unrolled_build(monkeypatch, seed):
    """Random step functions of scalar and 3-vector ops, unrolled 40-70 times, four steps
    with a constant of their own (so most blocks match and some do not): the outlined build
    gives the unrolled build's numbers (``_same_up_to_vector_math``), and NumPy's."""
    rng = np.random.default_rng(seed)
    steps = int(rng.integers(40, 70))
    ops = rng.integers(0, 6, size=int(rng.integers(3, 7)))
    consts = np.full(steps, 0.5)
    consts[rng.choice(steps, 4, replace=False)] = rng.choice([0.25, -1.0, -0.0], 4)

    def step(ns, v, w, c):
        for op in ops:
            if op == 0:
                v = v * c + w
            elif op == 1:
                v = ns.sin(v) + w[0]
            elif op == 2:
                v = ns.tanh(v * w)
            elif op == 3:
                w = w + v.sum() * c
            elif op == 4:
                v = ns.stack([v[1], v[2], v[0] * c])
            else:
                w = w * ns.exp(-v * v)
        return v, w

    def make(ns=sg):
        def f(a, b):
            v, w = a, b
            for i in range(steps):
                v, w = step(ns, v, w, float(consts[i]))
            return (v * w).sum()
        return f

    a, b = rng.standard_normal(3), rng.standard_normal(3)
    monkeypatch.setattr(outlining, "MIN_KERNELS", 32)    # (some fuse into ~200 kernels)
    out, text, plain, _ = _both(monkeypatch, make, a, b, argnums=(0, 1))
    assert "_block0(" in text
    _same_up_to_vector_math(out, plain)
    np.testing.assert_allclose(out[0], make(np)(a, b), rtol=1e-12, atol=1e-300)


# ------------------------------------------------------------------ the pass on loop IR

F64 = dtypes.float64


def _blocks(n, literal=lambda r: Literal(2.0, F64), alias=lambda r: False):
    """n blocks of 3 statements: s = in[r] * literal; t = s + (in[r+1] or in[r] again);
    out[r] = t, on buffers in0 (n + 1 elements) and out0 (n)."""
    src, dst = Buffer("input", 0, F64, n + 1), Buffer("output", 0, F64, n)
    mul = Expr("mul", F64, F64)
    add = Expr("add", F64, F64)
    kernels = []
    for r in range(n):
        s, t = Scalar(f"s{2 * r}", F64), Scalar(f"s{2 * r + 1}", F64)
        other = View(src, r if alias(r) else r + 1, (), ())
        kernels += [ScalarStmt(s.name, mul, [View(src, r, (), ()), literal(r)]),
                    ScalarStmt(t.name, add, [s, other]),
                    ElementStmt(View(dst, r, (), ()), t, False, "add")]
    return kernels


def _replaced(kernels):
    """Per kernel of the result: 'k' (kept), 'c' (a call), 'L<n>' (a loop of n calls)."""
    return ["L%d" % len(k.calls) if type(k) is OutlineLoop else
            "c" if type(k) is OutlineCall else "k" for k in kernels]


def test_identical_blocks_become_one_loop(monkeypatch):
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    kernels, workspace = outline(_blocks(40), 0)
    # period 3, taken 3 times (a block is at least MIN_BLOCK kernels): 13 calls of 9 kernels
    # in one loop, the last 3 kernels as they were
    assert _replaced(kernels) == ["L13", "k", "k", "k"]
    loop = kernels[0]
    body = loop.outline
    assert len(body.kernels) == 9 and loop.size == 117
    assert [p.role for p in body.params] == ["param", "param"] and body.writable == [False, True]
    # call r passes in0 + 3r and out0 + 3r
    assert [(c.pointers[0].buffer.role, c.pointers[0].offset, c.pointers[1].offset)
            for c in loop.calls] == [("input", 3 * r, 3 * r) for r in range(13)]
    assert workspace == 0      # no scalar leaves a block


def test_a_literal_of_other_text_breaks_the_run(monkeypatch):
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    kernels, _ = outline(_blocks(60, literal=lambda r: Literal(-0.0 if r == 30 else 0.0, F64)),
                         0)
    # the blocks around kernel 90 (block 30) are outside any call made for the others
    at, covered = 0, []
    for k in kernels:
        size = getattr(k, "size", 1)
        if type(k) in (OutlineCall, OutlineLoop):
            covered.append((at, at + size))
        at += size
    assert covered and not any(lo <= 90 < hi for lo, hi in covered)
    for k in kernels:
        if type(k) is OutlineLoop:
            assert all(repr(s.args[1].value) == "0.0" for s in k.outline.kernels
                       if type(s) is ScalarStmt and isinstance(s.args[1], Literal))


def test_an_aliasing_pattern_of_other_shape_breaks_the_run(monkeypatch):
    """Block 20 reads in0[r] twice where the others read in0[r] and in0[r + 1]: one pointer
    with one offset, not two: it is not a call of the others' body."""
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    kernels, _ = outline(_blocks(40, alias=lambda r: r == 20), 0)
    at = 0
    for k in kernels:
        size = getattr(k, "size", 1)
        if type(k) in (OutlineCall, OutlineLoop):
            assert not (at <= 60 < at + size), "block 20 was merged"
        at += size


def test_values_read_after_a_block_leave_through_slots(monkeypatch):
    """A statement after the run reads block 5's scalar: it gets a slot in the workspace
    (after the program's), the call writes it there and the local is loaded after it."""
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    blocks = _blocks(30)
    late = ScalarStmt("s999", Expr("neg", F64, F64), [Scalar("s11", F64)])
    kernels, workspace = outline(blocks + [late], 128)
    calls = [c for k in kernels for c in (k.calls if type(k) is OutlineLoop else [k])
             if type(c) is OutlineCall]
    loading = [c for c in calls if c.loads]
    assert [[s.name for s in c.loads] for c in loading] == [["s11"]]
    (scalar, slot), = loading[0].results
    assert scalar.name == "s11" and 128 <= slot < workspace
    assert kernels[-1] is late


def test_outlined_c_is_the_same_bytes_in_fresh_interpreters():
    """Same graph, same bytes, whatever the string-hash seed."""
    code = ("import sys, numpy as np, symgrad as sg\n"
            "from symgrad.lower import outline, repeats\n"
            "from symgrad.frontend.control import rolling\n"
            "outline.MIN_KERNELS, repeats.MIN_BLOCK = 256, 8\n"
            "rolling.MIN_NODES = float('inf')\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "from compile_problems import rk4_loss\n"
            "f = sg.value_and_grad(rk4_loss(sg, 30)[0], argnums=(0, 1))\n"
            "print(sg.inspect(f, np.array([1.0, 0.5]), np.array([9.81, 0.3]), "
            "print_=False).c_source)\n")
    texts = outputs_in_fresh_interpreters(code, str(BENCH))
    assert len(texts) == 1 and "_block0(" in texts.pop()


def _temp_blocks(n, second_at):
    """n blocks: tmp_a[0] = in0[r] * 2; tmp_b[0] = tmp_a[0] + 1; out0[r] = tmp_b[0], with
    block r's tmp_a at byte 128 r and its tmp_b at ``second_at(r)`` bytes."""
    src, dst = Buffer("input", 0, F64, n), Buffer("output", 0, F64, n)
    kernels = []
    for r in range(n):
        a = Buffer("temp", 2 * r, F64, 1, offset=128 * r)
        b = Buffer("temp", 2 * r + 1, F64, 1, offset=second_at(r))
        s, t = Scalar(f"s{2 * r}", F64), Scalar(f"s{2 * r + 1}", F64)
        kernels += [ScalarStmt(s.name, Expr("mul", F64, F64), [View(src, r, (), ()),
                                                               Literal(2.0, F64)]),
                    ElementStmt(View(a, 0, (), ()), s, False, "mul"),
                    ScalarStmt(t.name, Expr("add", F64, F64), [View(a, 0, (), ()),
                                                               Literal(1.0, F64)]),
                    ElementStmt(View(b, 0, (), ()), t, False, "add"),
                    ElementStmt(View(dst, r, (), ()), View(b, 0, (), ()), False, "copy")]
    return kernels


def _only_loop(kernels):
    loops = [k for k in kernels if type(k) is OutlineLoop]
    assert len(loops) == 1
    return loops[0].outline


def test_temporaries_at_fixed_distances_share_one_offset(monkeypatch):
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    body = _only_loop(outline(_temp_blocks(40, lambda r: 128 * r + 64), 8192)[0])
    temps = [g for g in body.groups if g is not None]
    assert len(temps) >= 2 and len({g[0] for g in temps}) == 1    # one group
    assert body.disjoint


def test_temporaries_sharing_bytes_in_a_block_are_not_restrict(monkeypatch):
    """The buffer plan may give a block's two temporaries the same bytes (the first is dead
    when the second is written): the body's pointers must not be ``restrict`` then."""
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    body = _only_loop(outline(_temp_blocks(40, lambda r: 128 * r), 8192)[0])
    assert not body.disjoint
    body = _only_loop(outline(_temp_blocks(40, lambda r: 8000 - 64 * r), 8192)[0])
    assert body.disjoint and len({g[0] for g in body.groups if g is not None}) >= 2


def test_outlined_c_compiles_with_warnings_as_errors(monkeypatch, tmp_path):
    """The outlined text is C99 that gcc -pedantic -Wall -Wextra accepts, whole and as the
    translation units it is built as (the blocks' functions in unit 0, called from others)."""
    import shutil
    import subprocess
    cc = shutil.which("gcc") or shutil.which("cc")
    monkeypatch.setattr(outlining, "MIN_KERNELS", 256)
    f = sg.value_and_grad(_rk4(60), argnums=(0, 1))
    f(np.array([1.0, 0.5]), np.array([9.81, 0.3]))
    spec = f.last_specialization
    src = tmp_path / "kernel.c"
    src.write_text(spec.source.text)
    strict = [cc, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fopenmp-simd",
              "-fPIC", "-O1", "-c", str(src)]
    assert "_block0(" in spec.source.text and len(spec.source.units) > 1
    subprocess.run(strict + ["-o", str(tmp_path / "whole.o")], check=True)
    for k in range(len(spec.source.units)):
        subprocess.run(strict + [f"-DSG_TU={k}", "-o", str(tmp_path / f"unit{k}.o")],
                       check=True)


def test_blocks_are_defined_in_the_main_unit(monkeypatch):
    """A block's function runs once per block (an unrolled LSTM's whole work): it is defined in
    unit 0, compiled at the build's full optimization (its loops vectorized), not in a cold
    unit at -O1 beside the scalar parts (GradBench's LSTM objective ran 5x slower there)."""
    monkeypatch.setattr(outlining, "MIN_KERNELS", 256)
    f = sg.value_and_grad(_rk4(60), argnums=(0, 1))
    f(np.array([1.0, 0.5]), np.array([9.81, 0.3]))
    source = f.last_specialization.source
    assert source.units[0] == "main" and "cold" in source.units[1:]
    sections = source.text.split("#if !defined(SG_TU) || SG_TU == ")[1:]
    defining = [s[:s.index("\n")] for s in sections if "_block0(unsigned char *work" in s]
    assert defining == ["0"]


def test_a_kernel_of_another_family_reading_a_block_value_gets_it_loaded(monkeypatch):
    """Which values leave a block is read from every later kernel, other families' too (a
    guard reading a block's scalar): the value goes to a slot and is loaded after its call."""
    from symgrad.lower.guard import GuardKernel
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    guard = GuardKernel(Scalar("s21", F64), True, 0)
    kernels, _ = outline(_blocks(30) + [guard], 0)
    calls = [c for k in kernels for c in (k.calls if type(k) is OutlineLoop else [k])
             if type(c) is OutlineCall]
    assert [[s.name for s in c.loads] for c in calls if c.loads] == [["s21"]]
    assert kernels[-1] is guard


def test_every_body_is_among_the_programs_kernels(monkeypatch):
    """``all_kernels`` (what codegen checks the storage dtypes of) reaches each outlined body
    once, whether its first call is a single call or in a loop."""
    from symgrad.lower.control import all_kernels
    from symgrad.lower.loopir import Program
    monkeypatch.setattr(outlining, "MIN_KERNELS", 1)
    kernels, workspace = outline(_blocks(40), 0)
    assert type(kernels[0]) is OutlineLoop
    found = all_kernels(Program([], [], [], kernels, workspace))
    body = kernels[0].outline.kernels
    assert sum(any(k is b for b in body) for k in found) == len(body)


def test_a_program_of_long_loops_is_outlined_by_its_volume(monkeypatch):
    """Fewer kernels than MIN_KERNELS but many lines of C (loop kernels over vectors, as an
    unrolled LSTM's): outlined once ``volume`` reaches MIN_VOLUME; the same bits as the
    unrolled build, against a NumPy oracle."""
    def recurrence(h, w):
        for _ in range(40):
            g = sg.cat([h, h]) * w
            h = sg.tanh(g[:8]) * sg.sigmoid(g[8:]) + (h * h).sum() * 0.01
        return h.sum()
    w = np.random.default_rng(5).normal(size=16)
    h0 = np.random.default_rng(6).normal(size=8)
    monkeypatch.setattr(outlining, "MIN_KERNELS", 10 ** 9)
    monkeypatch.setattr(repeats, "MIN_BLOCK", 2)      # (a step is a few kernels here)
    plain = sg.compile(recurrence)
    want = plain(h0, w)
    kernels = sg.inspect(plain, h0, w, print_=False).spec.compiled.program.kernels
    assert outlining.volume(kernels) > 300 and "_block0(" not in plain.c_source
    monkeypatch.setattr(outlining, "MIN_VOLUME", 300)
    outlined = sg.compile(recurrence)
    _same_bits(outlined(h0, w), want)
    assert "_block0(" in outlined.c_source
    h = h0
    for _ in range(40):
        g = np.concatenate([h, h]) * w
        h = np.tanh(g[:8]) / (1 + np.exp(-g[8:])) + (h * h).sum() * 0.01
    np.testing.assert_allclose(want, h.sum(), rtol=1e-12)
