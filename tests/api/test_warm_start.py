"""Instant warm starts (api/warm.py, api/fingerprint.py): a fresh process loads what an earlier
one compiled without tracing, and every kind of dependency that changes the function makes it
trace again (a stale gradient is the failure that matters).

Each run is a fresh Python process on a program written to a temporary directory, with its own
cache directory; SYMGRAD_DEBUG=1 tells whether it traced ("compile ...: N nodes; trace ...") or
loaded ("warm start from disk").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from symgrad.api.fingerprint import Unknown

PROGRAM = '''
import os
import numpy as np
import symgrad as sg
import helpers

SCALE = 2.0                          # a global constant
W = np.array([1.0, 2.0, 3.0])        # a module-level array


@sg.compile
def helper(x):                       # a called helper (itself a compiled function)
    return x * x


def make(k):                         # a closure variable
    def loss(x, p=1.5):              # a default
        return (SCALE * W * helper(x) + k * x ** p + helpers.extra(x)).sum()
    return loss


f = sg.grad(make(float(os.environ.get("K", "0.5"))))
x = np.array([0.5, 1.0, 2.0])
print("RESULT", list(map(float, f(x))))
'''

HELPERS = '''
def extra(x):                        # a helper in another module of the program
    return 0.25 * x
'''


def gradient(scale=2.0, w=(1.0, 2.0, 3.0), helper_power=2, k=0.5, p=1.5, extra=0.25):
    """The program's gradient by hand: d/dx [scale w x^a + k x^p + extra x]."""
    x, w = np.array([0.5, 1.0, 2.0]), np.array(w)
    return scale * w * helper_power * x ** (helper_power - 1) + k * p * x ** (p - 1) + extra


def run(directory, output: bool = False, **env) -> tuple:
    """(the gradient it printed, whether it traced[, what it printed])."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    # (no bytecode: Python's own cache of an edited helper is not what is tested; a rewrite of
    # the same size in the same second would run the old code)
    environ.update(SYMGRAD_CACHE_DIR=str(directory / "cache"), SYMGRAD_DEBUG="1",
                   PYTHONPATH=str(directory), PYTHONDONTWRITEBYTECODE="1", **env)
    done = subprocess.run([sys.executable, str(directory / "prog.py")], cwd=directory,
                          capture_output=True, text=True, env=environ, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.split("RESULT ", 1)[1].splitlines()[0])
    traced = "nodes; trace" in done.stdout
    warm = "warm start from disk" in done.stdout
    assert traced != warm, done.stdout
    return (result, traced, done.stdout) if output else (result, traced)


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_fresh_process_loads_without_tracing_and_every_change_retraces(tmp_path):
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "helpers.py").write_text(HELPERS)
    prog, helpers = tmp_path / "prog.py", tmp_path / "helpers.py"
    result, traced = run(tmp_path)
    assert traced and np.allclose(result, gradient())
    result, traced = run(tmp_path)
    assert not traced and np.allclose(result, gradient())       # the warm start
    # Each kind of dependency, changed: traced again, and the new gradient is right.
    changes = [
        (lambda: edit(prog, "SCALE = 2.0", "SCALE = 3.0"), {}, dict(scale=3.0)),
        (lambda: edit(prog, "np.array([1.0, 2.0, 3.0])", "np.array([1.0, 2.0, 4.0])"), {},
         dict(scale=3.0, w=(1.0, 2.0, 4.0))),
        (lambda: edit(prog, "return x * x", "return x * x * x"), {},
         dict(scale=3.0, w=(1.0, 2.0, 4.0), helper_power=3)),
        (lambda: None, {"K": "0.75"}, dict(scale=3.0, w=(1.0, 2.0, 4.0), helper_power=3,
                                           k=0.75)),
        (lambda: edit(prog, "p=1.5", "p=2.5"), {"K": "0.75"},
         dict(scale=3.0, w=(1.0, 2.0, 4.0), helper_power=3, k=0.75, p=2.5)),
        (lambda: edit(helpers, "0.25 * x", "0.5 * x"), {"K": "0.75"},
         dict(scale=3.0, w=(1.0, 2.0, 4.0), helper_power=3, k=0.75, p=2.5, extra=0.5)),
    ]
    for change, env, expected in changes:
        change()
        result, traced = run(tmp_path, **env)
        assert traced, f"no re-trace after the change to {expected}"
        assert np.allclose(result, gradient(**expected)), expected
    # and the last one, unchanged, loads again
    result, traced = run(tmp_path, K="0.75")
    assert not traced and np.allclose(result, gradient(**expected))


def test_an_unfingerprintable_global_traces_and_says_why(tmp_path):
    (tmp_path / "helpers.py").write_text(HELPERS)
    # (an object of a library's class whose state symgrad cannot read: a Fraction; objects
    # of the program's own classes are walked attribute by attribute)
    program = PROGRAM.replace("SCALE = 2.0", textwrap.dedent('''
        import fractions
        CONFIG = fractions.Fraction(2)
        SCALE = 2.0''')).replace("(SCALE * W", "(float(CONFIG) * W")
    (tmp_path / "prog.py").write_text(program)
    for _ in range(2):                  # the second process traces too, and says why
        result, traced, output = run(tmp_path, output=True)
        assert traced and np.allclose(result, gradient())
        assert "cannot fingerprint global 'CONFIG'" in output


def test_keys_depend_on_the_signature_and_options():
    import symgrad as sg

    def loss(x):
        return (x * x).sum()
    f, g = sg.grad(loss), sg.compile(sg.grad(loss), fast_math=True)
    assert f.pretrace_key(np.zeros(3)) == f.pretrace_key(np.ones(3))     # values: not in it
    assert f.pretrace_key(np.zeros(3)) != f.pretrace_key(np.zeros(4))
    assert f.pretrace_key(np.zeros(3)) != f.pretrace_key(np.zeros(3, np.float32))
    assert f.pretrace_key(np.zeros(3)) != g.pretrace_key(np.zeros(3))

    import fractions
    thing = fractions.Fraction(1, 3)     # (a library object whose state is not walked)

    def reads_opaque(x):
        return x * len(str(thing))
    with pytest.raises(Unknown, match="Fraction"):
        sg.compile(reads_opaque).pretrace_key(np.ones(2))
