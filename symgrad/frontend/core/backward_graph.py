"""The recorded backward graph, as torch shows it: ``grad_fn``, ``next_functions``.

Layer: front end, above ``tensor``. Input: op applications that need a gradient (``apply``
records them). Output: one ``BackwardFunction`` per application, of a class named like torch's
(``MulBackward0``), pointing at the functions of its inputs (``AccumulateGrad`` for leaves);
``grad_edge`` is where a tensor's cotangent flows. The engine that walks this graph is
``autograd.py``.
"""

from __future__ import annotations

import dis
import functools
import inspect
import types
import weakref
from typing import Any
from collections.abc import Callable, Sequence

from .pending import EDGE_FN, ReplayedTensor
from .tensor import Tensor

RELEASED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")


class BackwardFunction:
    """One recorded op application: how to turn the output's cotangent into the inputs'."""

    __slots__ = ("_rule", "_attrs", "_saved", "_out", "_edges", "_shown", "_input_meta", "loc",
                 "_released", "_retained", "_saves", "_keeps", "_versions", "_hooks",
                 "_complex",
                 "_holomorphic", "_conj_saved", "_made", "__weakref__")
    _n_outputs = 1   # a custom autograd.Function may have several (custom_function.py)

    def __init__(self, rule: Callable, attrs: dict, saved: Sequence[Any], out: tuple,
                 saves: bool, edges: tuple, input_meta: tuple, loc=None, shown=None):
        self._rule = rule                  # (b, g, out, inputs, **attrs) -> cotangents
        self._attrs = attrs
        self._saved = tuple(saved)         # the input tensors
        self._out = out                    # the output's (value, node): no reference cycle;
                                           # None if the rule does not read it
        self._saves = saves                # the rule reads the inputs
        self._keeps = False                # ... other tensors a backward frees: its output,
                                           # or what a composite's rule reads from its closure
        self._edges = edges                # (function, output number) of each input, in order
        self._shown = shown                # the inputs torch's node has an edge for (None: all)
        self._input_meta = input_meta      # (shape, dtype) of each input
        self.loc = loc                     # source location (at trace time)
        self._released = False
        self._retained = None              # weak refs to tensors that retain_grad() its cotangent
        self._versions = ()                # (dtype, shape, version counter, version when saved)
                                           # of what the rule reads (not the tensor: out -> fn)
        self._hooks = None                 # [(output number, hook)]: Tensor.register_hook
        self._complex = False              # a complex output (set by record_function)
        self._holomorphic = True           # see apply (the op's OpDef.holomorphic)
        self._conj_saved = None            # which saved inputs torch conjugates (see apply)
        self._made = None                  # the output's node, at trace time (see twins)

    @property
    def next_functions(self) -> tuple:
        """The edges torch shows: one per input its node has (a Python number that torch
        takes as a ``Scalar`` argument, ``where``'s condition, an index has none; the
        engine's ``_edges`` has one per input, in the rule's order)."""
        if self._shown is None:
            return self._edges
        return tuple(self._edges[i] for i in self._shown)

    def name(self) -> str:
        return type(self).__name__

    def __getattr__(self, name: str):
        # torch's ``grad_fn._saved_self``, ``_saved_other``, ``_saved_result``...: what the
        # node saved for its backward, under the names of torch's arguments
        if name.startswith("_saved_"):
            return saved_value(self, name[7:])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:
        # torch's grad_fn classes are C types with the default repr, which IPython/Jupyter
        # display as "<AddBackward0 at 0x...>" (no "object"); notebooks show that form.
        p.text(f"<{type(self).__name__} at {id(self):#x}>")

    def apply(self, b, g):
        """The inputs' cotangents for the output's ``g``, built with the builder ``b``.

        Complex values (torch's convention, see ``dtypes``): an analytic op's rule, linear in
        g with the derivative's values as coefficients, is applied to conj(g) and its results
        conjugated -- g * conj(f'(z)) -- so that one rule serves real and complex values (an
        analytic op of complex operands has a complex result: that is the test); a rule of a
        non-analytic op (``OpDef.holomorphic`` False: abs, real, angle...) is in torch's
        convention already.

        A primitive op's rule (``_conj_saved``: which of its operands were complex as given)
        is applied to g as it is and to the conjugates of those operands and of the output,
        the same conjugation written as torch writes its formulas, g * conj(f'(z)) -- ``grad *
        other.conj()``, ``grad * result.conj()`` -- so that the products' signed zeros are
        torch's: conj(conj(g) * c) has the opposite zero where g * conj(c) has +0. (A real
        operand -- a Python number, a real tensor promoted -- stays as it is: torch's conj is
        no op on it.)"""
        if self._released or self._versions:   # (check_saved has nothing to check else)
            self.check_saved()
        out = None if self._out is None else self.output()
        if not (self._complex and self._holomorphic):
            return self._rule(b, g, out, self._saved, **self._attrs)
        if self._conj_saved is not None:
            saved = tuple(_conj(b, s) if given else s
                          for s, given in zip(self._saved, self._conj_saved))
            return self._rule(b, g, None if out is None else _conj(b, out), saved, **self._attrs)
        cts = self._rule(b, _conj(b, g), out, self._saved, **self._attrs)
        return tuple(None if c is None else _conj(b, c) for c in cts)

    def check_saved(self) -> None:
        """Raise torch's error if what the rule reads was freed or changed in place."""
        if self._released and (self._saves or self._keeps):
            raise RuntimeError(RELEASED_MSG)
        for dtype, shape, counter, seen in self._versions:
            if counter[0] != seen:
                raise RuntimeError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: [{dtype.name} {list(shape)}] is at version "
                    f"{counter[0]}; expected version {seen} instead (needed by "
                    f"{type(self).__name__}). Hint: the in-place operation came after the "
                    f"tensor was used; use an out-of-place operation or .clone().")

    def retained(self) -> list[Tensor]:
        """The live tensors whose .grad is this function's cotangent (``retain_grad``)."""
        return [t for t in (r() for r in self._retained or ()) if t is not None]

    def output(self) -> Tensor:
        """The op's output as a tensor attached to this function (for rules that reuse it)."""
        t = Tensor(*self._out)
        t._requires_grad = True
        t.grad_fn = self
        return t

    def release(self) -> None:
        self._released = True
        if self._saves:
            self._saved = ()
            self._versions = ()


