"""The text screen of a game: cards, hands and events as lines for a terminal.

Used by ``kow play`` (and by replays of a log): one look everywhere. It never imports
Click; it returns strings, styled with ANSI colour only when asked.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .cards import (
    RANK_OF,
    RANKS,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Suit,
    encodes_suits,
)
from .engine.view import View
from .events import (
    Deal,
    Event,
    EventVisitor,
    GameEnd,
    Knock,
    Lead,
    Phase,
    Play,
    RoundEnd,
    Seat,
    Termination,
    TieCut,
    Trick,
    TrickWon,
    TrumpSet,
    TurnedUp,
    Vote,
    WonBy,
)
from .rules import Rules

if TYPE_CHECKING:
    from .log.types import GameLog

__all__ = [
    "GLUE",
    "FinishedTrick",
    "RoundSummary",
    "Screen",
    "sorted_hand",
    "symbols_fit",
    "terminal_width",
    "visible_width",
    "wrap",
]

_WHY = {
    WonBy.ONLY_TRUMP: "trump",
    WonBy.HIGHEST_TRUMP: "highest trump",
    WonBy.ONLY_CARD: "the only card",
}
"""How :meth:`Screen.won_with` says why a trick was won, for the reasons that name no suit."""

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


def symbols_fit(encoding: str | None, environ: Mapping[str, str] | None = None) -> bool:
    """Return whether a terminal can show the suit symbols ♣ ♦ ♥ ♠.

    ``encoding`` is the output stream's; it must encode them. ``environ`` (POSIX) gives
    the locale: in the C or POSIX locale Python writes UTF-8 anyway (PEP 538, 540), but
    the terminal may not show it, so only a locale naming UTF-8 counts.

    >>> symbols_fit("utf-8", {"LANG": "C"}), symbols_fit("utf-8", {"LANG": "en_GB.UTF-8"})
    (False, True)
    >>> symbols_fit("ascii")
    False
    """
    try:
        if not encodes_suits(encoding or "ascii"):
            return False
    except LookupError:
        return False
    if environ is None:
        return True
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(var, "")
        if var == "LC_CTYPE" and value == "C.UTF-8" and "LANG" in environ:
            continue  # possibly set by Python's own C-locale coercion (PEP 538)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False


GLUE = "\u00a0"
"""Joins words that a line is never broken between (a hand's number and card, a name and
its trick count); :func:`wrap` writes it as a space."""

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def printable(text: str) -> str:
    """Return ``text`` with each character that is not printable escaped as repr writes it,
    so text from a log or a pipe can't move the cursor or retitle the terminal.

    >>> printable("Ada"), printable("a\\x1b]0;pwned\\x07b"), printable("x\\ny")
    ('Ada', 'a\\\\x1b]0;pwned\\\\x07b', 'x\\\\ny')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def strip_escapes(text: str) -> str:
    """Return ``text`` without its colour and bold escapes (for a screen without colour).

    >>> strip_escapes("\\x1b[1mAda\\x1b[0m wins")
    'Ada wins'
    """
    return _ESCAPE.sub("", text)


def visible_width(text: str) -> int:
    r"""Return the columns ``text`` takes on a terminal.

    Colour escapes take none, combining marks none, wide (East Asian) characters two.

    >>> visible_width("\x1b[1m10♥\x1b[0m"), visible_width("张伟")
    (3, 4)
    """
    width = 0
    for ch in strip_escapes(text):
        if not unicodedata.combining(ch):
            width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def wrap(line: str, width: int | None) -> list[str]:
    """Return ``line`` broken at spaces into lines of at most ``width`` columns.

    Never breaks inside a word, a card, or words joined by :data:`GLUE` (a word wider
    than ``width`` stands alone); a run of spaces where the line breaks is dropped.
    Later lines keep the line's indent plus two spaces. ``width`` None: no breaks. GLUE
    is written as a space.

    >>> wrap(f"Tricks: Ada{GLUE}2 Ben{GLUE}0 Cleo{GLUE}1", 16)
    ['Tricks: Ada 2', '  Ben 0 Cleo 1']
    """
    if width is None or visible_width(line) <= width:
        return [line.replace(GLUE, " ")]
    body = line.lstrip(" ")
    indent = line[: len(line) - len(body)]
    tokens = re.split(r"( +)", body)  # words at even places, runs of spaces between
    lines = []
    current = indent + tokens[0]
    for i in range(1, len(tokens) - 1, 2):
        gap, word = tokens[i], tokens[i + 1]
        if visible_width(current + gap + word) <= width:
            current += gap + word
        else:
            lines.append(current)
            current = indent + "  " + word
    lines.append(current)
    return [x.replace(GLUE, " ") for x in lines]


