"""The torch-named functions on tensors (``torch.*`` and ``Tensor`` methods), built by applying
primitives: ``basic`` (elementwise, reductions and composites), ``matmul``, ``pointwise``,
``complexes``, ``creation``, ``shapes``, ``strided`` (strides and memory formats),
``manipulation``, ``indexing``, ``inplace``, ``products``, ``linalg_products``,
``contraction``, ``norms``, ``decompositions``, ``statistics``, ``searching``, ``sorting``,
``scans``, ``assorted``, ``printing``; ``keywords`` (torch's keyword spellings) and
``methods`` (binds them to ``Tensor``).
"""
