"""kow: Knock-Out Whist for the command line.

The library never imports Click: :mod:`kow.cards` (notation), :mod:`kow.rules` (settings),
:mod:`kow.engine` (state and legal actions), :mod:`kow.players` (bots), :mod:`kow.game`
(the game loop) and :mod:`kow.log` (the JSON format). :mod:`kow.cli` is the command line.
"""

__version__ = "0.2.0"
