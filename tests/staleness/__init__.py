"""A staleness fuzzer: pairs of programs that differ in exactly one dependency, run so that
reuse (the in-memory tables, warm-start records on disk) could hand one the other's result.

- ``grammar``: random expressions over symgrad ops;
- ``pair``: a pair (its programs' source, its variants' environment and data, the in-process
  change), program pieces;
- ``values``, ``context``, ``code``: the generators of each dependency kind;
- ``kinds``: the table of kinds and their modes (one process, two processes, edited on disk);
- ``runner``: the script a process runs (a batch of pairs, JSON out);
- ``harness``: a batch's processes, run and compared with runs with the cache disabled.

``test_staleness_fuzz.py`` runs a fixed-seed sample (every kind in every mode it takes);
``tests/staleness_campaign.py`` (``make fuzz``) runs long random campaigns.
"""
