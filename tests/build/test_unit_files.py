"""Each translation unit of a split program is compiled from a file of its own (``units``): the
whole text without the other units' parts, which preprocesses to exactly what the whole text
gives under -DSG_TU=k, with every line at its number in kernel.c; anything not laid out as
expected compiles the whole text instead."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

import symgrad as sg
from symgrad.build.c import units
from symgrad.codegen.c import split as parts
from symgrad.lower import outline, repeats

P0 = np.array([1.0, 0.5, 9.81, 0.3])


def _pendulum(p):
    th, om, k, c = p[0], p[1], p[2], p[3]
    for _ in range(12):
        a = -k * sg.sin(th) - c * om
        th, om = th + 0.01 * om, om + 0.01 * a
    return th * th + om * om + sg.exp(p * 0.1).sum()


@pytest.fixture(params=["unrolled", "outlined"])
def split_program(monkeypatch, request):
    """The pendulum's gradient with small parts: four cold units; or with its repeated steps
    outlined (lower.outline: the blocks' functions are a block of unit 1) in smaller parts."""
    outlined = request.param == "outlined"
    monkeypatch.setattr(outline, "MIN_KERNELS", 1 if outlined else 10 ** 9)
    monkeypatch.setattr(repeats, "MIN_BLOCK", 8)
    monkeypatch.setattr(parts, "PART_WEIGHT", 2 if outlined else 20)
    monkeypatch.setattr(parts, "UNIT_PARTS", 2)
    f = sg.value_and_grad(_pendulum)
    out = f(P0)
    spec = f.last_specialization
    assert ("_block0(" in spec.source.text) == outlined
    assert len(spec.source.units) == 5
    return spec, out


def _line_numbers(unit: str) -> list[tuple[int, str]]:
    """(line number in kernel.c as the ``#line`` directives say, text) of each other line."""
    lines, number = [], 1
    for line in unit.split("\n"):
        m = re.fullmatch(r'#line (\d+) "kernel\.c"', line)
        if m:
            number = int(m.group(1))
            continue
        lines.append((number, line))
        number += 1
    return lines


def _preprocessed(cc, directory, name, k) -> list[str]:
    out = subprocess.run([cc, "-std=c99", "-E", "-P", f"-DSG_TU={k}", name], cwd=directory,
                         check=True, capture_output=True, text=True).stdout
    return [line for line in out.split("\n") if line.strip()]


def test_unit_files_preprocess_like_the_whole_text(split_program, tmp_path):
    spec, _ = split_program
    text, n = spec.module.path.joinpath("kernel.c").read_text(), len(spec.source.units)
    files = units.unit_texts(text, n)
    whole = text.split("\n")
    cc = shutil.which("gcc") or shutil.which("cc")
    (tmp_path / "kernel.c").write_text(text)
    for k, unit in enumerate(files):
        assert len(unit) < len(text)
        assert f"#if !defined(SG_TU) || SG_TU == {k}\n" in unit
        assert [j for j in range(n) if f"SG_TU == {j}\n" in unit] == [k]
        for number, line in _line_numbers(unit):
            assert whole[number - 1] == line
        (tmp_path / f"kernel{k}.c").write_text(unit)
        assert _preprocessed(cc, tmp_path, f"kernel{k}.c", k) == \
            _preprocessed(cc, tmp_path, "kernel.c", k)


def test_build_compiles_the_unit_files_and_keeps_the_whole_text(split_program, monkeypatch):
    spec, (value, grad) = split_program
    meta = json.loads((spec.module.path / "meta.json").read_text())
    for k in range(len(spec.source.units)):
        cmd = meta["commands"]["kernel" if k == 0 else f"kernel{k}"]
        assert cmd[-3:] == [f"kernel{k}.c", "-o", f"kernel{k}.o"]
    # the units' files go with the objects; kernel.c is the whole text
    assert sorted(p.name for p in spec.module.path.glob("kernel*")) == ["kernel.c", "kernel.so"]
    assert spec.source.text in spec.module.path.joinpath("kernel.c").read_text()
    want = sg.value_and_grad(_pendulum)
    monkeypatch.setattr(parts, "PART_WEIGHT", 10**6)     # one function, one unit
    whole_value, whole_grad = want(P0)
    assert want.last_specialization.source.units == ("main",)
    np.testing.assert_array_equal(value, whole_value)
    np.testing.assert_array_equal(grad, whole_grad)


BLOCK = "#if !defined(SG_TU) || SG_TU == {k}\nint part{k}(void) {{ return {k}; }}\n#endif\n"
HEAD = "/* head */\n#include <stdint.h>\n"


def _text(*blocks: str) -> str:
    return HEAD + "\n".join(blocks)


def test_blocks_of_other_units_are_dropped_with_line_numbers_kept():
    text = _text(BLOCK.format(k=0), BLOCK.format(k=1), BLOCK.format(k=2))
    files = units.unit_texts(text, 3)
    for k, unit in enumerate(files):
        assert f"part{k}(" in unit and all(f"part{j}(" not in unit for j in range(3) if j != k)
        lines = text.split("\n")
        assert all(lines[number - 1] == line for number, line in _line_numbers(unit))


@pytest.mark.parametrize("inner", [
    "#ifdef X\nint x;\n#endif",              # a conditional would move the block's end
    "  #  else",                             # (with blanks around the #)
    "#  /* */ if 1",                          # anything not a pragma/define/undef
    "/* an open comment",
    "int y; \\",                             # a line splice onto the #endif
])
def test_unexpected_layout_compiles_the_whole_text(inner):
    block = f"#if !defined(SG_TU) || SG_TU == 1\nint a;\n{inner}\n#endif\n"
    assert units.unit_texts(_text(BLOCK.format(k=0), block), 2) == [units.SKIP_ALL] * 2


def test_an_open_comment_or_a_splice_before_a_block_compiles_the_whole_text():
    for before in ("/* open\n", "int z; \\\n"):
        text = HEAD + before + BLOCK.format(k=1)
        assert units.unit_texts(text, 2) == [units.SKIP_ALL] * 2


def test_pragmas_and_macros_in_a_block_and_markers_in_comments():
    block = ("#if !defined(SG_TU) || SG_TU == 1\n#define N_ 3\n    #pragma omp simd\n"
             "    /* f.py:1: #if !defined(SG_TU) || SG_TU == 0 */\n#undef N_\n#endif\n")
    text = _text(BLOCK.format(k=0), block)
    unit0, unit1 = units.unit_texts(text, 2)
    assert "N_" not in unit0 and "part0(" in unit0
    assert "#define N_ 3" in unit1 and "part0(" not in unit1


def _parts(colds: list[bool]) -> list:
    return [parts.Part(f"part{g}", f"part {g + 1}", [], [], [], set(), cold, parts.PART_WEIGHT)
            for g, cold in enumerate(colds)]


def test_cold_parts_go_to_two_units_at_least():
    """Both cores compile: cold parts below one unit's weight still make two cold units
    (next to unit 0), spread in order; one cold part makes one; none, a single unit."""
    few = _parts([False, True, True, True])
    assert parts.assign_units(few, "f") == ("main", "cold", "cold")
    assert [p.unit for p in few] == [0, 1, 1, 2]
    assert all(p.storage == "" for p in few[1:]) and few[1].name == "f_part1"
    one = _parts([False, True])
    assert parts.assign_units(one, "f") == ("main", "cold")
    assert parts.assign_units(_parts([False, False]), "f") == ("main",)
    many = _parts([False] + [True] * (3 * parts.UNIT_PARTS))
    assert parts.assign_units(many, "f") == ("main",) + ("cold",) * 3
    assert [p.unit for p in many].count(3) == parts.UNIT_PARTS


def test_a_large_hot_kernel_is_a_unit_of_its_own_at_O2(monkeypatch):
    """A hot kernel of LARGE_TEXT characters or more: a part of its own in a "large" unit
    (-O2), the rest in the main unit; the same numbers as the program compiled whole."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(500, 3))

    def f(x):
        y = sg.sin(x) * sg.cos(x) + x.sum(1, keepdim=True)
        z = y @ sg.tensor(np.arange(9.0).reshape(3, 3))      # a kernel of another family
        return sg.tanh(z * y).sum(1) + sg.exp(-z * z).sum(0).sum()
    whole = sg.compile(f)(x)
    monkeypatch.setattr(parts, "LARGE_TEXT", 100)
    monkeypatch.setenv("SYMGRAD_WARM_START", "0")
    g = sg.compile(f)
    got = g(x)
    kinds = g.last_specialization.source.units
    assert kinds[0] == "main" and "large" in kinds
    assert "-O2" in json.dumps(json.loads(
        g.last_specialization.module.path.joinpath("meta.json").read_text())["commands"])
    np.testing.assert_array_equal(got, whole)
