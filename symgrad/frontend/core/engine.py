"""The autograd engine: reverse mode over the recorded backward graph, torch's way.

Layer: front end, above ``apply``. Input: root tensors and their cotangents. Output:
cotangent tensors for the leaves (accumulated into ``.grad``) or for requested inputs
(returned, like ``torch.autograd.grad``).

This is a tape engine, not a Graph -> Graph pass, and on purpose: the VJP rules apply ops to
tensors, which eagerly compute with NumPy and at trace time add nodes to the graph (JAX's rules
run under its trace the same way). So one engine serves eager autograd and compilation, and at
trace time the adjoint is an ordinary graph, differentiable again when ``create_graph`` is on.
It is the one place where a cotangent is summed back over the dimensions its input was
broadcast along.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence

from ...dims import is_one, same_shape
from ...errors import TracerValueError
from ...ir.graph import toposort
from . import grad_mode, lazy, lazy_backward, sources, twins
from ...ops import OPS
from .accumulate import accumulate
from .apply import WATCH, apply, as_tensor, full
from .builder import BUILDER, ruled
from .backward_graph import AccumulateGrad, edge, function_class
from .double_backward import NAMES, named_cotangents
from .halfprec import KEEP_COMPLEX, REAL_INPUT_COMPLEX_GRAD
from .shown import eager_reduction, unrecorded
from .tensor import Tensor, size_text

_GRAD = grad_mode._local   # .enabled: grad_mode.is_grad_enabled(), inlined
_RECORDING = sources._local   # .recording: the active trace (sources.current(), inlined)


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """``t.backward(...)``: accumulate d(t)/d(leaf), weighted by ``gradient``, into each
    leaf's ``.grad`` (only into ``inputs``' when given)."""
    backward_many([t], None if gradient is None else [gradient], retain_graph, create_graph,
                  inputs)


def root_cotangents(outputs: Sequence[Tensor], grad_outputs) -> list[tuple]:
    """``[(output, cotangent)]``, torch's checks and messages: ones for one-element outputs
    given no cotangent."""
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad requires one gradient per output: got {len(grad_outputs)} "
                           f"gradients for {len(outputs)} outputs")
    roots = []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if t.dtype.is_complex:
                raise RuntimeError(f"grad can be implicitly created only for real scalar "
                                   f"outputs but got {t.dtype!r}")
            g = full(t, 1.0)
        else:
            g = as_tensor(g, dtype=t.dtype)
            if not same_shape(g.shape, t.shape):
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {size_text(g.shape)} "
                    f"and output[{i}] has a shape of {size_text(t.shape)}.")
        roots.append((t, g))
    return roots


def backward_many(tensors: Sequence[Tensor], grad_tensors=None, retain_graph=None,
                  create_graph: bool = False, inputs=None) -> None:
    """``torch.autograd.backward``: accumulate into leaves' ``.grad`` from several roots;
    with ``inputs``, into those tensors' ``.grad`` only (leaves or not)."""
    if WATCH[0] and lazy_backward.backward(tensors, grad_tensors, retain_graph, create_graph,
                                           inputs):
        return   # the captured step ran compiled (lazy.py)
    roots = root_cotangents(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is None:
        run_backward(roots, retain_graph=retain_graph, create_graph=create_graph)
        return
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if not inputs:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    grads = run_backward(roots, retain_graph=retain_graph, create_graph=create_graph,
                         inputs=inputs, through_inputs=True)
    for t, g in zip(inputs, grads):
        if g is not None:
            accumulate(t, g, create_graph)


def sum_to_shape(ct: Tensor, shape: tuple) -> Tensor:
    """Sum a cotangent back over the dimensions ``shape`` was broadcast along."""
    if same_shape(ct.shape, shape):
        return ct
    lead = ct.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if is_one(s) and not is_one(ct.shape[lead + i]))
    if axes:
        if not ct._requires_grad and unrecorded(ct):
            summed = eager_reduction(OPS["sum"], ct, axes, False)   # (no node: one kernel)
            if summed is not None:
                return summed if same_shape(summed.shape, shape) else \
                    Tensor(summed._value.reshape(shape), None)
        ct = apply("sum", ct, axes=axes)
    if not same_shape(ct.shape, shape):
        ct = ruled("reshape", ct, shape_to=shape)
    return ct