MIN_WIDTH = 20
"""The fewest columns :func:`terminal_width` gives, however narrow the terminal."""


def terminal_width() -> int:
    """Return the width in columns that a screen's lines are wrapped to (with :func:`wrap`):
    the terminal's (``COLUMNS``, else the terminal's size, else 80), at least
    :data:`MIN_WIDTH`. Used by ``kow play``, ``kow replay`` and ``kow analyze`` alike."""
    return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)


class FinishedTrick(NamedTuple):
    """The last trick finished: in ``round`` (from 1) of ``hand_size`` tricks, the
    :class:`~kow.events.Trick`, and that round's ``trump`` (None: no trump)."""

    round: int
    hand_size: int
    trick: Trick
    trump: Suit | None


class RoundSummary(NamedTuple):
    """One finished round, for the end-of-game summary of ``kow play``.

    ``round`` from 1; ``hand_size`` cards each; ``trump`` (None: no trump) set by
    ``method`` (as :class:`~kow.events.TrumpSet`) and ``chosen_by`` (a seat, or None);
    ``tricks_won[seat]`` (None for a seat not dealt in); ``eliminated``: seats knocked out;
    ``dogs_life_granted``: seats given a dog's life for the next round.
    """

    round: int
    hand_size: int
    trump: Suit | None
    method: str
    chosen_by: Seat | None
    tricks_won: tuple[int | None, ...]
    eliminated: tuple[Seat, ...]
    dogs_life_granted: tuple[Seat, ...] = ()


