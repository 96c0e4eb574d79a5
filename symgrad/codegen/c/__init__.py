"""The C backend's code generation: the loop IR -> a C source object (the text, and what its
build needs). Its build is ``build.c``.

Modules: ``module`` (the translation unit), ``emitted`` (what emitting a kernel gives, and
the lookup of each kernel family's emitter), one module per kernel family (``statements``,
``loops`` with ``sumloop``, ``matmul``, ``index``, ``cumulative``, ``decomp``, ``sorting``,
``control``, ``guard``), ``split`` (parts and translation units of large programs), ``nest``
(the loop-nest type the templates print), ``exprs`` and ``optable`` (ops' C expressions),
``cprinter`` (SymPy -> C) and ``literals``, ``text`` (comments, identifiers, indexing),
``helpers`` (symgrad's C functions for what libm lacks), ``templates`` (the Jinja2
environment), ``csource`` (the output type).

How C text is written, one way for each size of thing: a block of C with a shape of its own
(the module, a function, a kernel's frame, an algorithm such as LU, Jacobi or a sort, a
helper function, the export files) is a Jinja2 template in ``templates/``, which holds layout
only: Python decides everything and passes names, C types and printed constants in. An
expression or a single line that Python composes (an index, a loop header, a ``#define``, a
pragma) is an f-string in the emitter that composes it.
"""

# Only the output type here: importing it must not load the generator (Jinja2, the printer);
# the pipeline imports ``codegen.c.module.generate`` when it compiles.
from .csource import BuildNeeds, CSource  # noqa: F401
