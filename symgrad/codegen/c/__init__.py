"""Code generation: the loop IR -> a C source object (the text, and what its build needs).

Modules: ``module`` (the translation unit), ``emitted`` (what emitting a kernel gives, and
the lookup of each kernel family's emitter), one module per kernel family (``statements``,
``loops`` with ``sumloop``, ``matmul``, ``index``, ``cumulative``, ``decomp`` with
``decomp_eig``, ``sorting``, ``control``, ``guard``), ``split`` (parts and translation units of
large programs), ``nest`` (the loop-nest type the templates print), ``exprs`` and ``optable``
(ops' C expressions), ``cprinter`` (SymPy -> C) and ``literals``, ``text`` (comments,
identifiers, indexing), ``templates`` (the Jinja2 environment), ``csource`` (the output type).
"""

# Only the output type here: importing it must not load the generator (Jinja2, the printer);
# the pipeline imports ``codegen.c.module.generate`` when it compiles.
from .csource import BuildNeeds, CSource  # noqa: F401