# The names torch's nodes give their inputs, where they are not (self, other, ...): what
# ``_saved_<name>`` reads.
_ARGUMENTS = {"Pow": ("self", "exponent"), "Where": ("condition", "self", "other"),
              "Lerp": ("self", "end", "weight"), "Clamp": ("self", "min", "max"),
              "Mm": ("self", "mat2"), "Dot": ("self", "tensor"), "Mv": ("self", "vec"),
              "Bmm": ("self", "mat2"), "Addcmul": ("self", "tensor1", "tensor2"),
              "Addcdiv": ("self", "tensor1", "tensor2"), "MaskedFill": ("self", "mask", "value"),
              "Xlogy": ("self", "other"), "Rsub": ("other", "self")}


def saved_value(fn: BackwardFunction, name: str):
    """``fn._saved_<name>``: its output (``result``) or the input torch names ``name`` (a
    Python number stays one); torch's error once a backward has freed them."""
    kind = type(fn).__name__.split("Backward")[0]
    names = _ARGUMENTS.get(kind, ("self", "other", "third"))
    if name == "result" and fn._out is not None:
        index = None
    elif name in names and fn._saves and names.index(name) < len(fn._input_meta):
        index = names.index(name)
    else:
        raise AttributeError(f"'{type(fn).__name__}' object has no attribute '_saved_{name}'")
    if fn._released:
        raise RuntimeError(RELEASED_MSG)
    if index is None:
        return fn.output()
    value = fn._saved[index]
    if fn._shown is not None and index not in fn._shown and value.ndim == 0 \
            and not value.dtype.is_bool:
        return value.item()   # a Python number torch took as a Scalar argument
    return value


def _conj(b, x):
    return b.op("conj", x) if x.dtype.is_complex else x


