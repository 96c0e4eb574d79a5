"""Graph colorings that compress sparse derivatives, and where each entry is read back.

Layer: transforms (NumPy and SciPy's sparse matrices only). Input: a sparsity pattern (a
``scipy.sparse`` bool matrix). Output: a color per column (or per row, or per variable of a
symmetric pattern) and, for every structural nonzero in CSR order, the (color, position) of
the compressed product that holds its value.

- ``column_coloring(P)``: a distance-1 coloring of the column intersection graph (columns
  that share a row differ), greedy in largest-first order. ``J S`` with the 0/1 seed
  ``S[j, c] = (color[j] == c)`` holds ``J[i, j]`` at ``(i, color[j])``: one JVP per color.
  Rows (``P.T``) give the reverse-mode compression, one VJP per color.
- ``star_coloring(H)``: a star coloring of a symmetric pattern's adjacency graph (a
  distance-1 coloring in which every path on four vertices uses at least three colors),
  greedy (Gebremedhin, Manne and Pothen, "What color is your Jacobian?", SIAM Review 2005,
  Algorithm 4.1). ``H S`` then holds every ``H[i, j]`` directly, at ``(i, color[j])`` or at
  ``(j, color[i])``: one Hessian-vector product per color, fewer colors than a column
  coloring of ``H`` needs (a tridiagonal Hessian: 3 colors either way; an arrowhead: 2
  instead of n).
"""

from __future__ import annotations

import numpy as np


def n_colors(colors: np.ndarray) -> int:
    """How many colors a coloring uses (0 for no vertices)."""
    return int(colors.max()) + 1 if colors.size else 0


def _csr(P):
    import scipy.sparse as sp
    P = sp.csr_matrix(P, dtype=bool)
    P.sort_indices()
    return P


def _greedy(adjacency, order) -> np.ndarray:
    """Smallest-color-first greedy coloring of a graph given as a CSR adjacency matrix."""
    n = adjacency.shape[0]
    colors = np.full(n, -1, np.int64)
    mark = np.full(n + 1, -1, np.int64)       # mark[c] == v: color c is taken for v
    indptr, indices = adjacency.indptr, adjacency.indices
    for v in order:
        used = colors[indices[indptr[v]:indptr[v + 1]]]
        mark[used[used >= 0]] = v
        c = 0
        while mark[c] == v:
            c += 1
        colors[v] = c
    return colors


def column_coloring(P, native=None) -> np.ndarray:
    """A color per column of ``P``; columns that share a row get different colors.

    ``native``: the helper's ``color_columns`` (``build.c.native``, passed in by the api
    layer), which walks the rows of ``P`` instead of forming the column graph ``P^T P``: the
    same colors, in time linear in the graph's edges and memory linear in ``P``. Without it,
    SciPy's product and a greedy loop in Python."""
    P = _csr(P)
    if native is not None:
        return _native_coloring(P, native)
    conflicts = (P.T.astype(np.int32) @ P.astype(np.int32)).tocsr()
    conflicts.setdiag(0)
    conflicts.eliminate_zeros()
    degree = np.diff(conflicts.indptr)
    order = np.argsort(-degree, kind="stable")      # largest first
    return _greedy(conflicts, order)


def _native_coloring(P, native) -> np.ndarray:
    """``column_coloring`` by ``native``: degrees, largest first (stable), then greedy."""
    csc = P.tocsc()
    csc.sort_indices()
    arrays = [np.ascontiguousarray(a, np.int64)
              for a in (P.indptr, P.indices, csc.indptr, csc.indices)]
    n = P.shape[1]
    degree = np.empty(n, np.int64)
    native("degrees", *arrays, np.arange(n, dtype=np.int64), degree)
    colors = np.full(n, -1, np.int64)
    native("greedy", *arrays, np.argsort(-degree, kind="stable"), colors)
    return colors


