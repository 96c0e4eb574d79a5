"""``Inspection.to_dot`` / ``render``: a stage's graph as Graphviz DOT, checked as text (and
rendered when Graphviz is installed)."""

import re
import shutil

import numpy as np
import pytest

import symgrad as sg


def loss(x, w):
    h = sg.tanh(x @ w)
    return (h ** 2).sum()


def _inspection():
    return sg.inspect(sg.value_and_grad(loss, argnums=1), np.ones((3, 4)), np.ones((4, 2)),
                      print_=False)


def test_dot_shows_ops_lines_fused_loops_and_the_backward():
    ins = _inspection()
    dot = ins.to_dot("optimized")
    assert dot.startswith("digraph symgrad {") and dot.rstrip().endswith("}")
    assert dot == _inspection().to_dot("optimized")          # deterministic
    labels = re.findall(r'label="([a-z_]+)\\nfloat64\[([\d,]*)\]"', dot)
    assert ("matmul", "3,2") in labels and ("tanh", "3,2") in labels
    line = loss.__code__.co_firstlineno + 1                      # h = sg.tanh(x @ w)
    assert f"test_dot.py:{line}: h = sg.tanh(x @ w)" in dot      # tooltips: file:line
    assert "subgraph cluster_loop0" in dot                      # a fused loop
    assert "#fbd9b5" in dot and "backward of TanhBackward0" in dot
    edges = re.findall(r"n\d+ -> n\d+;", dot)
    assert len(edges) >= 10
    traced = ins.to_dot("traced")
    assert "#fbd9b5" not in traced and "cluster" not in traced   # forward only, unfused
    assert "backward of" in ins.to_dot("adjoint")
    with pytest.raises(ValueError, match="stage must be one of"):
        ins.to_dot("lowered")


def test_render_needs_graphviz(tmp_path, monkeypatch):
    ins = _inspection()
    if shutil.which("dot") is not None:
        out = ins.render(str(tmp_path / "graph.svg"))
        assert (tmp_path / "graph.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
        assert out.endswith("graph.svg")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="Graphviz's `dot` program was not found"):
        ins.render(str(tmp_path / "graph.svg"))