def run_backward(roots: Sequence[tuple[Any, Any]], *, retain_graph: bool, create_graph: bool,
                 inputs: Sequence[Any] | None = None, through_inputs: bool = False,
                 input_hooks: bool = True) -> list | None:
    """Propagate cotangents from ``roots`` [(tensor, cotangent)] to the leaves.

    Without ``inputs``, cotangents accumulate into the ``.grad`` of leaves (and of tensors that
    called ``retain_grad``). With ``inputs``, nothing is accumulated: the cotangent reaching
    each input is returned (None where none does), like ``torch.autograd.grad``. Paths that
    run through one input to another are followed only if ``through_inputs`` (torch's
    ``autograd.grad``); composites rely on their not being followed by default. Tensor hooks
    (``register_hook``) see each cotangent before it is delivered, captured or propagated;
    with ``input_hooks`` False, not at the inputs: a composite's rule that back-propagates
    through its own steps returns its inputs' cotangents into the outer pass, which runs
    their hooks when it reaches them (run here too, they ran twice).
    """
    if WATCH[0]:   # (eager capture: the step so far runs eagerly; the pass is not recorded)
        lazy.close("a backward pass")
        with lazy.paused():
            return _run_backward(roots, retain_graph, create_graph, inputs, through_inputs,
                                 input_hooks)
    return _run_backward(roots, retain_graph, create_graph, inputs, through_inputs,
                         input_hooks)


def _run_backward(roots, retain_graph: bool, create_graph: bool, inputs, through_inputs: bool,
                  input_hooks: bool) -> list | None:
    targets = _targets(inputs or ())
    stops = {} if through_inputs else targets
    pending: dict[Any, Any] = {}
    for t, g in roots:
        fn, nr = edge(t)
        if fn is not None:
            _add(pending, fn, nr, g)
    topo = _order(list(pending), stops)
    traced = any(t._value is None or g._value is None for t, g in roots)
    edges = group = None
    if traced:   # at trace time, twin functions (a value computed twice) take one adjoint
        pending, topo, edges, group = _merge_twins(pending, topo, targets)
    needed = _needed(topo, targets, stops, inputs is None, edges)
    if inputs is None and traced:
        _check_sinks_traced(needed)

    results: list = [None] * (len(inputs) if inputs is not None else 0)
    with grad_mode.set_grad_enabled(create_graph):
        for fn in topo:
            g = pending.pop(fn, None)
            if g is None or fn not in needed:
                continue
            if fn._hooks and (input_hooks or fn not in targets):
                g = _run_hooks(fn, g)
            if fn in targets:
                # An input's cotangent: returned (and followed further only through_inputs);
                # of a function with several outputs, the input's own output's.
                for nr, i in targets[fn].items():
                    got = g[nr] if type(g) is list else g
                    results[i] = got if create_graph or got is None else _detached(got)
                if fn in stops:
                    continue
            if inputs is None:
                _deliver(fn, g, create_graph)
            _step(fn, g, needed, pending, retain_graph, edges, group)
    return results if inputs is not None else None


def _merge_twins(pending: dict, topo: list, targets: dict) -> tuple:
    """``(pending, topo, edges, twins)`` with twin functions merged (``twins.merge``): the
    roots' cotangents given to the functions standing for theirs (summed, in the roots' order,
    where twins stand for one another), the order over the standing functions and their edges
    (``edges`` and ``twins`` None: there were no twins)."""
    merged = twins.merge(topo, targets)
    if merged is None:
        return pending, topo, None, None
    standing, edges, group = merged
    roots: dict = {}
    for fn, g in pending.items():
        first = standing.get(fn, fn)
        roots[first] = g if first not in roots else roots[first] + g
    return roots, [fn for fn in topo if fn not in standing], edges, group


def _targets(inputs: Sequence[Any]) -> dict:
    """function -> {output number: position in ``inputs``} of the tensors whose cotangents
    ``run_backward`` returns (an input given twice: its first position; a composite passes
    its operands, and the same tensor twice must not receive the gradient twice)."""
    targets: dict[Any, dict] = {}
    for i, t in enumerate(inputs):
        fn, nr = edge(t)
        if fn is not None:
            targets.setdefault(fn, {}).setdefault(nr, i)
    return targets


def _step(fn, g, needed: set, pending: dict, retain_graph: bool, edges: dict | None,
          group: dict | None) -> None:
    """Propagate ``fn``'s cotangent to its inputs if any of them needs it (then free what
    ``fn`` saved, unless the graph is retained). At trace time, the nodes its rule builds are
    attributed to ``fn``'s line (``sources.attributed_to``, inlined: this runs once per
    backward function; a context manager object and an f-string per step were ~5% of a large
    trace). ``edges``, ``group``: the functions' edges and their twins where twins were merged
    (``_merge_twins``; else None): the twins are freed with ``fn``."""
    fn_edges = fn._edges if edges is None else edges[fn]
    for n, _ in fn_edges:   # (an AccumulateGrad has none; None is never needed)
        if n in needed:
            break
    else:
        return
    rec = _RECORDING.recording
    loc = fn.loc
    if rec is None or loc is None:
        _propagate(fn, g, needed, pending, fn_edges)
    else:
        prev = rec.attribution
        rec.attribution = sources.noted(rec, loc, fn)
        try:
            _propagate(fn, g, needed, pending, fn_edges)
        finally:
            rec.attribution = prev
    if not retain_graph:
        fn.release()
        for twin in group.get(fn, ()) if group is not None else ():
            twin.release()


