"""Walk one game's log against the rules: the game, its rounds, tricks and ends of round.

Part of the verifier, a second implementation of the rules that is deliberately independent
of the engine: this package imports nothing from the rest of :mod:`kow` and shares no code
with the engine, so that a bug in one is caught by the other. The walk goes through a parsed
log (``docs/log-format.md``, version 1) round by round, trick by trick and play by play,
reading every value through the typed accessors of :mod:`._shape`, and stops at the first
fault. How each round's trump is set is checked in :mod:`._trump`.

Rules text: seed 000 ("Mise en place et Distribution", "Déroulement du jeu", "Variantes
courantes") and seed 002 (the dog's life, once per game); the variants are the fields of
the log's ``rules`` object. Where the sources leave a choice open, this follows the rules
as kow implements them (``docs/log-format.md``).
"""

from __future__ import annotations

from typing import NoReturn

from ._shape import (
    DOGS_LIFE,
    END_KEYS,
    FORMAT,
    KINDS,
    LEADS,
    MAX_CUT,
    MAX_ITERATIONS,
    MAX_KOW_VERSION,
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    ROUND_KEYS,
    RULE_KEYS,
    SETTINGS,
    TERMINATIONS,
    TOP_KEYS,
    TRICK_KEYS,
    TRUMPS,
    VERSION,
    Shape,
    name_fault,
    rank_of,
    show,
    show_seats,
    suit_of,
)
from ._table import Game, Rules, after, before
from ._trump import TrumpCheck

__all__ = ["Checker"]


