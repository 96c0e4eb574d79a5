"""The C backend's build: C99 text -> a plain shared object, loaded and called
(``codegen.backend``'s ``Backend`` and ``Module`` for C).

Modules: ``backend`` (``CBackend``: render with ``codegen.c``, build, target, capabilities),
``compiler`` (a ``CSource`` -> a loaded module through the cache: the gcc commands, one process
per translation unit), ``units`` (each unit's own file), ``adapter`` (the calling convention's
C side and layout), ``native`` (the one C extension, ``native.c``: dlopen, the call, the
process's Ctrl-C count; installed by pip or built once into the cache), ``toolchain`` (which
compiler, its facts, OpenBLAS, libmvec), ``commands`` (running the compilers, interruptibly),
``module`` (``BuiltModule``: the ``Module``; cffi's view of its functions for
``symgrad.export``), ``threads`` (the thread governor), ``errors`` (``BuildError``: a failed
command).
"""