class AccumulateGrad:
    """The sink of a leaf tensor that requires grad: adds cotangents into ``leaf.grad``."""

    __slots__ = ("variable", "_hooks", "_post_hooks", "__weakref__")
    next_functions = _edges = ()
    loc = None
    _retained = None
    _n_outputs = 1
    _made = None

    def __init__(self, variable: Tensor):
        self.variable = variable
        self._hooks = None        # [(0, hook)]: hooks on the leaf, run before accumulating
        self._post_hooks = None   # [hook]: register_post_accumulate_grad_hook

    def name(self) -> str:
        return "AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(f"<AccumulateGrad at {id(self):#x}>")   # as IPython shows torch's (see above)


_CLASSES: dict[str, type] = {}


def function_class(name: str) -> type:
    """A BackwardFunction subclass named like torch's grad_fn class (created once per name)."""
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = type(name, (BackwardFunction,), {"__slots__": ()})
    return cls


def function_classes() -> frozenset:
    """The classes ``function_class`` made: functions of symgrad's own op rules (not a custom
    ``autograd.Function``'s node)."""
    return frozenset(_CLASSES.values())


def edge(t: Tensor) -> tuple:
    """``(function, output number)``: where a cotangent for ``t`` flows (torch's gradient
    edge). The number tells apart the outputs of a custom Function with several."""
    fn = grad_edge(t)
    if fn is not None and fn._n_outputs > 1:
        return fn, fn.output_nr(t)
    return fn, 0


def grad_edge(t: Tensor):
    """The backward function a cotangent for ``t`` flows into (None: no gradient)."""
    if t.grad_fn is not None:
        return t.grad_fn
    if not t._requires_grad:
        return None
    acc = t._accumulator
    if type(acc) is weakref.ref:
        acc = acc()
    if acc is None:
        # As torch does: the leaf refers to its own accumulator weakly (the accumulator holds
        # the leaf, so a strong reference back would be a cycle keeping the leaf's .grad and
        # with it a whole traced tape alive until the cyclic collector ran); the graphs that
        # flow into it keep it alive. A snapshot (inplace.py) holds its leaf's strongly.
        acc = AccumulateGrad(t)
        t._accumulator = weakref.ref(acc)
    return acc


def record_function(out: Tensor, op, attrs: dict, inputs: list, torch_name: str, loc,
                    shown: tuple | None, reads_out: bool) -> None:
    """Give ``out`` the backward function of ``op`` applied to ``inputs`` (``apply``'s
    recording; ``reads_out``: whether the rule gets the output, else None for it)."""
    rule = op.vjp
    parts = getattr(rule, "parts", None)
    # The edges and input metadata in one loop, ``backward_graph.edge`` inlined (this runs
    # once per recorded op; two generator expressions and two calls per input were ~4% of a
    # large trace).
    edges = []
    meta = []
    versions = [] if op.saves else None   # what the rule reads must not change in place
    for t in inputs:
        # (a compiled step's kept result: its node is made only if something reads it)
        fn = t.grad_fn if t.__class__ is not ReplayedTensor else EDGE_FN[0](t)
        if fn is None and t._requires_grad:
            fn = grad_edge(t)   # a leaf's AccumulateGrad
        edges.append((fn, fn.output_nr(t)) if fn is not None and fn._n_outputs > 1
                     else (fn, 0))
        meta.append((t.shape, t.dtype))
        if versions is not None:
            versions.append((t.dtype, t.shape, t._vc, t._vc[0]))
    out_read = op.uses_out
    if parts is not None:
        needed = _needed(rule, parts, tuple([t._requires_grad for t in inputs]))
        rule = needed.rule
        if versions is not None and needed.unread:   # what no needed part reads
            versions = [v for k, v in enumerate(versions) if k not in needed.unread]
        out_read = out_read and needed.reads_out
    cls = _CLASSES.get(torch_name) or function_class(torch_name)
    fn = cls(rule, attrs, inputs, (out._value, out._node) if reads_out else None, op.saves,
             tuple(edges), tuple(meta), loc, shown or op.torch_inputs or None)
    if out.dtype.kind == "complex":
        fn._complex = True
    # (an op whose rule reads nothing saved is linear with real coefficients -- add, sum,
    # reshape, cat...: conjugating around it changes nothing but the signs of zeros)
    fn._holomorphic = op.holomorphic if type(op) is CompositeRule else \
        op.holomorphic and (op.saves or op.uses_out)
    # What the rule will read must not have changed in place by the time it runs.
    if versions is not None:
        fn._versions = tuple(versions)
    if out_read:
        fn._versions += ((out.dtype, out.shape, out._vc, out._vc[0]),)
        fn._keeps = True   # (freed by a backward: a second one raises, as torch's)
    out._requires_grad = True
    out.grad_fn = fn
    fn._made = out._node


class CompositeRule:
    """A composite's backward rule ``rule(g, out, inputs)`` in the shape ``_record`` takes
    an op's (a composite's rule is built from front-end functions: it needs no builder).
    ``saves``/``uses_out``: what the caller says the rule reads, less what its code never
    reads (``rule_reads``): only what the rule reads must not change in place before the
    backward, as torch checks only what each formula saved (``x[idx]``'s result may change,
    its rule re-runs the indexing on ``x`` alone)."""

    __slots__ = ("vjp", "saves", "uses_out", "holomorphic")
    torch_inputs = ()

    def __init__(self, rule, saves: bool, uses_out: bool, holomorphic: bool = True):
        self.vjp = lambda b, g, out, ins: rule(g, out, ins)
        self.vjp.exact = getattr(rule, "exact", False)   # (see ``exact``)
        reads_inputs, reads_out = rule_reads(rule)
        self.saves = saves and reads_inputs
        self.uses_out = uses_out and reads_out   # softmax, logsumexp, norm... reuse it
        # a rule of derivatives (conjugated for complex), as the caller declared it
        self.holomorphic = holomorphic and (saves or uses_out)


def exact(rule):
    """Mark a composite's rule as the derivative of its body's nodes everywhere, at every point
    and with no convention of its own (``addmm``'s products, ``reciprocal``'s -g/x^2; not
    ``norm``'s 0 at 0, nor a body that detaches inside): differentiating the body's nodes by
    their ops' rules may then stand for it (``faithful``: a loop rolled before reverse
    mode)."""
    rule.exact = True
    return rule


def rule_reads(rule) -> tuple[bool, bool]:
    """(whether ``rule(g, out, inputs)`` can read its inputs, whether it can read its output):
    False only where its code never names that parameter (not even for a function nested in
    it). Anything else -- a callable object, ``*args``, ``locals()`` -- reads both."""
    code = getattr(rule, "__code__", None)
    if type(rule) is not types.FunctionType or not isinstance(code, types.CodeType):
        return True, True
    return _named_parameters(code)


@functools.cache
def _named_parameters(code: types.CodeType) -> tuple[bool, bool]:
    if code.co_argcount != 3 or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) \
            or "locals" in code.co_names or "vars" in code.co_names:
        return True, True
    _, out, inputs = code.co_varnames[:3]
    named = {ins.argval for ins in dis.get_instructions(code) if ins.opname != "RESUME"}
    return inputs in named, out in named


