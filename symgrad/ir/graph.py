"""The graph IR: immutable, interned nodes and graphs that are values.

Layer: ir (above the base and the op registry; it uses neither here). Input: op names,
attributes, input nodes, dtype and shape. Output: ``Node``, ``Graph``, topological order, and
``Loc``, the source location a graph's side table maps nodes to. This module knows no op
semantics (the op registry does) and never mutates a node or a graph after construction.

A node is interned on construction: building the same (op, attrs, inputs, dtype, shape) twice
returns the same object, so structural equality is identity and graph-level CSE is free.
Source locations are not part of a node (the same node may come from two lines); they live in
the graph's side table ``locs``.
"""

from __future__ import annotations

import math
import operator
import weakref
from dataclasses import dataclass, field
from collections.abc import Iterable

import numpy as np

from ..dims import Dim, NotGeneric
from ..dtypes import DType

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Loc:
    """Where the user's code created a value: file base name, line, the line's text, and a
    note (``(backward of MulBackward0)`` for the nodes a VJP rule built)."""

    file: str
    line: int
    text: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}{' ' + self.note if self.note else ''}"


_PLAIN = frozenset((int, str))   # the attribute value types that are their own key


def attr_key(value: object) -> object:
    """A hashable key that tells apart what Python equality merges (0.0/-0.0, nan, 1/1.0/True)."""
    kind = type(value)
    if kind is int or kind is str:
        return value
    if kind is tuple:   # the tuple itself when it holds no value that needs a key
        if _PLAIN.issuperset(map(type, value)):    # (ints only, as shapes and windows are)
            return value
        keys = tuple(map(attr_key, value))
        return value if all(map(operator.is_, keys, value)) else keys
    if isinstance(value, tuple):  # a subclass (size.Size): keyed as the plain tuple
        if _PLAIN.issuperset(map(type, value)):
            return tuple(value)
        return tuple(attr_key(v) for v in value)
    if isinstance(value, float):
        if value != value:   # float.hex() spells every NaN 'nan': keep the sign apart
            return ("f", "-nan" if math.copysign(1.0, value) < 0 else "nan")
        return ("f", value.hex())
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, np.ndarray):
        return ("a", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, Dim):    # its traced value (hint) too: two traces' nodes stay apart
        return ("d", value.terms, tuple(sorted(value.hints.items())))
    return value


def attrs_key(attrs: tuple) -> tuple:
    """The intern key of a node's attribute tuple: the tuple itself when no value needs a key
    (ints, strings and tuples of them, tested first: most nodes' attributes are shapes and
    windows), else the pairs with keyed values. The key holds the node's own tuples where it
    can: fewer objects kept per node, for the garbage collector to scan."""
    for _, v in attrs:
        kind = type(v)
        if kind is not int and kind is not str and \
                (kind is not tuple or not _PLAIN.issuperset(map(type, v))):
            break
    else:
        return attrs
    keyed = tuple([(k, attr_key(v)) for k, v in attrs])
    return attrs if all(a[1] is b[1] for a, b in zip(keyed, attrs)) else keyed


# The intern table: key -> a weak reference to the node (a plain dict of _Refs rather than
# a WeakValueDictionary, whose Python-level get and set were a tenth of a large trace's time).
_INTERN: dict = {}


class _Ref(weakref.ref):
    """A weak reference to an interned node that knows its key (what ``weakref.KeyedRef`` is,
    without KeyedRef's Python-level ``__new__`` and ``__init__``: made in C, the reference
    alone 1.1 -> 0.2 us)."""

    __slots__ = ("key",)


def _forget(ref: _Ref, table: dict = _INTERN) -> None:
    """A node died: drop its entry (unless the key already names a newer node). The table is
    bound as a default: the callback may run while the interpreter tears the module down."""
    key = ref.key
    if table.get(key) is ref:
        del table[key]


class Node:
    """One typed value of the graph: ``op(*inputs)[attrs]`` with a dtype and a shape.

    Equality is identity and the hash is ``object``'s (nodes are interned): both stay in C,
    which matters in the dicts and sets of nodes every stage keeps (a Python ``__hash__`` was
    ~10% of the passes' and the lowering's time on a 22k-node graph)."""

    __slots__ = ("op", "attrs", "inputs", "dtype", "shape", "_key", "__weakref__")

    op: str
    attrs: tuple[tuple[str, object], ...]
    inputs: tuple[Node, ...]
    dtype: DType
    shape: Shape

    def __new__(cls, op: str, attrs: dict | tuple, inputs: Iterable[Node], dtype: DType,
                shape: Iterable[int]) -> Node:
        attrs_t = tuple(attrs.items()) if isinstance(attrs, dict) else tuple(attrs)
        inputs_t = tuple(inputs)
        try:
            shape_t = skey = tuple(map(int, shape))
        except NotGeneric:             # a call-time size (dims.Dim): kept, keyed with its hint
            shape_t = tuple([s if isinstance(s, Dim) else int(s) for s in shape])
            skey = tuple(map(attr_key, shape_t))
        key = (op, attrs_key(attrs_t) if attrs_t else attrs_t, inputs_t, dtype.name, skey)
        ref = _INTERN.get(key)
        if ref is not None:
            found = ref()
            if found is not None:
                return found
        return _make(cls, key, op, attrs_t, inputs_t, dtype, shape_t)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ir.Node is immutable")

    def __reduce__(self):
        return (Node, (self.op, self.attrs, self.inputs, self.dtype, self.shape))

    def attr(self, name: str, default: object = None) -> object:
        for k, v in self.attrs:
            if k == name:
                return v
        return default

    @property
    def a(self) -> dict:
        """The attributes as a dict (a fresh one: nodes stay immutable)."""
        return dict(self.attrs)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"Node({self.op}, {type_str(self)})"


