"""Local variables of a sparse Jacobian: each gather of a variable at constant indices as a
variable of its own.

Layer: transforms (graphs, NumPy and SciPy's sparse matrices). Input: a traced graph and
which of its inputs are the variables. Output: a ``Local``: the nodes that stand for the
variables (each such gather's result, and each variable input the graph also reads
otherwise), the global column of each of their elements, and how the Jacobian with respect
to them (``J_L``) sums into the Jacobian with respect to the variables (``J``).

Why. A bundle adjustment's residuals read each camera's 11 parameters through
``cams[cam_idx]``: at ADBench's shape 3,554 rows of ``J`` share one camera's columns, so a
row coloring needs at least 3,554 colors; a column coloring needs one per column of a row
(12-14), each a forward pass over every observation. With the gathered
values as the variables, ``J = J_L S`` (chain rule; ``S`` is the gather's 0/1 selection
matrix: local element ``q`` is global column ``columns[q]``), and in ``J_L`` an
observation's rows share columns with no other observation's: 3 row colors (the two
reprojection residuals and the weight's), so 3 reverse passes, each over all observations
at once. Every coloring of ``J``'s rows is one of ``J_L``'s (rows sharing a local column
share its global one), so ``J_L``'s rows need no more colors; its columns can need more only
where one row reads one element through two gathers. The values of ``J`` are exact: each is
the sum of the ``J_L`` entries of its row whose local elements are its column (one, unless
a row reads the same element twice).

Only gathers whose indices are constants of the graph (the structural integer arguments a
sparse derivative pins, ``api.sparse``) are localized: the columns they address are known
when the pattern is made. The Hessian is not localized (``H = S^T H_L S`` also needs the
second derivatives across locals of one element).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .sparsity import addressed, constant_index


@dataclass
class Local:
    """The local variables of a graph's Jacobian."""

    nodes: list            # the local variables: gather results and variable inputs
    columns: np.ndarray    # the global column of each local element (nodes' elements in order)
    n: int                 # global columns (the variables' elements)

    def merge(self, P_L) -> tuple:
        """(``P``, the pattern of ``J``; ``into``, for each nonzero of ``P_L`` in CSR order
        the position in ``P``'s CSR order of the nonzero it adds to, None when that is its
        own position)."""
        import scipy.sparse as sp
        m = P_L.shape[0]
        rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(P_L.indptr))
        keys = rows * self.n + self.columns[P_L.indices]
        if keys.size < 2 or (keys[1:] > keys[:-1]).all():   # (a row's locals in column order)
            unique, into = keys, None
        else:
            ordered = np.sort(keys)
            first = np.ones(ordered.size, bool)
            first[1:] = ordered[1:] != ordered[:-1]
            unique = ordered[first]
            into = np.searchsorted(unique, keys)
        counts = np.bincount(unique // self.n, minlength=m)
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(P_L.indptr.dtype)
        P = sp.csr_matrix((np.ones(unique.size, bool), (unique % self.n).astype(
            P_L.indices.dtype), indptr), shape=(m, self.n))
        return P, into


def localize(graph, variables: list) -> Local | None:
    """The local variables of ``graph``'s Jacobian with respect to its inputs at positions
    ``variables``; None when no variable is gathered at constant indices."""
    starts, k = {}, 0
    for v in variables:
        starts[graph.inputs[v]] = k
        k += graph.inputs[v].size
    gathers, other = _reads(graph, starts)
    if not gathers:
        return None
    nodes, columns = [], []
    for x in (graph.inputs[v] for v in variables):
        if x in other:
            nodes.append(x)
            columns.append(starts[x] + np.arange(x.size, dtype=np.int64))
        for g, of in gathers.items():
            if of is x:
                nodes.append(g)
                columns.append(starts[x] + addressed(g.inputs[1], g.attr("axis"),
                                                     g.inputs[0].shape)[1])
    return Local(nodes, np.concatenate(columns), k)


def _reads(graph, variables) -> tuple:
    """({gather at constant indices of a variable: the variable}, {the variables read
    otherwise}). A variable's reshapes are the variable (its elements in the same order)."""
    source = {x: x for x in variables}
    gathers, other = {}, set()
    for node in graph.nodes():
        if node.op == "reshape" and node.inputs[0] in source:
            source[node] = source[node.inputs[0]]
            continue
        for j, i in enumerate(node.inputs):
            if i not in source:
                continue
            if node.op == "gather" and j == 0 and constant_index(node.inputs[1]) is not None:
                gathers[node] = source[i]
            else:
                other.add(source[i])
    other |= {source[o] for o in graph.values if o in source}
    return gathers, other
