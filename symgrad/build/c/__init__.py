"""The C backend's build: C99 text -> a cffi extension module, loaded (``codegen.backend``'s
``Backend`` and ``Module`` for C). The only code in symgrad that speaks cffi.

Modules: ``backend`` (``CBackend``: render with ``codegen.c``, build, target, capabilities),
``compiler`` (a ``CSource`` -> a loaded module through the cache: the gcc commands, the cffi
wrapper, the link), ``toolchain`` (which compiler, its facts, OpenBLAS, libmvec), ``commands``
(running the compilers, interruptibly), ``module`` (``BuiltModule``: the ``Module`` over
cffi), ``interrupt`` (the process's Ctrl-C helper module), ``threads`` (the thread governor).
"""
