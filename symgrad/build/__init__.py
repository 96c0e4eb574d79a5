"""The build: a backend's source object -> a loaded module, and the caches beside the builds.

Backend-neutral modules: ``backends`` (which backend this process uses: the one place it is
chosen), ``cache`` (the content-addressed cache: one entry point, ``get_or_build``), ``trust``
(what may be loaded), ``files`` (atomic writes), ``warm`` (warm-start records), ``cli``
(``python -m symgrad cache``). The C backend's build is ``build.c``.
"""
