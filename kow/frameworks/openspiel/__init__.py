"""Knock-Out Whist as an OpenSpiel game: ``python_knock_out_whist``, driven by kow's engine.

``import kow.frameworks.openspiel`` registers the game with ``pyspiel`` (install the extra:
``pip install '.[openspiel]'`` in kow's folder); then
``pyspiel.load_game("python_knock_out_whist")`` loads it, with every field of
:class:`~kow.rules.Rules` as a game parameter of the same name and default (``players``
4, ``start_cards`` 7, ``dogs_life`` ``"off"``, ``trump`` ``"winner-chooses"``,
``final_round_trump`` true, ``lead`` ``"most-tricks"``, ``eliminated_vote`` false,
``sweep_wins`` true; docs/rules.md gives each one's source).
A value the rules do not allow raises :class:`~kow.rules.RulesError`, naming the
parameter and what is allowed. A preset is ``kow.log.rules_to_log(Rules(**PRESETS[name]))`` given as
the parameters: there is no ``preset`` parameter, since OpenSpiel hands a Python game
every parameter with its default filled in, so a preset could not tell which settings
were given to override it.

The adapter decides nothing that the rules decide: each state holds a kow
:class:`~kow.engine.State` (:attr:`KnockOutWhistState.engine`) that says who acts, what
is legal, who wins each trick, when a round ends and who is knocked out; the adapter
feeds it the actions and the cards, and reads it.

- **Chance nodes.** The first is the first dealer: ``players`` outcomes 0..players-1,
  equally likely. Then every card the engine draws is one chance node, in the order
  drawn: a deal's cards one at a time clockwise from the dealer's left, round 1's
  turned-up card last; each tie-cut pass's cards in cut order (rules text, 'Mise en
  place et Distribution' 1-5). The outcomes are the cards 0..51 not yet drawn in that
  deal or pass, equally likely (a new pass cuts a fresh deck). So a state after the
  action that ends a round (or a vote that calls a tie cut) is a chance node until the
  cards it needs are drawn.
- **The cut is not a chance node.** Every deal is a uniform shuffle, so where the deck is
  cut does not change which cards are dealt (docs/rules.md, '5. Shuffle, cut and deal');
  the deck is cut at 26 every round, and the logs of these games record position 26.
- **Actions** are :mod:`kow.frameworks.encoding`'s ids: a card 0..51, a knock 52, a suit 53..56
  (``c d h s``) to choose trump or vote; 57 distinct. Chance outcomes print as
  ``"dealer 2"``, ``"deal Th"`` or ``"cut Th"``.
- **Strings and tensors** are :mod:`kow.frameworks.encoding`'s: the information state is
  :func:`~kow.frameworks.encoding.information_state_text` of the engine's events and
  :func:`~kow.frameworks.encoding.information_state` (perfect recall); the observation is
  :func:`~kow.frameworks.encoding.observation_text` and
  :func:`~kow.frameworks.encoding.observation` of the seat's
  :class:`~kow.engine.view.View`. Each holds what that seat may know and no hidden card.
  The observer's ``dict`` names the fields of
  :func:`~kow.frameworks.encoding.observation_fields` and
  :func:`~kow.frameworks.encoding.information_state_fields` (``trick`` shaped
  ``(players, 53)``, ``tricks`` ``(start_cards, players, 53)``, ``trick_leaders`` ``(start_cards,
  players)``; the rest flat). Before round 1 is dealt, the strings say so and the tensors
  are zeros but for the seat.
- **Returns** are terminal: 1.0 for the winner, 0.0 for every other seat (constant sum 1).
- :meth:`KnockOutWhistState.resample_from_infostate` deals the hidden cards again
  (counts and voids honoured), so OpenSpiel's Python IS-MCTS runs on the game
  (:func:`resampler` makes its searches reproducible);
  :meth:`KnockOutWhistState.log` gives the game's kow log (version 1), which ``kow
  verify``, ``kow replay`` and ``kow analyze`` read; :class:`KowBot` lets kow's bots play
  in OpenSpiel.

Seats are 0-based and clockwise. This package imports ``pyspiel`` and ``numpy``; nothing
else of kow imports it. The game (``_game.py``), its states (``_state.py``), their chance
nodes (``_chance.py``), the observer (``_observer.py``) and the bots (``_bots.py``) each
have a module of their own.
"""

try:
    import numpy  # noqa: F401 - the observer's: both are checked here, before any part loads
    import pyspiel
except ImportError as err:  # the extra is not installed
    raise ImportError(
        "kow.frameworks.openspiel needs OpenSpiel: pip install '.[openspiel]' in kow's folder"
        f" ({err})"
    ) from err

from ._bots import KowBot, resampler
from ._chance import CUT_POSITION
from ._game import GAME_NAME, GAME_TYPE, KnockOutWhistGame, max_game_length
from ._observer import KnockOutWhistObserver
from ._state import KnockOutWhistState

__all__ = [
    "CUT_POSITION",
    "GAME_NAME",
    "GAME_TYPE",
    "KnockOutWhistGame",
    "KnockOutWhistObserver",
    "KnockOutWhistState",
    "KowBot",
    "max_game_length",
    "resampler",
]

if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, KnockOutWhistGame)