def note_closure_reads(fn, rule, inputs: list) -> None:
    """Have ``fn`` check, before its rule runs, the tensors a composite's rule reads from the
    function that made it rather than as inputs: a loss's target or weight, an index, a mask,
    a running statistic (and through a re-run body, what the body reads). Changed in place
    before the backward, they would silently give a wrong gradient; torch saves them and
    raises. Found in the rule's closure, and its functions' (two levels)."""
    found: list = []
    _closure_tensors(rule, inputs, 2, found)
    if found:
        fn._versions = tuple(fn._versions) + tuple(
            (t.dtype, t.shape, t._vc, t._vc[0]) for t in found)
        fn._keeps = True   # (torch saves them: a second backward raises)


def _closure_tensors(f, inputs: list, depth: int, found: list) -> None:
    for cell in getattr(f, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:   # (a cell not filled yet)
            continue
        for item in value if type(value) in (list, tuple) else (value,):
            if isinstance(item, Tensor):
                if not any(item is t for t in inputs) and not any(item is t for t in found):
                    found.append(item)
            elif depth and getattr(item, "__closure__", None):
                _closure_tensors(item, inputs, depth - 1, found)


class _Needed:
    """Of a ``per_input`` rule, for the inputs that require grad: the rule computing only
    their cotangents (None for the others: the rule itself if all do), the inputs none of
    those parts reads, whether one reads the output (``ops.registry.per_input``)."""

    __slots__ = ("rule", "unread", "reads_out")


# (rule, which inputs require grad) -> _Needed: one object per rule and pattern, so that
# equal rules are one object, as twins (``twins``) are told by their rule's identity
_NEEDED: dict = {}


def plain_rule(op, grads: tuple):
    """The rule ``record_function`` gives an application of the primitive ``op`` whose inputs
    require grad as ``grads`` says (``frontend.control.rolling`` checks a tape by it)."""
    parts = getattr(op.vjp, "parts", None)
    return op.vjp if parts is None else _needed(op.vjp, parts, grads).rule


def _needed(rule, parts: tuple, grads: tuple) -> _Needed:
    """``_Needed`` of ``rule`` (its ``parts``) when ``grads`` says which inputs require grad
    (made once per rule and pattern: this runs once per recorded op with parts)."""
    found = _NEEDED.get((rule, grads))
    if found is None:
        found = _NEEDED[(rule, grads)] = _Needed()
        found.rule = rule if all(grads) else _only(
            tuple(p if g else None for p, g in zip(parts, grads)))
        reads = getattr(rule, "reads", None)
        if reads is None:
            found.unread, found.reads_out = frozenset(), True
        else:
            read = {k for g, ks in zip(grads, reads) if g for k in ks}
            found.unread = frozenset(range(len(grads))) - read
            found.reads_out = -1 in read
    return found


def _only(parts: tuple):
    """A rule computing the cotangents of ``parts`` that are not None, None for the others."""
    def rule(b, g, out, ins, **attrs):
        return tuple(None if p is None else p(b, g, out, ins, **attrs) for p in parts)
    return rule
