"""Transforms of functions on tensors: ``vmap``, ``jvp``, ``vjp``, Jacobians, Hessians.

Layer: transforms, above the front end (they run on its tensors, eager or traced, and record
its autograd tape) and below tracing and the API, which compiles them. Modules: ``batching``
(replaying a per-example graph on a batch), ``vmap``, ``forward`` (jvp by transposing the VJP,
vjp), ``jacobians`` (jacrev, jacfwd, jacobian, hessian, hvp).
"""
