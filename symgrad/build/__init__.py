"""The build: the C toolchain, the compiler driver and the content-addressed cache.

Modules: ``toolchain`` (which compiler, its facts), ``compiler`` (a CSource -> a loaded module),
``cache`` (one entry point, ``get_or_build``), ``trust`` (what may be loaded), ``files`` (atomic
writes), ``cli`` (``python -m symgrad cache``).
"""
