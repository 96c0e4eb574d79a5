"""The op sweep: every public name symgrad shares with torch, on generated samples, compared
with torch (modelled on torch's OpInfo).

- ``spec``: the sample language (tensor specs, samples, their patterns, their data);
- ``samples_*``: the sample generators per op family; ``registry``: every op's samples, with
  the Tensor methods, in-place forms and operators derived from the functions';
- ``runner``: one sample on one library -> a record; ``compare``: two records -> the aspects
  that differ; ``known_differences``: what torch leaves undefined, and symgrad's open list;
- ``suite``: which samples run against which oracle; ``store.py`` writes torch's records
  (``expected.json.gz``); ``report.py`` prints the counts; ``test_sweep``: the tests.
"""
