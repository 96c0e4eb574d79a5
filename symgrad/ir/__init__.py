"""The graph IR: interned nodes, graphs as values, control-flow applications and the walk over
a graph that applies each once, their text, the verifier and the NumPy reference interpreter
(the oracle the generated C is tested against)."""

from .graph import Graph, Loc, Node, consumers, toposort, type_str, with_inputs  # noqa: F401
from .interpret import interpret  # noqa: F401
from .text import format_graph  # noqa: F401
from .verify import VerificationError, verify  # noqa: F401
from .walk import Application, walk  # noqa: F401