def valid_column_coloring(P, colors: np.ndarray) -> bool:
    """No row of ``P`` holds two columns of one color."""
    P = _csr(P)
    for i in range(P.shape[0]):
        cs = colors[P.indices[P.indptr[i]:P.indptr[i + 1]]]
        if len(np.unique(cs)) != len(cs):
            return False
    return True


def _adjacency(H):
    """The off-diagonal structure of ``H`` made symmetric, as CSR."""
    H = _csr(H)
    A = (H + H.T).tocsr()
    A.setdiag(False)
    A.eliminate_zeros()
    A.sort_indices()
    return A


def star_coloring(H) -> np.ndarray:
    """A star coloring of the symmetric pattern ``H`` (its diagonal aside)."""
    A = _adjacency(H)
    n = A.shape[0]
    ptr, idx = A.indptr, A.indices
    colors = np.full(n, -1, np.int64)
    forbidden = np.full(n + 1, -1, np.int64)
    order = np.argsort(-np.diff(ptr), kind="stable")
    for v in order:
        for w in idx[ptr[v]:ptr[v + 1]]:
            cw = colors[w]
            if cw >= 0:
                forbidden[cw] = v
            for x in idx[ptr[w]:ptr[w + 1]]:
                cx = colors[x]
                if x == v or cx < 0:
                    continue
                if cw < 0:
                    forbidden[cx] = v
                elif _bicolored_beyond(idx, ptr, colors, x, w, cw):
                    forbidden[cx] = v
        c = 0
        while forbidden[c] == v:
            c += 1
        colors[v] = c
    return colors


def _bicolored_beyond(idx, ptr, colors, x, w, cw) -> bool:
    """Whether ``x`` has a neighbor other than ``w`` colored like ``w`` (then v-w-x-y would
    be a two-colored path if ``v`` took ``x``'s color)."""
    for y in idx[ptr[x]:ptr[x + 1]]:
        if y != w and colors[y] == cw:
            return True
    return False


def valid_star_coloring(H, colors: np.ndarray) -> bool:
    """A distance-1 coloring with no path on four vertices in two colors."""
    A = _adjacency(H)
    ptr, idx = A.indptr, A.indices
    for v in range(A.shape[0]):
        nbrs = idx[ptr[v]:ptr[v + 1]]
        if np.any(colors[nbrs] == colors[v]):
            return False
    for w in range(A.shape[0]):              # paths v - w - x - y, w and x the middle
        for x in idx[ptr[w]:ptr[w + 1]]:
            vs = [v for v in idx[ptr[w]:ptr[w + 1]] if v != x and colors[v] == colors[x]]
            ys = [y for y in idx[ptr[x]:ptr[x + 1]] if y != w and colors[y] == colors[w]]
            if vs and ys and any(v != y for v in vs for y in ys):
                return False
    return True


def column_reads(P, colors: np.ndarray) -> tuple:
    """(row, color) of ``J S`` holding each nonzero of ``P`` (CSR order)."""
    P = _csr(P)
    rows = np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
    return rows, colors[P.indices]


def star_reads(H, colors: np.ndarray) -> tuple:
    """(row, color) of ``H S`` holding each nonzero of the symmetric pattern ``H`` (CSR
    order): ``H[i, j]`` at ``(i, color[j])`` when ``j`` is the only neighbor of ``i`` with its
    color, else at ``(j, color[i])``."""
    H = _csr(H)
    A = _adjacency(H)
    n = H.shape[0]
    # how many neighbors of each vertex have each color
    counts: list = [dict() for _ in range(n)]
    for v in range(n):
        for c in colors[A.indices[A.indptr[v]:A.indptr[v + 1]]]:
            counts[v][c] = counts[v].get(c, 0) + 1
    rows = np.repeat(np.arange(n), np.diff(H.indptr))
    cols = H.indices
    at = np.where((rows == cols) | np.array([counts[i].get(colors[j], 0) == 1
                                             for i, j in zip(rows, cols)], dtype=bool),
                  rows, cols)
    return at, np.where(at == rows, colors[cols], colors[rows])
