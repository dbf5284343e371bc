"""A person at the keyboard: the prompt for ``kow play``.

Reads one line per entry. A card may be written any common way (``Th``, ``10h``, ``h10``,
``10 h``, ``10♥``, ``queen of spades``) or by its number in the shown hand; a suit by letter,
name, symbol or number. A number is read by :func:`kow.entries.parse_number` (the digits
0-9 only), and an entry longer than :data:`kow.entries.MAX_ENTRY` is refused. Commands
(:data:`COMMANDS`): ``hand``, ``table``, ``last``, ``played``, ``hint``, ``auto``, ``knock``,
``rules``, ``help`` (or ``?``), ``quit``; ``quit`` at every prompt. Every bad entry gets
exactly one line saying why, and the prompt again. A forced move (a single legal card) plays
itself, with a line saying so, while ``auto`` is on (``kow play --auto-forced`` starts it on).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..cards import (
    CARD_FORMS,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    Suit,
    card_name,
    parse_card,
    parse_suit,
)
from ..engine.view import View
from ..entries import EntryError, check_entry, is_number, parse_number, shown
from ..events import HUMAN, KNOCK, Action, Phase, Play
from ..players.base import Player
from ..players.sampling import voids
from ..screen import GLUE, Screen, sorted_hand

if TYPE_CHECKING:
    from ..events import Knock

__all__ = ["HotSeat", "HumanPlayer", "Quit"]

COMMANDS = (
    ("hand", "your hand again"),
    ("table", "the trick so far, the trump, tricks won, who is out"),
    ("last", "the last trick finished this round, and why it was won"),
    ("played", "the cards played this round, by suit, and who is known void in a suit"),
    ("hint", "the search bot's suggestion, with your chance of a trick"),
    ("auto", "forced moves (a single legal card) play themselves, or not: on/off"),
    ("knock", "on a dog's life: pass this trick and keep your card"),
    ("rules", "the rules of this game, each with its source"),
    ("help", "this list (also ?)"),
    ("quit", "leave the game (--log keeps the game so far)"),
)
"""The commands every prompt takes, with what each does (``knock`` at a card prompt)."""

CARD_HELP = (
    "Type a card, or its number in your hand. A card may be written",
    *(f"  {form}" for form in CARD_FORMS),
)
HINTS_OFF = "No hints at this table: its host turned them off."
"""What ``hint`` answers where the host turned hints off."""
SUIT_HELP = ("Type a suit: c, d, h or s, its name (hearts), its symbol (\u2665) or its number.",)


def help_lines(first: Sequence[str], symbols: bool = True) -> list[str]:
    """Return the help shown at a prompt: ``first`` (how to answer it), then the commands.

    Without ``symbols``, suit symbols read as letters, and an example that then repeats
    another is shown once.
    """
    width = max(len(name) for name, _ in COMMANDS)
    lines = list(first)
    if not symbols:
        lines = [_as_letters(line) for line in lines]
    return [*lines, "Commands:"] + [f"  {name:<{width}}  {what}" for name, what in COMMANDS]


def _as_letters(line: str) -> str:
    """Return ``line`` with suit symbols as letters, examples (``, ``-separated) once each.

    >>> _as_letters("  suits: c d h s, \u2663 \u2666 \u2665 \u2660, or clubs")
    '  suits: c d h s, or clubs'
    """
    for symbol, letter in zip(SUIT_SYMBOLS, SUITS, strict=True):
        line = line.replace(symbol, letter)
    head, sep, rest = line.rpartition(": ")
    items = list(dict.fromkeys((rest if sep else line).split(", ")))
    return head + sep + ", ".join(items)


class Quit(Exception):
    """Raised when the person at the keyboard quits (``quit``, or end of input)."""


class HotSeat:
    """Shared by the people of one game, to keep each hand private and tell what was missed.

    ``clear()`` hides the screen (and its scrollback) from the next person; ``transcript``
    holds the lines that told the game so far (public: plays, tricks, rounds). Before a
    person's turn, unless that person acted last, the game waits for Enter ("pass the
    keyboard to NAME"), having first cleared any hand on screen; then clears again and
    shows the lines that person missed since their last turn (from the start, for the
    first). ``last`` is who acted last, ``seen[name]`` how many transcript lines that
    person has seen.
    """

    def __init__(self, clear: Callable[[], None], transcript: list[str] | None = None) -> None:
        self.clear = clear
        self.transcript: list[str] = [] if transcript is None else transcript
        self.last: str | None = None
        self.seen: dict[str, int] = {}


class HumanPlayer(Player):
    """A person choosing actions by typing lines.

    ``read(prompt)`` returns one line (without newline) or raises :class:`EOFError`;
    ``write(text)`` shows a line. ``screen`` draws cards and hands. ``hot_seat`` is given
    when several people share the keyboard. ``hint_rng`` and ``hint_iterations`` drive
    the ``hint`` command: the search bot's choice from this player's view alone (see
    :func:`kow.players.search.estimate`); a hint that takes more than ``thinking_after``
    seconds first says it is thinking. ``rulebook()`` gives the lines of the ``rules``
    command, shown by ``page(lines)`` (a pager on a terminal; default: ``write`` each).
    ``auto_forced``: a decision with a single legal action plays itself, with a line
    saying so (the ``auto`` command turns it on and off). ``patience``, when given, is the
    most entries read for one decision: past it the player is taken to have left (for
    piped input, where an entry refused once is refused forever). ``hints`` off: ``hint``
    answers that the table's host turned hints off (``kow host --no-hints``).

    Raises :class:`Quit` on ``quit``, end of input, or entries past ``patience``
    (``str(err)`` is then ``"quit"``, ``"end of input"`` or ``"refused"``).
    """

    kind = HUMAN

    def __init__(
        self,
        name: str,
        screen: Screen,
        read: Callable[[str], str],
        *,
        write: Callable[[str], None],
        hot_seat: HotSeat | None = None,
        hint_rng: random.Random | None = None,
        hint_iterations: int | None = None,
        patience: int | None = None,
        rulebook: Callable[[], Sequence[str]] | None = None,
        page: Callable[[Sequence[str]], None] | None = None,
        auto_forced: bool = False,
        thinking_after: float = 0.5,
        hints: bool = True,
    ) -> None:
        super().__init__(name)
        self.hints = hints
        self.rulebook = rulebook
        self.page = page
        self.auto_forced = auto_forced
        self.thinking_after = thinking_after
        self.patience = patience
        self._entries = 0
        self.hint_rng = hint_rng if hint_rng is not None else random.Random(f"kow-hint:{name}")
        self.hint_iterations = hint_iterations
        self.screen = screen
        self.read = read
        self.write = write
        self.hot_seat = hot_seat

    # ------------------------------------------------------------------ decisions

    def act(self, view: View) -> Action:
        """Return the action typed for ``view`` (see :meth:`Player.act`)."""
        self._entries = 0
        return super().act(view)

    def play(self, view: View) -> Action:
        """Show the trick and the hand, and return the card (or KNOCK) typed.

        With :attr:`auto_forced` on, a single legal card (the engine's ``view.legal``)
        is returned at once, with a line saying so; so is it when ``auto`` turns that on
        at this prompt.
        """
        self._start_turn(view)
        if self.auto_forced and len(view.legal) == 1:
            self.write(self._forced(view))
            return view.legal[0]
        self._show_hand(view)
        hand = sorted_hand(view.hand)
        prompt = "Knock or play your card: " if KNOCK in view.legal else "Your card: "
        while True:
            entry = self._entry(prompt, view)
            if entry is None:
                if self.auto_forced and len(view.legal) == 1:
                    self.write(self._forced(view))
                    return view.legal[0]
                continue
            low = entry.lower()
            if low in ("knock", "k"):
                if KNOCK in view.legal:
                    return KNOCK
                self.write(self._why_no_knock(view))
                continue
            if is_number(entry):
                try:
                    card = hand[parse_number(entry, 1, len(hand), what="a card's number") - 1]
                except EntryError as err:
                    self.write(f"{err}.")
                    continue
            else:
                try:
                    card = parse_card(entry)
                except CardError:
                    knock = ", knock" if KNOCK in view.legal else ""
                    self.write(
                        f"{shown(entry)} is not a card or a command: try 10h, a number{knock},"
                        " or help."
                    )
                    continue
            reason = self._why_not(card, view)
            if reason is None:
                return card
            self.write(reason)

    def choose_trump(self, view: View) -> Suit:
        """Show the new hand and return the suit typed as trump."""
        self._start_turn(view)
        self._show_hand(view)
        return self._suit(view, "choose trump")

    def vote(self, view: View) -> Suit:
        """Return the suit this knocked-out person votes for."""
        self._start_turn(view)
        return self._suit(view, "you are knocked out, but you vote for this round's trump")

    # ------------------------------------------------------------------ helpers

    def _start_turn(self, view: View) -> None:
        seat = self.hot_seat
        if seat is None:
            return
        if seat.last != self.name:
            if seat.last is not None:
                seat.clear()  # someone's hand is on screen
            while self._read(f"Pass the keyboard to {self.name}, then press Enter. ") is None:
                pass  # an entry too long: the prompt again
            seat.clear()
            missed = seat.transcript[seat.seen.get(self.name, 0) :]
            if missed:
                first = self.name not in seat.seen
                self.write(f"{'So far' if first else 'Since your last turn'}:")
                for line in missed:
                    self.write(line)
                self.write("")
            for line in self.screen.table(view):
                self.write(line)
            seat.last = self.name
        seat.seen[self.name] = len(seat.transcript)

    def _show_hand(self, view: View) -> None:
        if view.phase is Phase.VOTE:
            self.write("You hold no cards: you are knocked out.")
            return
        if view.phase is Phase.TRUMP:
            trump = "to choose"
        else:
            trump = "none" if view.trump is None else self.screen.suit(view.trump)
        who = "Your" if self.name == "You" else f"{self.name}, your"
        self.write(f"{who} hand (trump {trump}):  " + self.screen.hand(view))

    def _suit(self, view: View, what: str) -> Suit:
        options = "  ".join(
            f"{i}{GLUE}{self.screen.suit(s, long=True)}" for i, s in enumerate(view.legal, 1)
        )
        who = what[0].upper() + what[1:] if self.name == "You" else f"{self.name}, {what}"
        self.write(f"{who}:  {options}")
        while True:
            entry = self._entry("Suit: ", view, SUIT_HELP)
            if entry is None:
                continue
            if is_number(entry):
                try:
                    return view.legal[
                        parse_number(entry, 1, len(view.legal), what="a suit's number") - 1
                    ]
                except EntryError as err:
                    self.write(f"{err}.")
                    continue
            try:
                suit = parse_suit(entry)
            except CardError:
                self.write(f"{shown(entry)} is not a suit or a command. {SUIT_HELP[0]}")
                continue
            if suit in view.legal:
                return suit
            allowed = ", ".join(SUIT_NAMES[s] for s in view.legal)
            self.write(f"You may only name {allowed} (the tied suits of the vote).")

    def _read(self, prompt: str) -> str | None:
        """Read one entry, without the spaces around it; None when it is refused as too
        long (:func:`kow.entries.check_entry`; the reason is written).

        Raises :class:`Quit` on ``quit`` or ``exit``, at the end of input, and for an
        entry past ``patience``.
        """
        self._entries += 1
        if self.patience is not None and self._entries > self.patience:
            raise Quit("refused")
        try:
            typed = self.read(prompt)
        except EOFError:
            raise Quit("end of input") from None
        try:
            entry = check_entry(typed)
        except EntryError as err:
            self.write(f"{err}.")
            return None
        if entry.lower() in ("quit", "exit"):
            raise Quit("quit")
        return entry

    def _entry(self, prompt: str, view: View, help_text: Sequence[str] = CARD_HELP) -> str | None:
        """Read one entry; handle commands shared by every prompt (None when handled)."""
        entry = self._read(prompt)
        if entry is None:
            return None
        low = entry.lower()
        lines: Sequence[str]
        if not low:
            return None  # Enter alone: the prompt again
        if low in ("help", "?"):
            lines = help_lines(help_text, self.screen.symbols)
        elif low == "hand":
            self._show_hand(view)
            return None
        elif low == "hint":
            lines = [self._hint(view) if self.hints else HINTS_OFF]
        elif low == "table":
            lines = self.screen.table(view)
        elif low == "last":
            lines = [self._last(view)]
        elif low == "played":
            lines = self._played(view)
        elif low == "auto":
            self.auto_forced = not self.auto_forced
            lines = [
                "Forced moves now play themselves (a single legal card); auto again to stop."
                if self.auto_forced
                else "Forced moves now wait for you; auto again to have them play themselves."
            ]
        elif low == "rules":
            lines = self.rulebook() if self.rulebook is not None else ["No rules text here."]
            if self.page is not None:
                self.page(lines)
                lines = ()
        else:
            return entry
        for line in lines:
            self.write(line)
        if low == "rules" and view.phase in (Phase.PLAY, Phase.TRUMP):
            self._show_hand(view)  # the hand scrolled away under the rules
        return None

    def _last(self, view: View) -> str:
        """Return the last trick finished: its plays, who won it and why (from the round
        before, when none is finished in this one)."""
        screen = self.screen
        if view.tricks:
            trick = view.tricks[-1]
            return f"Last trick: {screen.plays(trick.plays)}. {screen.won_with(trick)}."
        last = screen.last_trick
        if last is None:
            return "No trick has been played yet."
        won = screen.won_with(last.trick, last.hand_size)
        return f"Last trick (round {last.round}): {screen.plays(last.trick.plays)}. {won}."

    def _forced(self, view: View) -> str:
        """Return the line that says the seat's one legal card plays itself: the 1-card
        round's card, the last card of a hand, or the one card it may play."""
        card = self.screen.card(view.legal[0])
        your = "your" if self.name == "You" else f"{self.name}'s"
        if view.hand_size == 1:
            said = f"One card each this round: {your} {card} plays itself."
        elif len(view.hand) == 1:
            said = f"{your[0].upper()}{your[1:]} last card, {card}, plays itself."
        else:
            you = "you" if self.name == "You" else self.name
            said = f"{card} is the one card {you} may play: it plays itself."
        return said + " (auto is on: type auto at a prompt to stop it.)"

    def _played(self, view: View) -> list[str]:
        """Return the cards played this round (finished tricks and the current one), by
        suit, high to low; then the suits each player has shown a void in
        (:func:`kow.players.sampling.voids`: the led suit of a trick where the player
        played another suit; a knock shows nothing)."""
        screen = self.screen
        plays: list[Play | Knock] = [p for trick in view.tricks for p in trick.plays]
        cards = [p.card for p in (*plays, *view.trick) if isinstance(p, Play)]
        if not cards:
            lines = [f"No card has been played yet in round {view.round}."]
        else:
            count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
            lines = [f"Played in round {view.round} ({count}), by suit, high to low:"]
            width = max(len(name) for name in SUIT_NAMES)
            for suit in range(len(SUITS)):
                ranks = [screen.rank(c) for c in sorted(cards, reverse=True) if SUIT_OF[c] == suit]
                name = f"{screen.suit(suit)}{GLUE}{SUIT_NAMES[suit]:<{width}}"
                lines.append(f"  {name}  {' '.join(ranks) if ranks else '-'}")
        shown = [(seat, mask) for seat, mask in enumerate(voids(view)) if mask]
        if not shown:
            lines.append("Nobody has shown a void this round.")
        else:
            known = screen.between.join(
                f"{screen.names[seat]}{GLUE}"
                + GLUE.join(screen.suit(s) for s in range(len(SUITS)) if mask >> s & 1)
                for seat, mask in shown
            )
            lines.append(f"Known void (did not follow the led suit): {known}.")
        return lines

    def _hint(self, view: View) -> str:
        """Return the search bot's choice for ``view``, with its chance of a trick."""
        from ..players.search import DEFAULT_ITERATIONS, estimate

        if view.phase is not Phase.PLAY and view.phase is not Phase.TRUMP:
            return "No hint here: a knocked-out player's vote changes nothing for them."
        iterations = self.hint_iterations or DEFAULT_ITERATIONS
        timer = threading.Timer(self.thinking_after, self.write, ["Thinking..."])
        timer.daemon = True
        timer.start()
        try:
            found = max(estimate(view, self.hint_rng, iterations), key=lambda e: e.value)
        finally:
            timer.cancel()
            timer.join()  # a "Thinking..." being written is done before the hint is
        chance = f"{found.survival:.0%}"
        if view.phase is Phase.TRUMP:
            what = f"name {self.screen.suit(found.action, long=True)} as trump"
        elif found.action == KNOCK:
            what = "knock"
        else:
            what = f"play {self.screen.card(found.action)}"
        if view.phase is Phase.PLAY and view.tricks_won[view.seat]:
            return f"Hint: {what} (you already have your trick this round)."
        return f"Hint: {what}. Your chance of a trick this round: {chance} ({found.deals} deals)."

    def _why_no_knock(self, view: View) -> str:
        if view.seat not in view.dogs_life:
            return "Only a player on a dog's life may knock."
        return "This is the round's last trick: you must play your dog's-life card."

    def _why_not(self, card: Card, view: View) -> str | None:
        """Return why ``card`` may not be played now, or None when it may."""
        if card in view.legal:
            return None
        if card not in view.hand:
            return f"You don't hold {self.screen.card(card)}."
        if view.led is not None:
            mine = [c for c in sorted_hand(view.hand) if SUIT_OF[c] == view.led]
            return f"You must follow {SUIT_NAMES[view.led]}: you hold {self.screen.cards(mine)}."
        return f"You can't play {card_name(card)} now."  # pragma: no cover
