"""Card models of the other players: how likely each legal card is, given a seat's hand.

The search bot weighs the deals it samples by how well models of the other players
explain what they played this round (policy-based inference, as in the bridge and skat
programs of Rebstock et al. 2019 and Solinas et al. 2019; see docs/bots.md). Three
models are mixed for each seat (:mod:`kow.players.inference`):

- ``heuristic``: the ``heuristic`` bot's card (:func:`~kow.players.policy.heuristic_card`)
  with probability ``1 - NOISE``, and every legal action ``NOISE / n`` more;
- ``searcher``: a table fitted on the decisions of kow's ``ismcts`` bot, a strong searcher
  that plays unlike the heuristic (it cashes its aces when it needs a trick): each legal
  card gets the weight of its *class* in the decision's *context*, and the chance of a
  card is its weight over the sum of the legal cards' weights (a conditional logit over
  classes, fitted by ``benchmarks/fit_models.py``);
- ``uniform``: every legal action alike.

A context says where the seat stands (leading, following with someone to come, or last
to play; whether it still needs a trick this round; following, whether it is void in the
led suit); a class says what the card is (a trump or not; following, whether it wins the
trick as it stands; whether any unseen card of its suit beats it; whether it is a queen or
higher; and whether it is the lowest, the highest or between among the legal cards of its
suit); a knock is a class of its own. The table ships in the package
(``kow/players/searcher.json``) and its file says how it was fitted.
"""

from __future__ import annotations

import json
from importlib import resources

from ..cards import BIT, FULL_DECK, SUIT_MASK, SUIT_OF
from ..engine.trick import BEATEN_BY
from ..engine.view import TrickFacts
from ..events import KNOCK, Action
from .policy import heuristic_card

__all__ = [
    "CLASSES",
    "CONTEXTS",
    "KNOCK_CLASS",
    "NOISE",
    "TABLE_FILE",
    "card_class",
    "context",
    "heuristic_chance",
    "load_table",
    "read_table",
    "searcher_card",
    "searcher_chance",
    "table_chance",
]

CONTEXTS = (
    "lead, needs a trick", "lead, has a trick",
    "follow, needs a trick, holds the led suit", "follow, needs a trick, void",
    "follow, has a trick, holds the led suit", "follow, has a trick, void",
    "last, needs a trick, holds the led suit", "last, needs a trick, void",
    "last, has a trick, holds the led suit", "last, has a trick, void",
)  # fmt: skip
"""The names of the contexts, by index (see :func:`context`)."""


def _class_names() -> tuple[str, ...]:
    names = []
    for trump in ("side", "trump"):
        for winner in ("", " winner"):
            for boss in ("", " boss"):
                for high in ("", " high"):
                    for place in ("lowest", "highest", "middle"):
                        names.append(f"{trump}{winner}{boss}{high} {place}")
    return (*names, "knock")


CLASSES = _class_names()
"""The names of the classes, by index (see :func:`card_class`): 48 of cards, then knock."""
KNOCK_CLASS = len(CLASSES) - 1
"""The class of a knock."""
NOISE = 0.05
"""The ``heuristic`` model's chance of an action other than the heuristic bot's, spread
evenly over the legal actions."""
TABLE_FILE = "searcher.json"
"""The file of the ``searcher`` model's table, in this package."""

_ABOVE = tuple(SUIT_MASK[SUIT_OF[c]] & ~((BIT[c] << 1) - 1) for c in range(52))
"""``_ABOVE[card]``: the cards of its suit above it."""


def context(facts: TrickFacts) -> int:
    """Return the index in :data:`CONTEXTS` of the decision ``facts`` (hand filled in)."""
    need = facts.won == 0
    if facts.winning < 0:
        return 0 if need else 1
    void = not facts.legal & SUIT_MASK[facts.led]
    return (2 if facts.to_come else 6) + (0 if need else 2) + (1 if void else 0)


