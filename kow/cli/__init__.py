"""The command line: the only package of kow that imports Click.

- :mod:`kow.cli.commands`: the ``kow`` group (:data:`main` is the console script) and
  one module per command: ``simulate``, ``play``, ``tournament``, ``rules``, ``schema``;
  ``verify``, ``replay``, ``export``, ``analyze`` (the commands that read logs, which
  share :mod:`kow.cli._inputs`); ``host``, ``join``, ``serve`` (online play, which share
  :mod:`kow.cli.online`);
- :mod:`kow.cli._options`: the options the commands share, and their checks;
- the plumbing: :mod:`kow.cli._files` (output files written whole, gzip, temporaries),
  :mod:`kow.cli._terminal` (terminals that cannot show ♠, when to colour, the pager,
  progress bars), :mod:`kow.cli._pipes` (closed streams, a reader of stdout that left);
- :mod:`kow.cli.session`: the sitting of ``kow play`` at the keyboard, and
  :mod:`kow.cli.human`: the person at the keyboard, a player.

It parses options, builds rules, players and seeds, calls the library and sends the output
where it belongs; it holds no game logic.
"""

from .commands import main

__all__ = ["main"]
