"""Code generation: the loop IR -> a backend's source object, one sub-package per backend.

``c/`` is the one backend today: C99 text with OpenMP pragmas, built with cffi
(``build.c``). A backend's package holds one emitter module per kernel family
(``codegen.<backend>.<family>.emit``), its printer of scalar expressions and its output type;
what every backend must provide is the ``build.backend.Backend`` protocol.
"""
