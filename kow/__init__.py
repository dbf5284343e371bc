"""kow: Knock-Out Whist for the command line.

The library never imports Click. Its layers, bottom first (``docs/architecture.md``):
:mod:`kow.cards` (cards and their notation), :mod:`kow.rules` (the settings),
:mod:`kow.rulebook` (the rules in force as text, with their sources),
:mod:`kow.events` (seats, actions, phases, one record per kind of event),
:mod:`kow.trick` (the rules of one trick), :mod:`kow.deal` (shuffle, cut, deal),
:mod:`kow.view` (what a seat may know), :mod:`kow.engine` (the state, its legal actions
and the one trick loop), :mod:`kow.game` (the game loop), :mod:`kow.screen` (text),
:mod:`kow.players` (bots and the human prompt), :mod:`kow.log` (the JSON format),
:mod:`kow.verify` (an independent check of logs), :mod:`kow.batch` and
:mod:`kow.tournament` (runs of games), :mod:`kow.provenance` (is a log the game its seed
gives?). :mod:`kow.cli` is the command line.
"""

__version__ = "0.5.0"