@dataclass
class Screen(EventVisitor):
    """Turn cards, hands and game events into lines of text.

    ``names[seat]`` are the players' names; ``symbols`` shows suits as ♣ ♦ ♥ ♠ (else
    letters ``c d h s``); ``color`` adds ANSI colour (red suits red, legal cards bold).
    The screen follows the game through :meth:`event` to keep what it shows: the trick
    counts, the current ``trick``'s plays, the ``last_trick`` finished
    (:class:`FinishedTrick`) and the finished ``rounds``
    (:class:`RoundSummary`).
    Words that belong together are joined by :data:`GLUE`; write lines through
    :func:`wrap`.
    """

    names: Sequence[str]
    rules: Rules
    symbols: bool = True
    _: KW_ONLY
    color: bool = False
    # What the screen keeps of the game, from its events: not given to __init__.
    trick_number: int = field(default=0, init=False)
    tricks_won: list[int] = field(default_factory=list, init=False)
    hand_size: int = field(default=0, init=False)
    round: int = field(default=0, init=False)
    trump: Suit | None = field(default=None, init=False)
    trick: list[Play | Knock] = field(default_factory=list, init=False)
    last_trick: FinishedTrick | None = field(default=None, init=False)
    rounds: list[RoundSummary] = field(default_factory=list, init=False)
    _trump_set: TrumpSet | None = field(default=None, init=False)
    _in_round: list[bool] = field(default_factory=list, init=False)
    _lines: list[str] = field(default_factory=list, init=False)

    # ------------------------------------------------------------------ pieces

    def suit(self, s: Suit, long: bool = False) -> str:
        """Return suit ``s`` as a symbol or letter, with its name when ``long``."""
        text = SUIT_SYMBOLS[s] if self.symbols else SUITS[s]
        if self.color and s in (1, 2):
            text = _RED + text + _RESET
        return f"{text}{GLUE}{SUIT_NAMES[s]}" if long else text

    @staticmethod
    def rank(c: Card) -> str:
        """Return the rank of card ``c`` for the screen: ``10``, ``Q``, ``7``.

        >>> Screen.rank(8), Screen.rank(10)
        ('10', 'Q')
        """
        return "10" if RANK_OF[c] == 8 else RANKS[RANK_OF[c]]

    def card(self, c: Card) -> str:
        """Return card ``c`` for the screen: ``10♥`` (``10h`` without symbols)."""
        s = SUIT_OF[c]
        text = self.rank(c) + (SUIT_SYMBOLS[s] if self.symbols else SUITS[s])
        if self.color and s in (1, 2):
            return _RED + text + _RESET
        return text

    def cards(self, cards: Sequence[Card]) -> str:
        """Return ``cards`` joined with "and": ``9♥ and K♥``."""
        names = [self.card(c) for c in cards]
        if len(names) <= 2:
            return " and ".join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]

    def bold(self, text: str) -> str:
        """Return ``text`` in bold when colour is on."""
        return _BOLD + text + _RESET if self.color else text

    def dim(self, text: str) -> str:
        """Return ``text`` dimmed when colour is on."""
        return _DIM + text + _RESET if self.color else text

    def does(self, seat: Seat, verb: str) -> str:
        """Return "NAME verb" for ``seat``, in the second person when the name is "You".

        >>> s = Screen(["You", "Ada"], Rules(players=2))
        >>> s.does(0, "plays"), s.does(1, "plays")
        ('You play', 'Ada plays')
        """
        name = self.names[seat]
        if name == "You" and verb.endswith("s"):
            verb = verb[:-1]
        return f"{name} {verb}"

    @property
    def between(self) -> str:
        """Return what separates items of a list on one line: `` · `` (``, `` in ASCII)."""
        return f"{GLUE}· " if self.symbols else ", "

    def counts(self, seats: Sequence[Seat], tricks_won: Sequence[int] | None = None) -> str:
        """Return the trick counts of ``seats`` this round: ``Ada 2 · Ben 0``.

        ``tricks_won[seat]`` gives them (default: those the screen has followed).
        """
        won = self.tricks_won if tricks_won is None else tricks_won
        return self.between.join(f"{self.names[s]}{GLUE}{won[s]}" for s in seats)

    # ------------------------------------------------------------------ hands

    def hand(self, view: View) -> str:
        """Return ``view``'s hand, sorted by suit then rank and numbered from 1.

        In the play phase the cards that may be played are marked ``*`` (and bold).
        """
        parts = []
        legal = set(view.legal) if view.phase is Phase.PLAY else set()
        for i, c in enumerate(sorted_hand(view.hand), 1):
            mark = "*" if c in legal else GLUE  # a space, never a break
            text = f"{mark}{i}{GLUE}{self.card(c)}"
            if legal:
                text = self.bold(text) if c in legal else self.dim(text)
            parts.append(text)
        return "  ".join(parts)

    def table(self, view: View) -> list[str]:
        """Return the table as ``view``'s seat may see it: trump, trick counts, who is on a
        dog's life and who is out, and the current trick's plays."""
        if view.phase is Phase.TRUMP:
            trump = "to be chosen"
        elif view.phase is Phase.VOTE:
            trump = "to be voted on"
        else:
            trump = self.trump_text(view.trump)
        lines = [
            f"Round {view.round} of at most {self.rules.start_cards}, "
            f"{view.hand_size} card{'s' if view.hand_size != 1 else ''} each. "
            f"Trump: {trump}.",
            "Tricks this round: " + self.counts(view.in_round, view.tricks_won),
        ]
        if view.dogs_life:
            lines.append("On a dog's life: " + ", ".join(self.names[s] for s in view.dogs_life))
        if view.knocked_out:
            lines.append("Knocked out: " + ", ".join(self.names[s] for s in view.knocked_out))
        if view.phase is Phase.PLAY:
            if view.trick:
                played = self.plays(view.trick)
            else:
                played = self.does(view.trick_order[0], "leads") if view.trick_order else "none"
            lines.append(f"Trick {view.trick_number} of {view.hand_size}: {played}.")
        return lines

    def plays(self, trick: Sequence[Play | Knock]) -> str:
        """Return a trick's plays so far: ``Ada K♠, Ben knocks, Cy 2♠``."""
        return ", ".join(
            f"{self.names[p.seat]}{GLUE}knocks"
            if isinstance(p, Knock)
            else f"{self.names[p.seat]}{GLUE}{self.card(p.card)}"
            for p in trick
        )

    def trump_text(self, trump: Suit | None) -> str:
        """Return the trump for a sentence: ``♥ hearts``, or ``none``."""
        return "none" if trump is None else self.suit(trump, long=True)

    # ------------------------------------------------------------------ events

    def event(self, event: Event) -> list[str]:
        """Return the lines that announce ``event`` (possibly none), and follow it."""
        self._lines = []
        event.accept(self)
        return self._lines

    def on_play(self, event: Play) -> None:
        self.trick.append(event)
        self._lines.append(f"  {self.does(event.seat, 'plays')} {self.card(event.card)}")

    def on_knock(self, event: Knock) -> None:
        self.trick.append(event)
        self._lines.append(f"  {self.does(event.seat, 'knocks')} (keeping the dog's-life card)")

    def on_trick_won(self, event: TrickWon) -> None:
        winner = event.winner
        self.tricks_won[winner] += 1
        self.trick_number = event.number
        trick = Trick(
            number=event.number, leader=event.leader, plays=tuple(self.trick), winner=winner,
            card=event.card, led=event.led, why=event.why,
        )  # fmt: skip
        self.last_trick = FinishedTrick(self.round, self.hand_size, trick, self.trump)
        self.trick = []
        seats = [s for s, dealt in enumerate(self._in_round) if dealt]
        self._lines.append(f"  {self.won_with(trick)}. Tricks: {self.counts(seats)}")
        if event.next_leader is not None and event.next_leader != winner:
            self._lines.append(
                f"  {self.does(event.next_leader, 'leads')}, on the dog's-life winner's left."
            )

    def won_with(self, trick: Trick, hand_size: int | None = None) -> str:
        """Return who won ``trick``, with which card and why: ``Ben wins trick 3 of 7 with
        5♠ (trump)``. ``hand_size``: the tricks of its round (default: the round the
        screen follows).

        Why, as the trick says (:class:`~kow.events.WonBy`): ``trump`` (the only trump,
        on another led suit), ``highest trump``, ``highest spade`` (of the led suit, others
        followed), ``nobody else played spades`` (the led suit, nor trumped: a trump led
        too), or ``the only card`` (the others knocked).
        """
        hand_size = self.hand_size if hand_size is None else hand_size
        size = f" of {hand_size}" if hand_size else ""
        won = f"{self.bold(self.does(trick.winner, 'wins'))} trick {trick.number}{size}"
        why = trick.why
        if why is WonBy.HIGHEST_OF_LED:
            reason = f"highest {SUIT_NAMES[trick.led][:-1]}"
        elif why is WonBy.ONLY_OF_LED:
            reason = f"nobody else played {SUIT_NAMES[trick.led]}"
        else:
            reason = _WHY[why]
        return f"{won} with {self.card(trick.card)} ({reason})"

    @staticmethod
    def within(name: str) -> str:
        """Return ``name`` as it reads inside a sentence: the one person at the keyboard,
        ``You``, is ``you`` there.

        >>> Screen.within("You"), Screen.within("Ada")
        ('you', 'Ada')
        """
        return "you" if name == "You" else name

    def they(self, seats: Sequence[Seat], singular: str, plural: str) -> str:
        """Return "NAMES verb" for ``seats``, the verb agreeing: ``Ada is``, ``Ada and
        you are``, ``You are``.

        >>> Screen(["You", "Ada"], Rules(players=2)).they([1, 0], "is", "are")
        'Ada and you are'
        """
        names = [self.names[s] for s in seats]
        names = names[:1] + [self.within(n) for n in names[1:]]
        if len(names) == 1:
            return f"{names[0]} {plural if names[0] == 'You' else singular}"
        return f"{', '.join(names[:-1])} and {names[-1]} {plural}"

    def on_deal(self, event: Deal) -> None:
        names = self.names
        self.round = event.round
        self.hand_size = event.hand_size
        self.tricks_won = [0] * len(names)
        self.trick = []
        self.trick_number = 0
        self._trump_set = None
        self._in_round = [h is not None for h in event.hands]
        cards = f"{event.hand_size} card{'s' if event.hand_size != 1 else ''} each"
        self._lines += [
            "",
            self.bold(f"=== Round {event.round}: {cards} ==="),
            f"{self.does(event.dealer, 'deals')}; {names[event.cut_by]} cut the deck.",
        ]
        for s in event.dogs_life:
            self._lines.append(f"{self.does(s, 'plays')} this round on a dog's life, with 1 card.")

    def on_turned_up(self, event: TurnedUp) -> None:
        self._lines.append(f"Turned up: {self.card(event.card)}.")

    def on_tie_cut(self, event: TieCut) -> None:
        for i, cut_pass in enumerate(event.passes):
            cuts = ", ".join(f"{self.names[c.seat]} {self.card(c.card)}" for c in cut_pass)
            lead = "Tie for most tricks last round; they cut" if i == 0 else "Tied again"
            self._lines.append(f"{lead}: {cuts}.")

    def on_vote(self, event: Vote) -> None:
        self._lines.append(
            f"{self.does(event.seat, 'votes')} {self.suit(event.suit, long=True)} (knocked out)."
        )

    def on_trump_set(self, event: TrumpSet) -> None:
        self.trump = event.suit
        self._trump_set = event
        trump = self.trump_text(event.suit)
        chosen_by = event.chosen_by
        if event.method == "turned-up":
            line = f"Trump: {trump} (the turned-up card)."
        elif event.method == "chosen" and chosen_by is not None:
            line = (
                f"{self.does(chosen_by, 'chooses')} trump, for the most tricks last round: {trump}."
            )
        elif event.method == "fixed":
            line = f"Trump stays {trump} (fixed trump)."
        elif event.method == "vote":
            tie = f", the tie settled by {self.names[chosen_by]}" if chosen_by is not None else ""
            line = f"Trump: {trump}, by the knocked-out players' vote{tie}."
        else:
            line = "No trump in this final round."
        self._lines.append(line)

    def on_lead(self, event: Lead) -> None:
        self._lines.append(f"{self.does(event.seat, 'leads')}.")

    def on_round_end(self, event: RoundEnd) -> None:
        names = self.names
        tricks_won = event.tricks_won
        seats = [s for s, n in enumerate(tricks_won) if n is not None]
        self._lines.append(
            f"Round {self.round} over. Tricks: "
            + self.between.join(f"{names[s]}{GLUE}{tricks_won[s]}" for s in seats)
        )
        if event.revived:
            self._lines.append(self.they(event.revived, "is", "are") + " back in the game.")
        if event.dogs_life_granted:
            self._lines.append(
                self.they(event.dogs_life_granted, "gets", "get")
                + " a dog's life: one card next round."
            )
        if event.eliminated:
            self._lines.append(self.they(event.eliminated, "is", "are") + " knocked out.")
        trump_set = self._trump_set
        self.rounds.append(
            RoundSummary(
                self.round,
                self.hand_size,
                self.trump if trump_set is not None else None,
                str(trump_set.method) if trump_set is not None else "none",
                trump_set.chosen_by if trump_set is not None else None,
                tuple(tricks_won),
                tuple(event.eliminated),
                tuple(event.dogs_life_granted),
            )
        )

    def summary(self) -> list[str]:
        """Return the finished rounds, one line each: trump and who named it, the tricks
        each player took, who was knocked out."""
        how = {"turned-up": "turned up", "fixed": "fixed", "vote": "voted"}
        lines = [self.bold("The game, round by round:")]
        for r in self.rounds:
            if r.trump is None:
                trump = "no trump"
            else:
                by = how.get(r.method, r.method)
                if r.method == "chosen" and r.chosen_by is not None:
                    by = f"named by {self.within(self.names[r.chosen_by])}"
                trump = f"trump {self.suit(r.trump)} ({by})"
            seats = [s for s, n in enumerate(r.tricks_won) if n is not None]
            line = f"  {r.round}. {r.hand_size} card{'s' if r.hand_size != 1 else ''}, {trump}. "
            line += "Tricks: " + self.between.join(
                f"{self.names[s]}{GLUE}{r.tricks_won[s]}" for s in seats
            )
            if r.dogs_life_granted:
                line += ". Dog's life: " + ", ".join(self.names[s] for s in r.dogs_life_granted)
            if r.eliminated:
                line += ". Out: " + ", ".join(self.names[s] for s in r.eliminated)
            lines.append(line + ".")
        return lines

    def on_game_end(self, event: GameEnd) -> None:
        outcome = event.outcome
        how = _HOW[outcome.termination].format(outcome.rounds_played)
        won = f"{self.does(outcome.winner, 'wins')} the game {how}"
        self._lines += ["", self.bold(f"*** {won}. ***")]

    # ------------------------------------------------------------------ replays

    def narrate(
        self,
        game: GameLog,
        events: Iterable[Event],
        title: str,
        *,
        round: int | None = None,
        width: int | None = None,
    ) -> list[str]:
        """Return the lines that tell a logged game, as ``kow play`` shows it, with every hand.

        ``game`` is the log (for its seed and players); ``events`` its events (from
        :func:`kow.log.replay`); ``title`` the first line; ``round``: tell that round only;
        ``width``: the columns the lines are wrapped to, as :func:`wrap` does (None: none).
        """
        names = self.names
        seats = (f"{p['seat']}{GLUE}{p['name']}{GLUE}({p['kind']})" for p in game["players"])
        lines = [self.bold(title), "Seats, clockwise: " + ", ".join(seats)]
        pad = max(len(n) for n in names)
        showing = round is None
        for event in events:
            if isinstance(event, Deal):
                showing = round is None or event.round == round
            shown = self.event(event)
            if not showing:
                continue
            lines += shown
            if isinstance(event, Deal):
                for seat, hand in enumerate(event.hands):
                    if hand is not None:
                        cards = "  ".join(self.card(c) for c in sorted_hand(hand))
                        lines.append(f"  {names[seat]:<{pad}}  {cards}")
        if game.get("abandoned"):
            lines.append("The game was abandoned here.")
        return [part for line in lines for part in wrap(line, width)]


_HOW = {
    Termination.FINAL_TRICK: "by taking the only trick of the last round (round {})",
    Termination.SWEEP: "with a sweep of round {}",
    Termination.LAST_STANDING: "as the last one left, after round {}",
}
"""How a game was won, by its termination; ``{}`` is the last round's number."""


def sorted_hand(hand: Sequence[Card]) -> list[Card]:
    """Return ``hand`` sorted by suit (``c d h s``) then rank, low to high."""
    return sorted(hand)
