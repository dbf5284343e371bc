"""Runs of many games, and the tools that read logs.

- :mod:`kow.runs.batch`: the seeded games of a run (``kow simulate``), in one process or
  many (:mod:`kow.runs._pool`);
- :mod:`kow.runs.tournament`: bots against each other (``kow tournament``);
- :mod:`kow.runs.stats`: the statistics both tournaments and analysis report;
- :mod:`kow.runs.provenance`: is a log the game its seed gives (``kow verify
  --against-seed``)?
- :mod:`kow.runs.export`: a log's rows in flat tables (``kow export``);
- :mod:`kow.runs.analysis`: a logged game's decisions valued (``kow analyze``).

Nothing here imports Click or a framework.
"""
