"""Runs of many games, and the tools that read logs.

- :mod:`kow.runs.batch`: the seeded games of a run (``kow simulate``), in one process or
  many (:mod:`kow.runs._pool`);
- :mod:`kow.runs.executors`: where a run's blocks are played, kow's own processes
  (``--jobs``) or Ray tasks (``--cluster``; Ray imported only then);
- :mod:`kow.runs.tournament`: bots against each other (``kow tournament``);
- :mod:`kow.runs.stats`: the statistics both tournaments and analysis report;
- :mod:`kow.runs.provenance`: is a log the game its seed gives (``kow verify
  --against-seed``)?
- :mod:`kow.runs.export`: a log's rows in flat tables; :mod:`kow.runs.export_loop`,
  ``kow export``'s loop;
- :mod:`kow.runs.analysis`: a logged game's decisions valued (``kow analyze``).

Nothing here imports Click or a framework; :mod:`kow.runs.executors` imports Ray only
when a run is played on it.
"""
