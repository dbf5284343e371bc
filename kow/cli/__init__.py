"""The command line: the only package of kow that imports Click.

- :mod:`kow.cli.commands`: ``kow`` and its commands that play (``simulate``, ``play``,
  ``tournament``, ``rules``, ``schema``); :data:`main` is the console script;
- :mod:`kow.cli._logs`: the commands that read logs (``verify``, ``replay``, ``export``,
  ``analyze``);
- :mod:`kow.cli._options`: the options the commands share, and their checks;
- :mod:`kow.cli._io`: files written whole, signals, progress, broken pipes, terminals that
  cannot show ♠, when to colour;
- :mod:`kow.cli.session`: the sitting of ``kow play`` at the keyboard, and
  :mod:`kow.cli.human`: the person at the keyboard, a player.

It parses options, builds rules, players and seeds, calls the library and sends the output
where it belongs; it holds no game logic.
"""

from .commands import main

__all__ = ["main"]