def _count(n: int, noun: str) -> str:
    """Return ``n`` with ``noun``, plural unless ``n`` is 1.

    >>> _count(1, "trick"), _count(0, "trick")
    ('1 trick', '0 tricks')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class Checker(Shape):
    """Walk one log, keeping the game's state; ``fail`` stops at the first fault."""

    def game(self, log: object) -> None:
        """Check the whole log: the header, every round, then the ``result``."""
        if not isinstance(log, dict):
            self.fail(f"the log is not a JSON object: got {show(log)}")
        top = self.obj(log, "", TOP_KEYS, optional=("abandoned",))
        if top["format"] != FORMAT or not isinstance(top["format"], str):
            self.fail(f"format: expected {FORMAT!r}, got {show(top['format'])}")
        version = top["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
            self.fail(f"version: expected {VERSION}, got {show(version)}")
        self.ascii_text(top["kow_version"], "kow_version", MAX_KOW_VERSION)
        seed = top["seed"]  # null (since 0.5.0): the deals came from outside kow
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                self.fail(f"seed: expected an int from 0 to {MAX_SEED} or null, got {show(seed)}")
            self.int_(seed, "seed", lo=0, hi=MAX_SEED)
        rules = self.rules(top["rules"])
        self.n = rules.players
        self.players(top["players"])
        abandoned = False
        if "abandoned" in top:
            if top["abandoned"] is not True:
                self.fail(f"abandoned: expected true or no key, got {show(top['abandoned'])}")
            abandoned = True
        game = self.rounds(top["rounds"], rules, abandoned)
        winner = game.winner
        self.round = self.trick = None
        rounds_played = len(self.list_(top["rounds"], "rounds"))
        result = self.obj(
            top["result"], "result", ("winner", "rounds_played"), optional=("termination",)
        )
        got = self.opt_seat(result["winner"], "result.winner")
        if abandoned:
            if got is not None:
                self.fail(f"result.winner is seat {got} but a game cut short has no winner", got)
        elif got != winner:
            shown = "null" if got is None else f"seat {got}"
            self.fail(f"result.winner is {shown} but seat {winner} won the game", got)
        played = self.any_int(result["rounds_played"], "result.rounds_played")
        if played != rounds_played:
            self.fail(
                f"result.rounds_played is {played} but the log has {_count(rounds_played, 'round')}"
            )
        if "termination" in result:  # optional: kow 0.5.0 and before did not write it
            self.termination(result["termination"], game, rounds_played, abandoned=abandoned)

    def termination(
        self, value: object, game: Game, rounds_played: int, *, abandoned: bool
    ) -> None:
        """Check ``result.termination``: why the game ended, as the walk found it.

        Null in a game cut short; else ``"final-trick"`` when the game ended with the
        1-card round (rules text, 'Victoire'), ``"sweep"`` when a player took every trick
        of a round under ``rules.sweep_wins`` ('Déroulement du jeu' 6), and
        ``"last-standing"`` when every other player was knocked out ('Victoire').
        """
        path = "result.termination"
        if abandoned:
            if value is not None:
                self.fail(f"{path} is {show(value)} but a game cut short has none (null)")
            return
        if value is None:
            self.fail(f"{path}: expected one of {', '.join(map(repr, TERMINATIONS))}, got null")
        got = self.choice(value, path, TERMINATIONS)
        if got != game.termination:
            why = {
                "final-trick": "took the only trick of the 1-card round",
                "sweep": "took every trick of the round (rules.sweep_wins)",
                "last-standing": "was the last one left in",
            }[str(game.termination)]
            self.fail(
                f"{path} is {got!r} but the game ended {game.termination!r}: seat "
                f"{game.winner} {why} in round {rounds_played}",
                game.winner,
            )

    def rules(self, value: object) -> Rules:
        """Read the ``rules`` object; ``start_cards`` must leave a card to turn up."""
        data = self.obj(value, "rules", RULE_KEYS)
        players = self.int_(data["players"], "rules.players", lo=MIN_PLAYERS, hi=MAX_PLAYERS)
        most = (52 - 1) // players
        return Rules(
            players=players,
            start_cards=self.int_(data["start_cards"], "rules.start_cards", lo=1, hi=most),
            dogs_life=self.choice(data["dogs_life"], "rules.dogs_life", DOGS_LIFE),
            trump=self.choice(data["trump"], "rules.trump", TRUMPS),
            final_round_trump=self.bool_(data["final_round_trump"], "rules.final_round_trump"),
            lead=self.choice(data["lead"], "rules.lead", LEADS),
            eliminated_vote=self.bool_(data["eliminated_vote"], "rules.eliminated_vote"),
            sweep_wins=self.bool_(data["sweep_wins"], "rules.sweep_wins"),
        )

    def players(self, value: object) -> None:
        """Check the ``players`` list: one per seat, in seat order, of a known kind."""
        items = self.list_(value, "players")
        if len(items) != self.n:
            self.fail(f"players: expected {self.n} players (rules.players), got {len(items)}")
        for i, item in enumerate(items):
            path = f"players[{i}]"
            player = self.obj(item, path, ("seat", "name", "kind"), optional=("settings",))
            seat = self.seat(player["seat"], f"{path}.seat")
            if seat != i:
                self.fail(f"{path}.seat is {seat} but should be {i} (players are in seat order)")
            fault = name_fault(player["name"])
            if fault is not None:
                self.fail(f"{path}.name: {fault}")
            kind = self.choice(player["kind"], f"{path}.kind", KINDS)
            if "settings" in player:
                allowed = SETTINGS.get(kind, ())
                if not allowed:
                    self.fail(f"{path}.settings: a player of kind {kind!r} has no settings")
                settings = self.obj(player["settings"], f"{path}.settings", allowed)
                for key in allowed:
                    self.int_(settings[key], f"{path}.settings.{key}", lo=1, hi=MAX_ITERATIONS)

    def rounds(self, value: object, rules: Rules, abandoned: bool) -> Game:
        """Walk the rounds; return the game as they leave it (``winner`` None if the game is
        unfinished)."""
        items = self.list_(value, "rounds")
        game = Game(rules, self.n)
        for index, item in enumerate(items):
            self.round = index + 1
            self.trick = None
            if game.over:
                self.fail(
                    f"round {index + 1} follows the end of the game "
                    f"(seat {game.winner} won in round {index})"
                )
            partial_ok = abandoned and index == len(items) - 1
            Round(self, game, index, partial_ok=partial_ok).check(item)
        self.round = self.trick = None
        if not game.over and not abandoned:
            still = [s for s in range(self.n) if game.in_game[s]]
            if not items:
                self.fail("rounds is empty but a game has at least one round")
            self.fail(
                f"the log ends after round {len(items)} but the game is not over: "
                f"seats {show_seats(still)} are still in"
            )
        return game


class Round:
    """Check one round against the game so far, then update the game."""

    def __init__(self, checker: Checker, game: Game, index: int, *, partial_ok: bool) -> None:
        self.c = checker
        self.g = game
        self.r = index + 1
        self.path = f"rounds[{index}]"
        self.partial_ok = partial_ok
        self.n = checker.n
        self.held: list[list[str]] = [[] for _ in range(self.n)]
        self.seen: dict[str, int] = {}
        self.dogs_life: list[int] = []
        self.played = 0

    def fail(self, message: str, seat: int | None = None) -> NoReturn:
        """Stop the walk with a fault in this round (raises ``Stop``, always)."""
        self.c.fail(message, seat)

    def check(self, value: object) -> None:
        """Check the round in the order it is played, then update the game."""
        c, g, p, r = self.c, self.g, self.path, self.r
        rules = g.rules
        optional = END_KEYS if self.partial_ok else ()
        keys = ROUND_KEYS if self.partial_ok else ROUND_KEYS + END_KEYS
        rd = c.obj(value, p, keys, optional=optional)

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
            want = after(g.dealer, g.in_game)
            if dealer != want:
                self.fail(
                    f"dealer is seat {dealer} but should be seat {want}, the next seat "
                    f"in the game after seat {g.dealer}",
                    dealer,
                )
        cut = c.obj(rd["cut"], f"{p}.cut", ("by", "position"))
        by = c.seat(cut["by"], f"{p}.cut.by")
        want = before(dealer, g.in_game)
        if by != want:
            self.fail(f"cut by seat {by} but should be by seat {want}, the dealer's right", by)
        c.int_(cut["position"], f"{p}.cut.position", lo=1, hi=MAX_CUT)

        dogs_life = c.seat_list(rd["dogs_life"], f"{p}.dogs_life")
        if dogs_life != g.dogs_life:
            self.fail(
                f"dogs_life is {show_seats(dogs_life)} but should be {show_seats(g.dogs_life)}, "
                "the seats granted a dog's life last round"
            )
        self.dogs_life = dogs_life
        self.hands(rd["hands"], hand_size)
        turned_up = self.turned_up(rd["turned_up"], hand_size)
        trump_check = TrumpCheck(c, g, index=r - 1, dealer=dealer, hand_size=hand_size)
        if self.partial_ok and trump_check.cut_short(rd):
            self.end(rd, [0] * self.n, False, hand_size=hand_size)
            return
        trump, mt = trump_check.check(rd, turned_up)

        leader = c.seat(rd["leader"], f"{p}.leader")
        if r == 1 or rules.lead == "dealer-left" or mt is None:
            want, why = after(dealer, g.in_game), "the dealer's left"
        else:
            want, why = mt, "who took the most tricks last round"
        if leader != want:
            self.fail(f"leader is seat {leader} but should be seat {want} ({why})", leader)

        won, complete = self.tricks(rd["tricks"], leader, hand_size, trump=trump)
        self.c.trick = None
        if r == 1:
            g.first_trump = trump
        self.end(rd, won, complete, hand_size=hand_size)
        g.dealer = dealer

    # -- the deal --------------------------------------------------------------------------

    def hands(self, value: object, hand_size: int) -> None:
        """Check the dealt hands: one card on a dog's life, none once out, no card twice."""
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
            want = 1 if seat in self.dogs_life else hand_size
            if len(cards) != want:
                why = " (on a dog's life)" if seat in self.dogs_life else ""
                dealt = _count(len(cards), "card")
                self.fail(f"seat {seat} was dealt {dealt} but should get {want}{why}", seat)
            for i, card_value in enumerate(cards):
                card = c.card_at(card_value, path, index=i)
                if card in self.seen:
                    self.fail(
                        f"card {card} is dealt twice: to seat {self.seen[card]} and seat {seat}",
                        seat,
                    )
                self.seen[card] = seat
                self.held[seat].append(card)

    def turned_up(self, value: object, hand_size: int) -> str | None:
        """Check the turned-up card (round 1 only, unless it has no trump); return it."""
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

    # -- tricks --------------------------------------------------------------------------------

    def tricks(
        self, value: object, leader: int, hand_size: int, *, trump: str | None
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
                self.fail(f"round has {_count(len(items), 'trick')} but should have {hand_size}")
            tr = c.obj(item, path, TRICK_KEYS)
            number = c.any_int(tr["number"], f"{path}.number")
            if number != t + 1:
                self.fail(f"trick number is {number} but should be {t + 1}")
            if last_winner is None:
                want, why = leader, "the round's leader"
            elif last_winner in self.dogs_life:
                want = self.holder_after(last_winner)
                why = f"left of seat {last_winner}, who won the last trick on a dog's life"
            else:
                want, why = last_winner, "winner of the last trick"
            got = c.seat(tr["leader"], f"{path}.leader")
            if got != want:
                self.fail(f"trick leader is seat {got} but should be seat {want} ({why})", got)
            order = [s for s in ((got + k) % self.n for k in range(self.n)) if self.held[s]]
            cards = self.plays(tr["plays"], f"{path}.plays", order, last=t + 1 == hand_size)
            if tr["winner"] is None and self.partial_ok and t == len(items) - 1:
                return won, False  # a trick cut short
            if self.played < len(order):
                missing = order[self.played]
                self.fail(
                    f"seat {missing} did not play: the trick has {_count(self.played, 'play')}",
                    missing,
                )
            winner = c.seat(tr["winner"], f"{path}.winner")
            self.check_winner(winner, cards, trump)
            won[winner] += 1
            last_winner = winner
        c.trick = None
        if len(items) < hand_size:
            if self.partial_ok:
                return won, False
            self.fail(f"round has {_count(len(items), 'trick')} but should have {hand_size}")
        return won, True

    def holder_after(self, seat: int) -> int:
        """Return the next seat clockwise after ``seat`` that still holds a card."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.held[other]:
                return other
        return seat

    def plays(
        self, value: object, path: str, order: list[int], *, last: bool
    ) -> list[tuple[int, str]]:
        """Check the plays of a trick; return the cards played, as (seat, card)."""
        c = self.c
        items = c.list_(value, path)
        cards: list[tuple[int, str]] = []
        led: str | None = None
        self.played = 0
        for j, item in enumerate(items):
            play = c.obj_at(item, path, index=j, keys=("seat",), optional=("card", "knock"))
            seat = c.seat_at(play["seat"], path, index=j, key="seat")
            if j >= len(order):
                self.fail(
                    f"seat {seat} played out of turn: every seat holding a card has played",
                    seat,
                )
            if seat != order[j]:
                self.fail(f"seat {seat} played out of turn: seat {order[j]} was to play", seat)
            if ("card" in play) == ("knock" in play):
                self.fail(f"{path}[{j}]: a play has either a 'card' or 'knock': true", seat)
            self.played = j + 1
            if "knock" in play:
                if play["knock"] is not True:
                    self.fail(f"{path}[{j}].knock: expected true, got {show(play['knock'])}", seat)
                if seat not in self.dogs_life:
                    self.fail(f"seat {seat} knocked but is not on a dog's life", seat)
                if last:
                    self.fail(
                        f"seat {seat} knocked on the last trick: a player on a dog's life "
                        "must play the card by then",
                        seat,
                    )
                continue
            card = c.card_at(play["card"], path, index=j, key="card")
            hand = self.held[seat]
            if card not in hand:
                self.fail(f"seat {seat} played {card} but does not hold it", seat)
            if led is None:
                led = suit_of(card)
            elif suit_of(card) != led:
                follow = [h for h in hand if suit_of(h) == led]
                if follow:
                    self.fail(
                        f"seat {seat} played {card} but holds {follow[0]} of the led suit {led}",
                        seat,
                    )
            hand.remove(card)
            cards.append((seat, card))
        return cards

    def check_winner(self, winner: int, cards: list[tuple[int, str]], trump: str | None) -> None:
        """Check the trick's winner: the highest trump, else the highest card of the led suit."""
        if not cards:
            self.fail("no card was played in this trick")
        led = suit_of(cards[0][1])
        seat, card, top, trumped = -1, "", -1, False  # the best card so far, its rank
        for s, x in cards:  # a card is played once: no two of one suit tie
            suit = suit_of(x)
            if suit == trump and (not trumped or rank_of(x) > top):
                seat, card, top, trumped = s, x, rank_of(x), True
            elif not trumped and suit == led and rank_of(x) > top:
                seat, card, top = s, x, rank_of(x)
        if winner != seat:
            what = (
                f"the highest trump {card}"
                if trumped
                else f"{card}, the highest card of the led suit {led}"
            )
            self.fail(f"trick winner is seat {winner} but seat {seat} played {what}", winner)

    # -- end of round ---------------------------------------------------------------------------

    def end(self, rd: dict[str, object], won: list[int], complete: bool, *, hand_size: int) -> None:
        """Check the end of the round: eliminations, dog's lives, revivals and sweeps."""
        c, g, p = self.c, self.g, self.path
        rules = g.rules
        dealt = [s for s in range(self.n) if g.in_game[s]]
        if self.partial_ok and all(rd.get(k) is None for k in END_KEYS):
            return
        if self.partial_ok and not complete:
            # A round cut short: nothing is decided yet.
            self.tricks_won(rd.get("tricks_won"), won, dealt, allow_null=True)
            for key in END_KEYS[1:]:
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
        revived = [s for s in self.dogs_life if won[s] > 0]
        if sweep:
            eliminated = [s for s in dealt if s != sweepers[0]]
            for s in eliminated:
                reasons[s] = f"seat {sweepers[0]} won every trick (rules.sweep_wins)"
        else:
            for s in dealt:
                if won[s] > 0:
                    continue
                if s in self.dogs_life:
                    reasons[s] = "it was on a dog's life"
                elif hand_size == 1:
                    reasons[s] = "in the 1-card round"
                elif rules.dogs_life == "off":
                    reasons[s] = "rules.dogs_life is 'off'"
                elif rules.dogs_life == "once-per-game" and g.dogs_life_used:
                    reasons[s] = "the one dog's life of the game was already granted"
                elif rules.dogs_life == "once-per-player" and s in g.dogs_life_used:
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
                self.fail(f"seat {s} is eliminated but took {_count(won[s], 'trick')}", s)
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
        g.dogs_life = granted
        g.dogs_life_used.update(granted)
        g.won = [won[s] if s in dealt else None for s in range(self.n)]
        remaining = [s for s in range(self.n) if g.in_game[s]]
        if sweep:
            g.over, g.winner = True, sweepers[0]
        elif len(remaining) == 1:
            g.over, g.winner = True, remaining[0]
        elif hand_size == 1:
            g.over = True
        if g.over:  # the 1-card round ends the game whoever is left; then a sweep
            g.termination = (
                "final-trick" if hand_size == 1 else "sweep" if sweep else "last-standing"
            )

    def tricks_won(
        self, value: object, won: list[int], dealt: list[int], *, allow_null: bool
    ) -> None:
        """Check ``tricks_won``: the tricks each seat dealt in won, null for the others."""
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
                self.fail(
                    f"tricks_won[{s}] is {count} but seat {s} won {_count(won[s], 'trick')}", s
                )