# The slots' own setters (Node.__setattr__ refuses): calling them is cheaper than
# object.__setattr__, which looks the slot up by name (6 slots: 1.8 -> 1.0 us a node).
_set_op, _set_attrs, _set_inputs, _set_dtype, _set_shape, _set_key = (
    Node.__dict__[name].__set__ for name in ("op", "attrs", "inputs", "dtype", "shape", "_key"))


def _make(cls: type, key: tuple, op: str, attrs: tuple, inputs: tuple, dtype: DType,
          shape: tuple) -> Node:
    """A new node, interned under ``key`` (which it keeps: ``with_inputs`` reuses its parts)."""
    self = object.__new__(cls)
    _set_op(self, op)
    _set_attrs(self, attrs)
    _set_inputs(self, inputs)
    _set_dtype(self, dtype)
    _set_shape(self, shape)
    _set_key(self, key)
    ref = _INTERN[key] = _Ref(self, _forget)
    ref.key = key
    return self


def with_inputs(node: Node, inputs: tuple) -> Node:
    """``Node(node.op, node.attrs, inputs, node.dtype, node.shape)`` for a tuple of nodes
    ``inputs``, what every rewrite does to a node whose inputs were rewritten: the same node,
    interned by the same key, but made from ``node``'s own key (its attributes and shape need
    no keying again; measured on a loaded machine: a mul 2.4 -> 0.7 us, a reshape to a
    ``Size`` 10.6 -> 0.9 us). A shape with call-time sizes is keyed again (a ``Dim`` keys its
    hints)."""
    key = node._key
    if key[4] is not node.shape:         # (an int shape is its own key)
        return Node(node.op, node.attrs, inputs, node.dtype, node.shape)
    key = (key[0], key[1], inputs, key[3], key[4])
    ref = _INTERN.get(key)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    return _make(Node, key, node.op, node.attrs, inputs, node.dtype, node.shape)


def type_str(node: Node) -> str:
    return f"{node.dtype.short}[{','.join(map(str, node.shape))}]"


@dataclass(frozen=True, eq=False)
class Graph:
    """A function as a value: input nodes (op 'input') and output nodes.

    ``locs`` maps a node to the user's ``file.py:line`` that created it (a side table: it does
    not take part in equality or in the printed IR, only in C comments).
    """

    inputs: tuple[Node, ...]
    outputs: tuple[Node, ...]
    locs: dict = field(default_factory=dict)
    # The first ``n_guards`` outputs are ``guard`` nodes (decisions of Python control flow
    # that the compiled code checks first, ``ops.control``); the function's values follow.
    n_guards: int = 0

    @property
    def values(self) -> tuple[Node, ...]:
        """The outputs that are the function's values (the guards aside)."""
        return self.outputs[self.n_guards:]

    def nodes(self) -> list[Node]:
        """Every node the outputs depend on, inputs first, in a deterministic topological order
        (computed once: a graph is immutable; callers must not mutate the list)."""
        cached = self.__dict__.get("_nodes")
        if cached is None:
            cached = toposort(self.outputs, self.inputs)
            object.__setattr__(self, "_nodes", cached)
        return cached

    def adopt_order(self, other: Graph) -> None:
        """Take ``other``'s computed node order if both graphs have the same inputs and outputs
        (the order is a function of those alone): a rewrite that changed nothing costs no
        second topological sort."""
        cached = other.__dict__.get("_nodes")
        if cached is not None and self.inputs == other.inputs and \
                self.outputs == other.outputs and "_nodes" not in self.__dict__:
            object.__setattr__(self, "_nodes", cached)

    def with_outputs(self, outputs: Iterable[Node]) -> Graph:
        return Graph(self.inputs, tuple(outputs), self.locs, self.n_guards)


def toposort(outputs: Iterable[Node], inputs: Iterable[Node] = ()) -> list[Node]:
    """Depth-first post-order from the outputs (inputs listed first): deterministic."""
    order: list[Node] = list(inputs)
    seen = set(order)
    add, append = seen.add, order.append
    for root in outputs:
        if root in seen:
            continue
        stack = [(root, iter(root.inputs))]   # each node with the inputs it has yet to visit
        push, pop = stack.append, stack.pop
        while stack:
            node, pending = stack[-1]
            for child in pending:
                if child not in seen:
                    push((child, iter(child.inputs)))
                    break
            else:
                pop()
                if node not in seen:
                    add(node)
                    append(node)
    return order


def consumers(nodes: Iterable[Node]) -> dict[Node, list[Node]]:
    """node -> the nodes (from ``nodes``) that read it, in order."""
    users: dict[Node, list[Node]] = {}
    known = users.get
    for n in nodes:
        for i in n.inputs:      # (no empty list made per edge, as setdefault(i, []) would)
            readers = known(i)
            if readers is None:
                users[i] = [n]
            else:
                readers.append(n)
    return users