def _add(pending: dict, fn, nr: int, g) -> None:
    """Add ``g`` to the cotangent ``fn``'s output number ``nr`` has received so far."""
    n = fn._n_outputs
    if n == 1:
        pending[fn] = g if fn not in pending else pending[fn] + g
        return
    slots = pending.get(fn)
    if slots is None:
        slots = pending[fn] = [None] * n
    slots[nr] = g if slots[nr] is None else slots[nr] + g


def _detached(g):
    return [None if x is None else x.detach() for x in g] if type(g) is list else g.detach()


def _run_hooks(fn, g):
    """Each hook registered on a tensor whose cotangent ``g`` is (``register_hook``), in
    order; a hook returning a tensor replaces the cotangent."""
    for nr, hook in list(fn._hooks.values()):
        slots = g if type(g) is list else None
        current = g if slots is None else slots[nr]
        if current is None:
            continue
        new = hook(current)
        if new is not None:
            if slots is None:
                g = new
            else:
                slots[nr] = new
    return g


def _order(roots: list, stops: dict) -> list:
    """The functions reachable from the roots (not beyond a stop), in a topological order
    (Kahn's algorithm; iterative: graphs can be deep)."""
    deps: dict[Any, int] = {}
    stack = list(roots)
    first = set(stack)
    while stack:
        fn = stack.pop()
        if fn in stops:
            continue   # nothing beyond an input is needed (and nothing there may be freed)
        for nxt, _ in fn._edges:
            if nxt is None:
                continue
            count = deps.get(nxt)
            if count is None:   # reached for the first time (deps doubles as the seen set)
                deps[nxt] = 1
                if nxt not in first:
                    stack.append(nxt)
            else:
                deps[nxt] = count + 1
    topo = []
    frontier = [fn for fn in roots if deps.get(fn, 0) == 0]
    while frontier:
        fn = frontier.pop()
        topo.append(fn)
        if fn in stops:
            continue
        for nxt, _ in fn._edges:
            if nxt is not None:
                count = deps[nxt] - 1
                deps[nxt] = count
                if count == 0:
                    frontier.append(nxt)
    return topo


def _needed(topo: list, targets: dict, stops: dict, accumulate: bool,
            edges: dict | None = None) -> set:
    """The functions on a path to something that consumes a cotangent: a target, or (when
    accumulating) a leaf's AccumulateGrad or a function whose output retains its grad."""
    needed: set = set()
    for fn in reversed(topo):
        if accumulate:
            sink = isinstance(fn, AccumulateGrad) or fn._retained is not None
        else:
            sink = fn in targets
        if not sink and fn not in stops:
            for n, _ in (fn._edges if edges is None else edges[fn]):
                if n in needed:
                    sink = True
                    break
        if sink:
            needed.add(fn)
    return needed


def _propagate(fn, g, needed: set, pending: dict, fn_edges: tuple) -> None:
    """Apply ``fn``'s rule and add each input's cotangent (summed back over broadcast
    dimensions and cast to the input's dtype) to what that input has received so far
    (``fn_edges``: where its inputs' cotangents flow)."""
    # The name torch gives the node of fn's backward when it builds a graph, if that is one
    # op of its own (double_backward.NAMES; None: the rule's own nodes are torch's).
    name = None if fn._complex or not _GRAD.enabled else NAMES.get(type(fn).__name__)
    cts = fn.apply(BUILDER, g) if name is None else named_cotangents(fn, g, name, run_backward)
    for (nxt, nr), ct, (shape, dtype) in zip(fn_edges, cts, fn._input_meta):
        if nxt is None or ct is None or nxt not in needed:
            continue
        if not same_shape(ct.shape, shape):
            ct = sum_to_shape(ct, shape)
        if ct.dtype is not dtype:
            if ct.dtype.is_complex and not dtype.is_complex and fn.name() in KEEP_COMPLEX:
                raise RuntimeError(REAL_INPUT_COMPLEX_GRAD)
            ct = apply("cast", ct, dtype=dtype)
        if nxt._n_outputs == 1:   # (_add's common case, inlined)
            pending[nxt] = pending[nxt] + ct if nxt in pending else ct
        else:
            _add(pending, nxt, nr, ct)


