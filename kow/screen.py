"""The text screen of a game: cards, hands and events as lines for a terminal.

Used by ``kow play`` (and by replays of a log): one look everywhere. It never imports
Click; it returns strings, styled with ANSI colour only when asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import RANK_OF, RANKS, SUIT_NAMES, SUIT_OF, SUIT_SYMBOLS, SUITS
from .engine import (
    E_GAME_END,
    E_KNOCK,
    E_LEAD,
    E_PLAY,
    E_ROUND,
    E_ROUND_END,
    E_TIE_CUT,
    E_TRICK,
    E_TRUMP,
    E_TURNED_UP,
    E_VOTE,
    KNOCK,
    Event,
    View,
)
from .rules import Rules

__all__ = ["Screen", "symbols_fit"]

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
        SUIT_SYMBOLS.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
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


@dataclass
class Screen:
    """Turn cards, hands and game events into lines of text.

    ``names[seat]`` are the players' names; ``symbols`` shows suits as ♣ ♦ ♥ ♠ (else
    letters ``c d h s``); ``color`` adds ANSI colour (red suits red, legal cards bold).
    The screen follows the game through :meth:`event` to keep the trick counts it shows.
    """

    names: Sequence[str]
    rules: Rules
    symbols: bool = True
    color: bool = False
    tricks_won: list[int] = field(default_factory=list)
    hand_size: int = 0
    round: int = 0
    trump: int | None = None
    _in_round: list[bool] = field(default_factory=list)
    _held: list[int] = field(default_factory=list)
    _dogs: tuple[int, ...] = ()

    # ------------------------------------------------------------------ pieces

    def suit(self, s: int, long: bool = False) -> str:
        """Return suit ``s`` as a symbol or letter, with its name when ``long``."""
        text = SUIT_SYMBOLS[s] if self.symbols else SUITS[s]
        if self.color and s in (1, 2):
            text = _RED + text + _RESET
        return f"{text} {SUIT_NAMES[s]}" if long else text

    def card(self, c: int) -> str:
        """Return card ``c`` for the screen: ``10♥`` (``10h`` without symbols)."""
        rank = "10" if RANK_OF[c] == 8 else RANKS[RANK_OF[c]]
        s = SUIT_OF[c]
        text = rank + (SUIT_SYMBOLS[s] if self.symbols else SUITS[s])
        if self.color and s in (1, 2):
            return _RED + text + _RESET
        return text

    def cards(self, cards: Sequence[int]) -> str:
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

    def does(self, seat: int, verb: str) -> str:
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
        return " · " if self.symbols else ", "

    def counts(self, seats: Sequence[int]) -> str:
        """Return the trick counts of ``seats`` this round: ``Ada 2 · Ben 0``."""
        return self.between.join(f"{self.names[s]} {self.tricks_won[s]}" for s in seats)

    # ------------------------------------------------------------------ hands

    def hand(self, view: View) -> str:
        """Return ``view``'s hand, sorted by suit then rank and numbered from 1.

        In the play phase the cards that may be played are marked ``*`` (and bold).
        """
        parts = []
        legal = set(view.legal) if view.phase == "play" else set()
        for i, c in enumerate(sorted_hand(view.hand), 1):
            mark = "*" if c in legal else " "
            text = f"{mark}{i} {self.card(c)}"
            if legal:
                text = self.bold(text) if c in legal else self.dim(text)
            parts.append(text)
        return "  ".join(parts)

    def table(self, view: View) -> list[str]:
        """Return the table as ``view``'s seat may see it: trump, trick counts, who is out."""
        trump = "to be chosen" if view.phase == "trump" else self.trump_text(view.trump)
        lines = [
            f"Round {view.round} of at most {self.rules.start_cards}, "
            f"{view.hand_size} card{'s' if view.hand_size != 1 else ''} each. "
            f"Trump: {trump}.",
            "Tricks this round: " + self.counts(view.in_round),
        ]
        if view.dogs_life:
            lines.append("On a dog's life: " + ", ".join(self.names[s] for s in view.dogs_life))
        if view.knocked_out:
            lines.append("Knocked out: " + ", ".join(self.names[s] for s in view.knocked_out))
        if view.trick:
            lines.append("This trick: " + self.plays(view.trick))
        return lines

    def plays(self, trick: Sequence[tuple[int, int]]) -> str:
        """Return a trick's plays so far: ``Ada K♠, Ben knocks, Cy 2♠``."""
        return ", ".join(
            f"{self.names[s]} knocks" if a == KNOCK else f"{self.names[s]} {self.card(a)}"
            for s, a in trick
        )

    def trump_text(self, trump: int | None) -> str:
        """Return the trump for a sentence: ``♥ hearts``, or ``none``."""
        return "none" if trump is None else self.suit(trump, long=True)

    # ------------------------------------------------------------------ events

    def event(self, ev: Event) -> list[str]:
        """Return the lines that announce event ``ev`` (possibly none), and follow it."""
        kind = ev[0]
        names = self.names
        if kind == E_PLAY:
            if self._held:
                self._held[ev[1]] -= 1
            return [f"  {self.does(ev[1], 'plays')} {self.card(ev[2])}"]
        if kind == E_KNOCK:
            return [f"  {self.does(ev[1], 'knocks')} (keeping the dog's-life card)"]
        if kind == E_TRICK:
            _, number, _, winner = ev
            self.tricks_won[winner] += 1
            seats = [s for s, n in enumerate(self._in_round) if n]
            lines = [
                f"  {self.bold(self.does(winner, 'wins'))} trick {number} of {self.hand_size}. "
                f"Tricks: {self.counts(seats)}"
            ]
            if winner in self._dogs and number < self.hand_size and self._held:
                # Seed 002: a dog's-life card that wins hands the lead to the player to its
                # left, the next seat clockwise that still holds cards.
                n = len(names)
                left = next(
                    (s for s in ((winner + i) % n for i in range(1, n)) if self._held[s] > 0),
                    None,
                )
                if left is not None:
                    lines.append(f"  {self.does(left, 'leads')}, on the dog's-life winner's left.")
            return lines
        if kind == E_ROUND:
            _, number, hand_size, dealer, cut_by, _, hands, dogs = ev
            self.round = number
            self.hand_size = hand_size
            self.tricks_won = [0] * len(names)
            self._in_round = [h is not None for h in hands]
            self._held = [len(h) if h is not None else 0 for h in hands]
            self._dogs = tuple(dogs)
            cards = f"{hand_size} card{'s' if hand_size != 1 else ''} each"
            lines = [
                "",
                self.bold(f"=== Round {number}: {cards} ==="),
                f"{self.does(dealer, 'deals')}; {names[cut_by]} cut the deck.",
            ]
            for s in dogs:
                lines.append(f"{self.does(s, 'plays')} this round on a dog's life, with 1 card.")
            return lines
        if kind == E_TURNED_UP:
            return [f"Turned up: {self.card(ev[1])}."]
        if kind == E_TIE_CUT:
            passes = ev[1]
            lines = []
            for i, cut_pass in enumerate(passes):
                cuts = ", ".join(f"{names[s]} {self.card(c)}" for s, c in cut_pass)
                lead = "Tie for most tricks last round; they cut" if i == 0 else "Tied again"
                lines.append(f"{lead}: {cuts}.")
            return lines
        if kind == E_VOTE:
            return [f"{self.does(ev[1], 'votes')} {self.suit(ev[2], long=True)} (knocked out)."]
        if kind == E_TRUMP:
            _, suit, method, chosen_by = ev
            self.trump = suit
            trump = self.trump_text(suit)
            if method == "turned-up":
                return [f"Trump: {trump} (the turned-up card)."]
            if method == "chosen":
                who = self.does(chosen_by, "chooses")
                return [f"{who} trump, for the most tricks last round: {trump}."]
            if method == "fixed":
                return [f"Trump stays {trump} (fixed trump)."]
            if method == "vote":
                tie = f", the tie settled by {names[chosen_by]}" if chosen_by is not None else ""
                return [f"Trump: {trump}, by the knocked-out players' vote{tie}."]
            return ["No trump in this final round."]
        if kind == E_LEAD:
            return [f"{self.does(ev[1], 'leads')}."]
        if kind == E_ROUND_END:
            _, tricks_won, eliminated, granted, revived = ev
            seats = [s for s, n in enumerate(tricks_won) if n is not None]
            lines = [
                f"Round {self.round} over. Tricks: "
                + self.between.join(f"{names[s]} {tricks_won[s]}" for s in seats)
            ]
            if revived:
                lines.append("Back in the game: " + ", ".join(names[s] for s in revived) + ".")
            if granted:
                lines.append("Dog's life for " + ", ".join(names[s] for s in granted) + ".")
            if eliminated:
                lines.append("Knocked out: " + ", ".join(names[s] for s in eliminated) + ".")
            return lines
        if kind == E_GAME_END:
            _, winner, rounds = ev
            won = f"{self.does(winner, 'wins')} the game {self.how(rounds)}."
            return ["", self.bold(f"*** {won} ***")]
        return []

    def how(self, rounds: int) -> str:
        """Return how the game was won, given the number of rounds played."""
        if self.hand_size == 1:
            return f"by taking the only trick of the last round (round {rounds})"
        if self.rules.sweep_wins:
            return f"with a sweep of round {rounds}"
        return f"as the last one left, after round {rounds}"


def sorted_hand(hand: Sequence[int]) -> list[int]:
    """Return ``hand`` sorted by suit (``c d h s``) then rank, low to high."""
    return sorted(hand)