def card_class(facts: TrickFacts, card: int) -> int:
    """Return the index in :data:`CLASSES` of playing ``card`` (legal) in ``facts``."""
    trump = facts.trump
    suit = SUIT_OF[card]
    bit = BIT[card]
    unseen = FULL_DECK ^ (facts.seen | facts.hand)
    is_trump = 1 if suit == trump else 0
    winner = 1 if facts.winning >= 0 and bit & BEATEN_BY[trump][facts.winning] else 0
    boss = 0 if unseen & _ABOVE[card] else 1
    high = 1 if card % 13 >= 10 else 0
    mine = facts.legal & SUIT_MASK[suit]
    if not mine & (bit - 1):
        place = 0  # the lowest (a single card of its suit too)
    elif not mine & _ABOVE[card]:
        place = 1
    else:
        place = 2
    return (((is_trump * 2 + winner) * 2 + boss) * 2 + high) * 3 + place


def table_chance(table: list[list[float]], facts: TrickFacts, action: Action) -> float:
    """Return the chance (0..1) that the table model plays ``action`` in ``facts``.

    ``table[context][class]``: the weights (see :func:`context`, :func:`card_class`).
    ``facts`` has the hand filled in; ``action`` is a legal card or :data:`KNOCK`.
    """
    weights = table[context(facts)]
    total = weights[KNOCK_CLASS] if facts.may_knock else 0.0
    chosen = weights[KNOCK_CLASS] if action == KNOCK else 0.0
    m = facts.legal
    while m:
        low = m & -m
        card = low.bit_length() - 1
        w = weights[card_class(facts, card)]
        total += w
        if card == action:
            chosen = w
        m ^= low
    return chosen / total if total > 0.0 else 0.0


def heuristic_chance(facts: TrickFacts, action: Action) -> float:
    """Return the chance (0..1) that the ``heuristic`` model plays ``action`` in ``facts``.

    :data:`NOISE` spread over the legal actions, and the rest on the heuristic bot's.
    """
    n = facts.legal.bit_count() + (1 if facts.may_knock else 0)
    base = NOISE / n
    return base + (1.0 - NOISE) if heuristic_card(facts) == action else base


def load_table(name: str = TABLE_FILE) -> list[list[float]]:
    """Return the weights ``[context][class]`` of the table file ``name`` of this package.

    Raises :class:`ValueError` as :func:`read_table` does.
    """
    text = resources.files("kow.players").joinpath(name).read_text(encoding="utf-8")
    return read_table(text, name=name)


def read_table(text: str, *, name: str) -> list[list[float]]:
    """Return the weights ``[context][class]`` of a table file's ``text`` (JSON).

    Raises :class:`ValueError`, naming the file ``name``, if it is not JSON, or does not
    list this kow's :data:`CONTEXTS` and :data:`CLASSES`, or does not give one positive
    finite weight for each class in each context.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{name}: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{name}: not a JSON object")
    if data.get("contexts") != list(CONTEXTS) or data.get("classes") != list(CLASSES):
        raise ValueError(f"{name}: its contexts or classes are not this kow's")
    rows = data.get("weights")
    if not isinstance(rows, list) or len(rows) != len(CONTEXTS):
        raise ValueError(f"{name}: weights must be {len(CONTEXTS)} rows, one per context")
    table: list[list[float]] = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(CLASSES):
            raise ValueError(f"{name}: weights row {i} must have {len(CLASSES)} numbers")
        for j, w in enumerate(row):
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 < w < 1e9:
                raise ValueError(f"{name}: weight [{i}][{j}] is {w!r}, not a positive number")
        table.append([float(w) for w in row])
    return table


SEARCHER: list[list[float]] = load_table()
"""The ``searcher`` model's table, fitted on kow's ``ismcts`` bot (``searcher.json``)."""


def searcher_chance(facts: TrickFacts, action: Action) -> float:
    """Return the chance (0..1) that the ``searcher`` model plays ``action`` in ``facts``."""
    return table_chance(SEARCHER, facts, action)


def searcher_card(facts: TrickFacts) -> Action:
    """Return the ``searcher`` model's likeliest action in ``facts`` (a :data:`Policy`).

    The legal card (or :data:`KNOCK`) of the greatest weight; a tie goes to the knock,
    then to the lower card. A single legal card is played at once.
    """
    legal = facts.legal
    may_knock = facts.may_knock
    if not may_knock and not legal & (legal - 1):
        return legal.bit_length() - 1
    weights = SEARCHER[context(facts)]
    best: Action = KNOCK
    top = weights[KNOCK_CLASS] if may_knock else -1.0
    m = legal
    while m:
        low = m & -m
        card = low.bit_length() - 1
        w = weights[card_class(facts, card)]
        if w > top:
            top = w
            best = card
        m ^= low
    return best
