"""Periods: where a sequence repeats itself, block for block.

Layer: ir. Input: one token per item of a sequence (equal tokens: items alike; a negative
token: an item that matches nothing). Output: ``periods``, the candidate block lengths (the
commonest distances between equal tokens; ``matching_periods``: those whose shift
matches the most tokens), and ``stretches``, the longest stretches of consecutive
blocks of one length that are equal token for token.

Two users, one search: the trace's rolling of unrolled Python loops into one loop before
reverse mode (``frontend.control.rolling``, over graph nodes) and the outlining of repeated
kernels in the loop IR (``lower.repeats``, over kernels). Each then checks its candidate blocks
exactly; tokens only say where to look.
"""

from __future__ import annotations

from collections import Counter

import numpy as np


def periods(tokens: np.ndarray, min_block: int, min_reps: int, max_period: int,
            candidates: int) -> list:
    """The candidate periods: the commonest distances between consecutive equal tokens (at
    least ``min_reps`` of each), each made a multiple at least ``min_block`` long and at most
    ``max_period``; most common first, at most ``candidates``."""
    found = []
    for gap, n in _gaps(tokens, min_block * min_reps, max_period, 1).most_common(candidates):
        if n < min_reps:
            break
        p = gap * -(-min_block // gap)
        if p <= max_period and p not in found:
            found.append(p)
    return found


def matching_periods(tokens: np.ndarray, min_block: int, max_period: int, candidates: int,
                     depth: int) -> list:
    """The candidate periods P whose shift matches the most tokens (``tokens[i] == tokens[i +
    P]``), tried among the commonest distances from each token to its next ``depth``
    occurrences (a token met k times per period is met again a period later at its k-th next
    occurrence), each made a multiple at least ``min_block`` long; best first."""
    scored = set()
    for gap, _ in _gaps(tokens, 2 * min_block, max_period, depth).most_common(4 * candidates):
        p = gap * -(-min_block // gap)
        if p <= max_period:
            match = np.count_nonzero((tokens[p:] == tokens[:-p]) & (tokens[p:] >= 0))
            scored.add((-match, p))
    return [p for _, p in sorted(scored)[:candidates]]


def _gaps(tokens: np.ndarray, least: int, max_period: int, depth: int) -> Counter:
    """How often each distance up to ``max_period`` separates an occurrence of a token from
    its next ``depth`` occurrences (nothing if fewer than ``least`` tokens are valid)."""
    counts: Counter = Counter()
    valid = np.flatnonzero(tokens >= 0)
    if len(valid) < least:
        return counts
    order = valid[np.argsort(tokens[valid], kind="stable")]
    for k in range(1, depth + 1):
        same = tokens[order[k:]] == tokens[order[:-k]]
        gaps = (order[k:] - order[:-k])[same]
        counts.update(gaps[gaps <= max_period].tolist())
    return counts


def stretches(tokens: np.ndarray, candidates: list, min_reps: int):
    """(start, blocks, period) of the stretches of at least ``min_reps`` blocks equal token
    for token, for each period of ``candidates`` in turn, longest first; none overlapping."""
    free = np.ones(len(tokens), bool)
    for period in candidates:
        while True:
            found = longest_run(tokens, free, period, min_reps)
            if found is None:
                break
            start, blocks = found
            free[start:start + blocks * period] = False
            yield start, blocks, period


def longest_run(tokens: np.ndarray, free: np.ndarray, period: int, min_reps: int):
    """(start, blocks) of the longest stretch of at least ``min_reps`` blocks of ``period``
    items, all ``free``, each block equal token for token to the next; or None."""
    n = len(tokens)
    if n < period * min_reps:
        return None
    same = (tokens[period:] == tokens[:-period]) & (tokens[period:] >= 0) \
        & free[period:] & free[:-period]
    edges = np.diff(np.concatenate(([0], same.view(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    if not len(starts):
        return None
    j = int(np.argmax(ends - starts))
    blocks = (int(ends[j] - starts[j]) + period) // period
    return (int(starts[j]), blocks) if blocks >= min_reps else None