def _check_sinks_traced(needed: set) -> None:
    """A backward at trace time must not write into a tensor that lives outside the trace.

    Its cotangents are graph nodes, valid only inside the function being compiled; stored in
    the ``.grad`` of a tensor from outside it (a global parameter the function closes over)
    they would outlive the trace as a placeholder, and the compiled code could never update
    that tensor anyway. An eager tensor created during this trace is the function's own
    (``w = ones(3, requires_grad=True)`` in its body). Checked before anything is delivered,
    so no .grad is half written when we raise.
    """
    rec = sources.current()

    def foreign(t) -> bool:
        return t._value is not None and t._trace is not rec

    for fn in needed:
        if isinstance(fn, AccumulateGrad):
            outside = [fn.variable] if foreign(fn.variable) else []
        else:
            outside = [t for t in fn.retained() if foreign(t)]
        if outside:
            loc = sources.user_loc()
            where = f" at {loc.file}:{loc.line} ({loc.text})" if loc else ""
            shape = tuple(outside[0].shape)
            raise TracerValueError(
                f"backward(){where} inside @symgrad.compile would store a traced gradient in "
                f"the .grad of a tensor of shape {shape} created outside the compiled "
                f"function; compiled code cannot update tensors it does not own. Pass that "
                f"tensor as an argument (call .requires_grad_() on it inside) and return its "
                f".grad, or use symgrad.grad / symgrad.value_and_grad.")


def _deliver(fn, g, create_graph) -> None:
    """Hand a finished cotangent to whoever keeps it: a leaf's .grad, or retain_grad's."""
    if isinstance(fn, AccumulateGrad):
        accumulate(fn.variable, g, create_graph)
        for hook in list((fn._post_hooks or {}).values()):
            hook(fn.variable)
        return
    if fn._retained is not None:
        for t in fn.retained():
            new = g if fn._n_outputs == 1 else g[fn.output_nr(t)]
            if new is None:
                continue
            new = new if create_graph else new.detach()
            t._grad = new if t._grad is None else t._grad + new


_Alias = function_class("AliasBackward0")


def differentiable(t: Tensor) -> Tensor:
    """A tensor to differentiate with respect to, sharing ``t``'s value or node: a fresh leaf,
    or, if ``t`` already requires grad (an outer transform differentiates through this one),
    an alias whose backward passes the cotangent on to ``t``. Inside a body being traced
    (a loop body, a vmapped function) a tensor from outside is first read through the body
    input it becomes, so that the ops on the leaf are the body's."""
    rec = sources.current()
    if rec is not None and rec.body is not None:
        t = rec.body.lift([t])[0]
    out = Tensor(t._value, t._node)
    out._requires_grad = True
    if t.requires_grad:
        out.grad_fn = _Alias(lambda b, g, o, ins: (g,), {}, (t,), (t._value, t._node), False,
                             (edge(t),), ((t.shape, t.dtype),), None)
    return out


def push_forward(outputs: list, inputs: list, tangents: list) -> list:
    """Forward mode by transposing reverse mode: the tangent of each of ``outputs`` (tensors
    on the tape) along ``tangents`` of the leaves ``inputs`` (None: zero); None where an
    output has none. A backward pass from zero cotangents ``v`` that require grad builds
    ``J^T v``, linear in ``v`` (every VJP rule is); its own backward pass at ``u`` is
    ``J u``, the same at every ``v``. A cotangent holding a ``poison`` value (a second
    derivative symgrad cannot compute, see ``control_vjp``) makes the tangent unknown: its
    message is raised (the second pass would cut through it and give a zero)."""
    return push_forward_each(outputs, inputs, [tangents])[0]


def push_forward_each(outputs: list, inputs: list, tangent_sets: list) -> list:
    """``push_forward`` along each of several tangents (a list of tangents per set), the
    first backward pass made once for all of them."""
    live = [o for o in outputs if o._requires_grad and o.dtype.is_differentiable]
    results = []
    with grad_mode.enable_grad():
        vs = [full(o, 0.0) for o in live]
        for v in vs:
            v._requires_grad = True
        gs = run_backward(list(zip(live, vs)), retain_graph=True, create_graph=True,
                          inputs=inputs) if live else [None] * len(inputs)
        _refuse_poison(gs)
        for tangents in tangent_sets:
            roots = [(g, u) for g, u in zip(gs, tangents)
                     if g is not None and u is not None and g._requires_grad]
            ts = run_backward(roots, retain_graph=True, create_graph=True,
                              inputs=vs) if roots else [None] * len(vs)
            found = dict(zip(map(id, live), ts))
            results.append([found.get(id(o)) for o in outputs])
    return results


def _refuse_poison(gs: list) -> None:
    nodes = [g._node for g in gs if g is not None and g._value is None]
    for n in toposort(nodes) if nodes else ():
        if n.op == "poison":
            raise NotImplementedError(n.attr("message"))
