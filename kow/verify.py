"""Check one game's JSON log against the rules, independently of the engine.

This module is a second implementation of the rules: it imports nothing from :mod:`kow` and
shares no code with the engine, so that a bug in one is caught by the other. It walks a
parsed log (``docs/log-format.md``, version 1) round by round, trick by trick and play by
play, and reports the first fault as a :class:`Fault`.

Rules text: seed 000 ("Mise en place et Distribution", "Déroulement du jeu", "Variantes
courantes") and seed 002 (the dog's life, once per game); the variants are the fields of
the log's ``rules`` object. Where the sources leave a choice open, this follows the rules
as kow implements them (``docs/log-format.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

__all__ = ["Fault", "verify_game"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FORMAT = "kow-log"
VERSION = 1
MAX_SEED = 2**53 - 1  # every JSON tool reads such ints exactly
MIN_PLAYERS = 2
MAX_PLAYERS = 7
MAX_CUT = 51
DOGS_LIFE = ("off", "once-per-game", "once-per-player")
TRUMPS = ("winner-chooses", "fixed")
LEADS = ("most-tricks", "dealer-left")
KINDS = ("random", "heuristic", "search", "human")
TRUMP_METHODS = ("turned-up", "chosen", "fixed", "vote", "none")

_TOP_KEYS = ("format", "version", "kow_version", "seed", "rules", "players", "rounds", "result")
_RULE_KEYS = (
    "players",
    "start_cards",
    "dogs_life",
    "trump",
    "final_round_trump",
    "lead",
    "eliminated_vote",
    "sweep_wins",
)
_ROUND_KEYS = (
    "number",
    "hand_size",
    "dealer",
    "cut",
    "hands",
    "turned_up",
    "trump",
    "trump_method",
    "trump_chosen_by",
    "tie_cut",
    "votes",
    "leader",
    "dogs_life",
    "tricks",
)
_END_KEYS = ("tricks_won", "eliminated", "dogs_life_granted", "revived")
_TRICK_KEYS = ("number", "leader", "plays", "winner")

_METHOD_REASONS = {
    "none": "the 1-card round has no trump (final_round_trump is false)",
    "turned-up": "round 1's trump is the suit of the turned-up card",
    "fixed": "trump stays the suit turned up in round 1 (rules.trump is 'fixed')",
    "vote": "knocked-out seats vote for trump (rules.eliminated_vote)",
    "chosen": "last round's most-tricks player chooses trump",
}


@dataclass(frozen=True)
class Fault:
    """The first thing in a log that breaks the format or the rules.

    ``round`` and ``trick`` count from 1 (the round's place in ``rounds``, the trick's place
    in its round); ``seat`` is 0-based, clockwise. Each is ``None`` when the fault is not
    tied to one. ``message`` says in plain words what the log holds and what the rule
    required.
    """

    round: int | None
    trick: int | None
    seat: int | None
    message: str

    def __str__(self) -> str:
        """Return the message, prefixed by the round and trick where they are known.

        >>> str(Fault(2, 4, 1, "seat 1 played 5c but holds Kh of the led suit h"))
        'round 2, trick 4: seat 1 played 5c but holds Kh of the led suit h'
        >>> str(Fault(None, None, None, "format: expected 'kow-log', got 'x'"))
        "format: expected 'kow-log', got 'x'"
        """
        place = []
        if self.round is not None:
            place.append(f"round {self.round}")
        if self.trick is not None:
            place.append(f"trick {self.trick}")
        if not place:
            return self.message
        return f"{', '.join(place)}: {self.message}"


def verify_game(log: object) -> Fault | None:
    """Check one game's log and return its first fault, or ``None`` when it is legal.

    ``log`` is a parsed JSON value (``json.loads`` of one game; see ``docs/log-format.md``).
    Raises nothing, whatever ``log`` holds: a wrong type, a missing key, ``true`` where an
    int belongs, an unknown card or an out-of-range seat is a :class:`Fault` naming the key
    path.

    Checks, walking the game in order: the header (``format``, ``version``, ``seed``, the
    eight ``rules`` and the ``players``); then per round the hand size, the dealer (passes
    clockwise to the next seat still in the game), the cutter (the dealer's right), the
    dealt hands (one card on a dog's life, none once knocked out, no card twice), the
    turned-up card, the trump and how it was set (turned up, fixed, chosen by the last
    round's most-tricks player, or voted by knocked-out seats), the tie cut, the leader; per
    trick the leader, the turn order, that each card is held, follow suit, knocks (dog's
    life only, never on the last trick) and the winner (highest trump, else highest card of
    the led suit); at the end of a round the tricks won, eliminations, dog's lives granted,
    revivals and sweeps; and last that the game ends where the rules end it, with the right
    ``result``. A log with ``abandoned: true`` may stop anywhere.
    """
    try:
        _Checker().game(log)
    except _Stop as stop:
        return stop.fault
    except Exception as error:  # a safety net: verify_game must never raise
        return Fault(None, None, None, f"internal error in the verifier: {type(error).__name__}")
    return None


class _Stop(Exception):
    """Carry the first fault out of the walk."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.message)
        self.fault = fault


@dataclass(frozen=True)
class _Rules:
    players: int
    start_cards: int
    dogs_life: str
    trump: str
    final_round_trump: bool
    lead: str
    eliminated_vote: bool
    sweep_wins: bool


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _suit(card: str) -> str:
    return card[1]


def _show(value: object) -> str:
    """Describe a JSON value briefly, for a message (never raises, never long)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"a {value.bit_length()}-bit int"
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= 20 else value[:20] + "..."
        return repr(text)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _or_null(value: str | None) -> str:
    return "null" if value is None else value


def _seats(seats: list[int]) -> str:
    return "[" + ", ".join(str(s) for s in seats) + "]"


def _at(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


class _Checker:
    """Walk one log, keeping the game's state; ``fail`` stops at the first fault."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.trick: int | None = None
        self.n = 0

    # -- types ------------------------------------------------------------------------

    def fail(self, message: str, seat: int | None = None) -> NoReturn:
        raise _Stop(Fault(self.round, self.trick, seat, message))

    def obj(
        self, value: object, path: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, object]:
        if not isinstance(value, dict):
            self.fail(_at(path, f"expected an object, got {_show(value)}"))
        out: dict[str, object] = {}
        for key in keys:
            if key not in value:
                self.fail(_at(path, f"missing key {key!r}"))
            out[key] = value[key]
        for key in value:
            if not isinstance(key, str) or (key not in keys and key not in optional):
                self.fail(_at(path, f"unknown key {_show(key)}"))
            out[key] = value[key]
        return out

    def list_(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list):
            self.fail(f"{path}: expected a list, got {_show(value)}")
        return list(value)

    def int_(self, value: object, path: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected an int from {lo} to {hi}, got {_show(value)}")
        if not lo <= value <= hi:
            self.fail(f"{path}: {_show(value)} is out of range {lo} to {hi}")
        return value

    def any_int(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected an int, got {_show(value)}")
        return value

    def seat(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected a seat (an int), got {_show(value)}")
        if not 0 <= value < self.n:
            self.fail(f"{path}: {_show(value)} is not a seat (0 to {self.n - 1})")
        return value

    def opt_seat(self, value: object, path: str) -> int | None:
        return None if value is None else self.seat(value, path)

    def bool_(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{path}: expected true or false, got {_show(value)}")
        return value

    def str_(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            self.fail(f"{path}: expected a string, got {_show(value)}")
        return value

    def choice(self, value: object, path: str, allowed: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in allowed:
            names = ", ".join(repr(a) for a in allowed)
            self.fail(f"{path}: expected one of {names}, got {_show(value)}")
        return value

    def card(self, value: object, path: str) -> str:
        if (
            not isinstance(value, str)
            or len(value) != 2
            or value[0] not in RANKS
            or value[1] not in SUITS
        ):
            self.fail(f"{path}: {_show(value)} is not a card")
        return value

    def opt_card(self, value: object, path: str) -> str | None:
        return None if value is None else self.card(value, path)

    def opt_suit(self, value: object, path: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or len(value) != 1 or value not in SUITS:
            self.fail(f"{path}: {_show(value)} is not a suit ('c', 'd', 'h', 's' or null)")
        return value

    def seat_list(self, value: object, path: str) -> list[int]:
        items = self.list_(value, path)
        seats = [self.seat(item, f"{path}[{i}]") for i, item in enumerate(items)]
        if any(a >= b for a, b in zip(seats, seats[1:], strict=False)):
            self.fail(f"{path}: seats must be ascending without repeats, got {_seats(seats)}")
        return seats

    # -- seats around the table --------------------------------------------------------

    def after(self, seat: int, in_game: list[bool]) -> int:
        """Return the next seat clockwise after ``seat`` that is in the game."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if in_game[other]:
                return other
        return seat

    def before(self, seat: int, in_game: list[bool]) -> int:
        """Return the previous seat (anticlockwise) before ``seat`` that is in the game."""
        for step in range(1, self.n + 1):
            other = (seat - step) % self.n
            if in_game[other]:
                return other
        return seat

    def from_left(self, dealer: int, seats: list[int], in_game: list[bool]) -> list[int]:
        """Order ``seats`` clockwise, starting from the dealer's left (next seat in the game)."""
        left = self.after(dealer, in_game)
        return sorted(seats, key=lambda s: (s - left) % self.n)

    # -- the game ------------------------------------------------------------------------

    def game(self, log: object) -> None:
        if not isinstance(log, dict):
            self.fail(f"the log is not a JSON object: got {_show(log)}")
        top = self.obj(log, "", _TOP_KEYS, optional=("abandoned",))
        if top["format"] != FORMAT or not isinstance(top["format"], str):
            self.fail(f"format: expected {FORMAT!r}, got {_show(top['format'])}")
        version = top["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
            self.fail(f"version: expected {VERSION}, got {_show(version)}")
        self.str_(top["kow_version"], "kow_version")
        self.int_(top["seed"], "seed", 0, MAX_SEED)
        rules = self.rules(top["rules"])
        self.n = rules.players
        self.players(top["players"])
        abandoned = False
        if "abandoned" in top:
            if top["abandoned"] is not True:
                self.fail(f"abandoned: expected true or no key, got {_show(top['abandoned'])}")
            abandoned = True
        winner = self.rounds(top["rounds"], rules, abandoned)
        self.round = self.trick = None
        rounds_played = len(self.list_(top["rounds"], "rounds"))
        result = self.obj(top["result"], "result", ("winner", "rounds_played"))
        got = self.opt_seat(result["winner"], "result.winner")
        if abandoned:
            if got is not None:
                self.fail(f"result.winner is seat {got} but a game cut short has no winner", got)
        elif got != winner:
            shown = "null" if got is None else f"seat {got}"
            self.fail(f"result.winner is {shown} but seat {winner} won the game", got)
        played = self.any_int(result["rounds_played"], "result.rounds_played")
        if played != rounds_played:
            self.fail(f"result.rounds_played is {played} but the log has {rounds_played} rounds")

    def rules(self, value: object) -> _Rules:
        data = self.obj(value, "rules", _RULE_KEYS)
        players = self.int_(data["players"], "rules.players", MIN_PLAYERS, MAX_PLAYERS)
        most = (52 - 1) // players
        return _Rules(
            players=players,
            start_cards=self.int_(data["start_cards"], "rules.start_cards", 1, most),
            dogs_life=self.choice(data["dogs_life"], "rules.dogs_life", DOGS_LIFE),
            trump=self.choice(data["trump"], "rules.trump", TRUMPS),
            final_round_trump=self.bool_(data["final_round_trump"], "rules.final_round_trump"),
            lead=self.choice(data["lead"], "rules.lead", LEADS),
            eliminated_vote=self.bool_(data["eliminated_vote"], "rules.eliminated_vote"),
            sweep_wins=self.bool_(data["sweep_wins"], "rules.sweep_wins"),
        )

    def players(self, value: object) -> None:
        items = self.list_(value, "players")
        if len(items) != self.n:
            self.fail(f"players: expected {self.n} players (rules.players), got {len(items)}")
        for i, item in enumerate(items):
            path = f"players[{i}]"
            player = self.obj(item, path, ("seat", "name", "kind"))
            seat = self.seat(player["seat"], f"{path}.seat")
            if seat != i:
                self.fail(f"{path}.seat is {seat} but should be {i} (players are in seat order)")
            self.str_(player["name"], f"{path}.name")
            self.choice(player["kind"], f"{path}.kind", KINDS)

    def rounds(self, value: object, rules: _Rules, abandoned: bool) -> int | None:
        """Walk the rounds; return the winning seat, or ``None`` if the game is unfinished."""
        items = self.list_(value, "rounds")
        game = _Game(rules, self.n)
        for index, item in enumerate(items):
            self.round = index + 1
            self.trick = None
            if game.over:
                self.fail(
                    f"round {index + 1} follows the end of the game "
                    f"(seat {game.winner} won in round {index})"
                )
            partial_ok = abandoned and index == len(items) - 1
            _Round(self, game, index, partial_ok).check(item)
        self.round = self.trick = None
        if not game.over and not abandoned:
            still = [s for s in range(self.n) if game.in_game[s]]
            if not items:
                self.fail("rounds is empty but a game has at least one round")
            self.fail(
                f"the log ends after round {len(items)} but the game is not over: "
                f"seats {_seats(still)} are still in"
            )
        return game.winner


class _Game:
    """What carries from one round to the next."""

    def __init__(self, rules: _Rules, n: int) -> None:
        self.rules = rules
        self.in_game = [True] * n
        self.dogs: list[int] = []
        self.granted_ever: set[int] = set()
        self.dealer: int | None = None
        self.won: list[int | None] = []
        self.first_trump: str | None = None
        self.over = False
        self.winner: int | None = None


class _Round:
    """Check one round against the game so far, then update the game."""

    def __init__(self, checker: _Checker, game: _Game, index: int, partial_ok: bool) -> None:
        self.c = checker
        self.g = game
        self.r = index + 1
        self.path = f"rounds[{index}]"
        self.partial_ok = partial_ok
        self.n = checker.n
        self.held: list[list[str]] = [[] for _ in range(self.n)]
        self.seen: dict[str, int] = {}
        self.dogs: list[int] = []
        self.played = 0

    def fail(self, message: str, seat: int | None = None) -> NoReturn:
        self.c.fail(message, seat)

    def check(self, value: object) -> None:
        c, g, p, r = self.c, self.g, self.path, self.r
        rules = g.rules
        optional = _END_KEYS if self.partial_ok else ()
        keys = _ROUND_KEYS if self.partial_ok else _ROUND_KEYS + _END_KEYS
        rd = c.obj(value, p, keys, optional)

        number = c.any_int(rd["number"], f"{p}.number")
        if number != r:
            self.fail(f"round number is {number} but should be {r}")
        hand_size = c.any_int(rd["hand_size"], f"{p}.hand_size")
        want = rules.start_cards - r + 1
        if hand_size != want:
            self.fail(
                f"hand size is {hand_size} but should be {want} "
                f"(start_cards {rules.start_cards}, one fewer each round)"
            )

        dealer = c.seat(rd["dealer"], f"{p}.dealer")
        if g.dealer is not None:
            want = c.after(g.dealer, g.in_game)
            if dealer != want:
                self.fail(
                    f"dealer is seat {dealer} but should be seat {want}, the next seat "
                    f"in the game after seat {g.dealer}",
                    dealer,
                )
        cut = c.obj(rd["cut"], f"{p}.cut", ("by", "position"))
        by = c.seat(cut["by"], f"{p}.cut.by")
        want = c.before(dealer, g.in_game)
        if by != want:
            self.fail(f"cut by seat {by} but should be by seat {want}, the dealer's right", by)
        c.int_(cut["position"], f"{p}.cut.position", 1, MAX_CUT)

        dogs = c.seat_list(rd["dogs_life"], f"{p}.dogs_life")
        if dogs != g.dogs:
            self.fail(
                f"dogs_life is {_seats(dogs)} but should be {_seats(g.dogs)}, "
                "the seats granted a dog's life last round"
            )
        self.dogs = dogs
        self.hands(rd["hands"], hand_size)
        turned_up = self.turned_up(rd["turned_up"], hand_size)
        if self.before_trump(rd, dealer, hand_size):
            self.end(rd, [0] * self.n, False, hand_size)
            return
        trump, mt = self.trump(rd, dealer, hand_size, turned_up)

        leader = c.seat(rd["leader"], f"{p}.leader")
        if r == 1 or rules.lead == "dealer-left" or mt is None:
            want, why = c.after(dealer, g.in_game), "the dealer's left"
        else:
            want, why = mt, "who took the most tricks last round"
        if leader != want:
            self.fail(f"leader is seat {leader} but should be seat {want} ({why})", leader)

        won, complete = self.tricks(rd["tricks"], leader, hand_size, trump)
        self.c.trick = None
        if r == 1:
            g.first_trump = trump
        self.end(rd, won, complete, hand_size)
        g.dealer = dealer

    # -- the deal --------------------------------------------------------------------------

    def hands(self, value: object, hand_size: int) -> None:
        c, g, p = self.c, self.g, self.path
        items = c.list_(value, f"{p}.hands")
        if len(items) != self.n:
            self.fail(f"{p}.hands: expected {self.n} hands (one per seat), got {len(items)}")
        for seat, item in enumerate(items):
            path = f"{p}.hands[{seat}]"
            if not g.in_game[seat]:
                if item is not None:
                    self.fail(f"seat {seat} is knocked out but was dealt cards", seat)
                continue
            if item is None:
                self.fail(f"seat {seat} is in the game but was dealt no hand", seat)
            cards = c.list_(item, path)
            want = 1 if seat in self.dogs else hand_size
            if len(cards) != want:
                why = " (on a dog's life)" if seat in self.dogs else ""
                self.fail(
                    f"seat {seat} was dealt {len(cards)} cards but should get {want}{why}", seat
                )
            for i, card_value in enumerate(cards):
                card = c.card(card_value, f"{path}[{i}]")
                if card in self.seen:
                    self.fail(
                        f"card {card} is dealt twice: to seat {self.seen[card]} and seat {seat}",
                        seat,
                    )
                self.seen[card] = seat
                self.held[seat].append(card)

    def turned_up(self, value: object, hand_size: int) -> str | None:
        rules = self.g.rules
        card = self.c.opt_card(value, f"{self.path}.turned_up")
        no_trump = hand_size == 1 and not rules.final_round_trump
        if self.r == 1 and not no_trump:
            if card is None:
                self.fail(
                    "no card is turned up but round 1 takes its trump from the turned-up card"
                )
            if card in self.seen:
                self.fail(f"turned-up card {card} is also dealt to seat {self.seen[card]}")
            return card
        if card is not None:
            if self.r == 1:
                self.fail(
                    f"turned_up is {card} but the 1-card round has no trump "
                    "(final_round_trump is false), so no card is turned up"
                )
            self.fail(f"turned_up is {card} but a card is turned up in round 1 only")
        return None

    # -- trump, votes, tie cut ---------------------------------------------------------------

    def method(self, dealer: int, hand_size: int) -> tuple[str, list[int]]:
        """Return how trump is set this round, and the knocked-out seats from dealer's left."""
        g, r = self.g, self.r
        rules = g.rules
        out = self.c.from_left(dealer, [s for s in range(self.n) if not g.in_game[s]], g.in_game)
        if hand_size == 1 and not rules.final_round_trump:
            return "none", out
        if r == 1:
            return "turned-up", out
        if rules.trump == "fixed":
            return "fixed", out
        if rules.eliminated_vote and out:
            return "vote", out
        return "chosen", out

    def before_trump(self, rd: dict[str, object], dealer: int, hand_size: int) -> bool:
        """Check a round cut short before trump was set; return whether it was."""
        if not self.partial_ok or rd["trump_method"] is not None:
            return False
        method, out = self.method(dealer, hand_size)
        if method not in ("vote", "chosen"):
            return False  # no player decides: the method must be there
        self.votes(rd["votes"], method, out, cut_short=True)
        if rd["tie_cut"] is not None:
            self.tie_cut(rd["tie_cut"], dealer, needed=True)
        for key in ("trump", "trump_chosen_by", "leader"):
            if rd[key] is not None:
                self.fail(f"{key} must be null: the round was cut short before trump was set")
        if self.c.list_(rd["tricks"], f"{self.path}.tricks"):
            self.fail("tricks must be empty: the round was cut short before trump was set")
        return True

    def trump(
        self, rd: dict[str, object], dealer: int, hand_size: int, turned_up: str | None
    ) -> tuple[str | None, int | None]:
        """Check trump, its method, votes and tie cut; return trump and most-tricks seat."""
        c, g, p, r = self.c, self.g, self.path, self.r
        rules = g.rules
        method, out = self.method(dealer, hand_size)
        got_method = c.choice(rd["trump_method"], f"{p}.trump_method", TRUMP_METHODS)
        if got_method != method:
            self.fail(
                f"trump_method is {got_method!r} but should be {method!r}: "
                + _METHOD_REASONS[method]
            )
        trump = c.opt_suit(rd["trump"], f"{p}.trump")
        chosen_by = c.opt_seat(rd["trump_chosen_by"], f"{p}.trump_chosen_by")

        tied_suits = self.votes(rd["votes"], method, out)
        needs_mt = (
            method == "chosen"
            or (method == "vote" and len(tied_suits) > 1)
            or (r >= 2 and rules.lead == "most-tricks")
        )
        mt = self.tie_cut(rd["tie_cut"], dealer, needs_mt)

        def no_chooser() -> None:
            if chosen_by is not None:
                self.fail(
                    f"trump_chosen_by is seat {chosen_by} but nobody chooses trump "
                    f"under trump_method {method!r}",
                    chosen_by,
                )

        def chooser(what: str) -> None:
            if chosen_by != mt:
                shown = "null" if chosen_by is None else f"seat {chosen_by}"
                self.fail(
                    f"{what} by {shown} but should be by seat {mt}, "
                    "who took the most tricks last round",
                    chosen_by,
                )

        if method == "none":
            if trump is not None:
                self.fail(f"trump is {_or_null(trump)} but {_METHOD_REASONS['none']}")
            no_chooser()
        elif method == "turned-up" and turned_up is not None:
            if trump != _suit(turned_up):
                self.fail(
                    f"trump is {_or_null(trump)} but the turned-up card {turned_up} makes it "
                    f"{_suit(turned_up)}"
                )
            no_chooser()
        elif method == "fixed":
            if trump != g.first_trump:
                self.fail(
                    f"trump is {_or_null(trump)} but should stay {_or_null(g.first_trump)}, "
                    "the suit turned up in round 1 (rules.trump is 'fixed')"
                )
            no_chooser()
        elif method == "vote" and len(tied_suits) == 1:
            if trump != tied_suits[0]:
                self.fail(f"trump is {_or_null(trump)} but the vote chose {tied_suits[0]}")
            if chosen_by is not None:
                self.fail(
                    f"trump_chosen_by is seat {chosen_by} but the vote was not tied", chosen_by
                )
        elif method == "vote":
            if trump is None or trump not in tied_suits:
                self.fail(
                    f"trump is {_or_null(trump)} but must be one of the tied suits "
                    + ", ".join(tied_suits)
                )
            chooser("tied vote settled")
        else:
            if trump is None:
                self.fail(f"trump is null but seat {mt} chooses a trump suit")
            chooser("trump chosen")
        return trump, mt

    def votes(
        self, value: object, method: str, out: list[int], cut_short: bool = False
    ) -> list[str]:
        """Check the votes; return the suits with the most votes (empty if no vote).

        ``cut_short``: the round stopped during the vote, so some votes may be missing.
        """
        c, p = self.c, self.path
        if not self.g.rules.eliminated_vote:
            if value is not None:
                self.fail("votes must be null when rules.eliminated_vote is false")
            return []
        items = c.list_(value, f"{p}.votes")
        if method != "vote":
            if items:
                self.fail(f"votes must be empty: no vote is held under trump_method {method!r}")
            return []
        counts = dict.fromkeys(SUITS, 0)
        for i, item in enumerate(items):
            path = f"{p}.votes[{i}]"
            vote = c.obj(item, path, ("seat", "suit"))
            seat = c.seat(vote["seat"], f"{path}.seat")
            if i >= len(out):
                self.fail(f"seat {seat} cast an extra vote: each knocked-out seat votes once", seat)
            if seat != out[i]:
                if self.g.in_game[seat]:
                    self.fail(f"seat {seat} voted but is still in the game", seat)
                self.fail(f"seat {seat} voted out of turn: seat {out[i]} was to vote", seat)
            suit = c.opt_suit(vote["suit"], f"{path}.suit")
            if suit is None:
                self.fail(f"{path}.suit: seat {seat} voted for no suit", seat)
            counts[suit] += 1
        if len(items) < len(out) and not cut_short:
            missing = out[len(items)]
            self.fail(f"seat {missing} is knocked out but did not vote", missing)
        best = max(counts.values())
        return [s for s in SUITS if counts[s] == best]

    def tie_cut(self, value: object, dealer: int, needed: bool) -> int | None:
        """Check the tie cut; return the most-tricks seat if one is needed, else ``None``."""
        c, p = self.c, self.path
        if not needed:
            if value is not None:
                self.fail("tie_cut should be null: no most-tricks player is needed this round")
            return None
        counts = [(s, w) for s, w in enumerate(self.g.won) if w is not None]
        if not counts:
            return None
        best = max(w for _, w in counts)
        seats = c.from_left(dealer, [s for s, w in counts if w == best], self.g.in_game)
        if len(seats) == 1:
            if value is not None:
                self.fail(
                    f"tie_cut should be null: seat {seats[0]} alone took the most tricks last round"
                )
            return seats[0]
        passes = c.list_(value, f"{p}.tie_cut")
        if not passes:
            self.fail(f"tie_cut has no pass but seats {_seats(seats)} tied for the most tricks")
        pending: list[int] | None = seats
        decided = -1
        for k, item in enumerate(passes):
            path = f"{p}.tie_cut[{k}]"
            if pending is None:
                self.fail(f"tie cut has an extra pass {k + 1}: pass {k} already had one highest")
            cuts = c.list_(item, path)
            if len(cuts) != len(pending):
                self.fail(
                    f"tie cut pass {k + 1} has {len(cuts)} cards but seats "
                    f"{_seats(pending)} should cut"
                )
            cards: list[str] = []
            for j, cut_value in enumerate(cuts):
                cut = c.obj(cut_value, f"{path}[{j}]", ("seat", "card"))
                seat = c.seat(cut["seat"], f"{path}[{j}].seat")
                if seat != pending[j]:
                    self.fail(
                        f"tie cut pass {k + 1} should be cut by seats {_seats(pending)} "
                        f"in this order, not seat {seat} at place {j + 1}",
                        seat,
                    )
                card = c.card(cut["card"], f"{path}[{j}].card")
                if card in cards:
                    self.fail(f"tie cut pass {k + 1}: card {card} is cut twice", seat)
                cards.append(card)
            top = max(_rank(card) for card in cards)
            highest = [s for s, card in zip(pending, cards, strict=True) if _rank(card) == top]
            if len(highest) == 1:
                decided, pending = highest[0], None
            else:
                pending = highest
        if pending is not None:
            self.fail(
                f"tie cut ends with seats {_seats(pending)} still tied: another pass is needed"
            )
        return decided

    # -- tricks --------------------------------------------------------------------------------

    def tricks(
        self, value: object, leader: int, hand_size: int, trump: str | None
    ) -> tuple[list[int], bool]:
        """Check the tricks; return tricks won per seat and whether the round is complete."""
        c, p = self.c, self.path
        items = c.list_(value, f"{p}.tricks")
        won = [0] * self.n
        last_winner: int | None = None
        for t, item in enumerate(items):
            c.trick = t + 1
            path = f"{p}.tricks[{t}]"
            if t >= hand_size:
                self.fail(f"round has {len(items)} tricks but should have {hand_size}")
            tr = c.obj(item, path, _TRICK_KEYS)
            number = c.any_int(tr["number"], f"{path}.number")
            if number != t + 1:
                self.fail(f"trick number is {number} but should be {t + 1}")
            if last_winner is None:
                want, why = leader, "the round's leader"
            elif last_winner in self.dogs:
                want = self.holder_after(last_winner)
                why = f"left of seat {last_winner}, who won the last trick on a dog's life"
            else:
                want, why = last_winner, "winner of the last trick"
            got = c.seat(tr["leader"], f"{path}.leader")
            if got != want:
                self.fail(f"trick leader is seat {got} but should be seat {want} ({why})", got)
            order = [s for s in ((got + k) % self.n for k in range(self.n)) if self.held[s]]
            cards = self.plays(tr["plays"], f"{path}.plays", order, t + 1 == hand_size)
            if tr["winner"] is None and self.partial_ok and t == len(items) - 1:
                return won, False  # a trick cut short
            if self.played < len(order):
                missing = order[self.played]
                self.fail(
                    f"seat {missing} did not play: the trick has {self.played} plays", missing
                )
            winner = c.seat(tr["winner"], f"{path}.winner")
            self.check_winner(winner, cards, trump)
            won[winner] += 1
            last_winner = winner
        c.trick = None
        if len(items) < hand_size:
            if self.partial_ok:
                return won, False
            self.fail(f"round has {len(items)} tricks but should have {hand_size}")
        return won, True

    def holder_after(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.held[other]:
                return other
        return seat

    def plays(
        self, value: object, path: str, order: list[int], last: bool
    ) -> list[tuple[int, str]]:
        """Check the plays of a trick; return the cards played, as (seat, card)."""
        c = self.c
        items = c.list_(value, path)
        cards: list[tuple[int, str]] = []
        led: str | None = None
        self.played = 0
        for j, item in enumerate(items):
            ppath = f"{path}[{j}]"
            play = c.obj(item, ppath, ("seat",), optional=("card", "knock"))
            seat = c.seat(play["seat"], f"{ppath}.seat")
            if j >= len(order):
                self.fail(
                    f"seat {seat} played out of turn: every seat holding a card has played",
                    seat,
                )
            if seat != order[j]:
                self.fail(f"seat {seat} played out of turn: seat {order[j]} was to play", seat)
            if ("card" in play) == ("knock" in play):
                self.fail(f"{ppath}: a play has either a 'card' or 'knock': true", seat)
            self.played = j + 1
            if "knock" in play:
                if play["knock"] is not True:
                    self.fail(f"{ppath}.knock: expected true, got {_show(play['knock'])}", seat)
                if seat not in self.dogs:
                    self.fail(f"seat {seat} knocked but is not on a dog's life", seat)
                if last:
                    self.fail(
                        f"seat {seat} knocked on the last trick: a player on a dog's life "
                        "must play the card by then",
                        seat,
                    )
                continue
            card = c.card(play["card"], f"{ppath}.card")
            hand = self.held[seat]
            if card not in hand:
                self.fail(f"seat {seat} played {card} but does not hold it", seat)
            if led is None:
                led = _suit(card)
            elif _suit(card) != led:
                follow = [h for h in hand if _suit(h) == led]
                if follow:
                    self.fail(
                        f"seat {seat} played {card} but holds {follow[0]} of the led suit {led}",
                        seat,
                    )
            hand.remove(card)
            cards.append((seat, card))
        return cards

    def check_winner(self, winner: int, cards: list[tuple[int, str]], trump: str | None) -> None:
        if not cards:
            self.fail("no card was played in this trick")
        led = _suit(cards[0][1])
        trumps = [(s, card) for s, card in cards if _suit(card) == trump]
        if trumps:
            seat, card = max(trumps, key=lambda sc: _rank(sc[1]))
            what = f"the highest trump {card}"
        else:
            seat, card = max(
                ((s, x) for s, x in cards if _suit(x) == led), key=lambda sc: _rank(sc[1])
            )
            what = f"{card}, the highest card of the led suit {led}"
        if winner != seat:
            self.fail(f"trick winner is seat {winner} but seat {seat} played {what}", winner)

    # -- end of round ---------------------------------------------------------------------------

    def end(self, rd: dict[str, object], won: list[int], complete: bool, hand_size: int) -> None:
        c, g, p = self.c, self.g, self.path
        rules = g.rules
        dealt = [s for s in range(self.n) if g.in_game[s]]
        if self.partial_ok and all(rd.get(k) is None for k in _END_KEYS):
            return
        if self.partial_ok and not complete:
            # A round cut short: nothing is decided yet.
            self.tricks_won(rd.get("tricks_won"), won, dealt, allow_null=True)
            for key in _END_KEYS[1:]:
                if rd.get(key) is not None and c.seat_list(rd.get(key), f"{p}.{key}"):
                    self.fail(f"{key} must be empty in a round cut short")
            return
        self.tricks_won(rd.get("tricks_won"), won, dealt, allow_null=False)

        sweepers = [s for s in dealt if won[s] == hand_size]
        eliminated: list[int] = []
        granted: list[int] = []
        revived: list[int] = []
        reasons: dict[int, str] = {}
        sweep = rules.sweep_wins and bool(sweepers)
        # A dog's-life card that wins a trick revives its player, even in a sweep (the
        # 1-card round, where the dog's card takes the only trick and wins the game).
        revived = [s for s in self.dogs if won[s] > 0]
        if sweep:
            eliminated = [s for s in dealt if s != sweepers[0]]
            for s in eliminated:
                reasons[s] = f"seat {sweepers[0]} won every trick (rules.sweep_wins)"
        else:
            for s in dealt:
                if won[s] > 0:
                    continue
                if s in self.dogs:
                    reasons[s] = "it was on a dog's life"
                elif hand_size == 1:
                    reasons[s] = "in the 1-card round"
                elif rules.dogs_life == "off":
                    reasons[s] = "rules.dogs_life is 'off'"
                elif rules.dogs_life == "once-per-game" and g.granted_ever:
                    reasons[s] = "the one dog's life of the game was already granted"
                elif rules.dogs_life == "once-per-player" and s in g.granted_ever:
                    reasons[s] = "it already had its dog's life"
                else:
                    granted.append(s)
                    continue
                eliminated.append(s)

        got = c.seat_list(rd.get("eliminated"), f"{p}.eliminated")
        for s in sorted(set(got) ^ set(eliminated)):
            if s in eliminated and sweep:
                self.fail(f"seat {s} is not eliminated but {reasons[s]}", s)
            if s in eliminated:
                self.fail(f"seat {s} took no trick but is not eliminated ({reasons[s]})", s)
            if s not in dealt:
                self.fail(f"seat {s} is eliminated but was already out", s)
            if won[s] > 0:
                self.fail(f"seat {s} is eliminated but took {won[s]} tricks", s)
            self.fail(f"seat {s} is eliminated but should be granted a dog's life", s)
        got = c.seat_list(rd.get("dogs_life_granted"), f"{p}.dogs_life_granted")
        for s in sorted(set(got) ^ set(granted)):
            if s in granted:
                self.fail(f"seat {s} took no trick and should be granted a dog's life", s)
            if s in reasons:
                self.fail(
                    f"seat {s} is granted a dog's life but should be eliminated ({reasons[s]})", s
                )
            self.fail(f"seat {s} is granted a dog's life but does not qualify for one", s)
        got = c.seat_list(rd.get("revived"), f"{p}.revived")
        for s in sorted(set(got) ^ set(revived)):
            if s in revived:
                self.fail(f"seat {s} won a trick on a dog's life but is not listed as revived", s)
            self.fail(f"seat {s} is listed as revived but was not a dog's life that won", s)

        for s in eliminated:
            g.in_game[s] = False
        g.dogs = granted
        g.granted_ever.update(granted)
        g.won = [won[s] if s in dealt else None for s in range(self.n)]
        remaining = [s for s in range(self.n) if g.in_game[s]]
        if sweep:
            g.over, g.winner = True, sweepers[0]
        elif len(remaining) == 1:
            g.over, g.winner = True, remaining[0]
        elif hand_size == 1:
            g.over = True

    def tricks_won(self, value: object, won: list[int], dealt: list[int], allow_null: bool) -> None:
        c, p = self.c, self.path
        if value is None and allow_null:
            return
        items = c.list_(value, f"{p}.tricks_won")
        if len(items) != self.n:
            self.fail(f"{p}.tricks_won: expected {self.n} counts (one per seat), got {len(items)}")
        for s, item in enumerate(items):
            if s not in dealt:
                if item is not None:
                    self.fail(f"tricks_won[{s}] should be null: seat {s} was not dealt in", s)
                continue
            count = c.any_int(item, f"{p}.tricks_won[{s}]")
            if count != won[s]:
                self.fail(f"tricks_won[{s}] is {count} but seat {s} won {won[s]} tricks", s)
