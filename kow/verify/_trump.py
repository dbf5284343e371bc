"""Check how a round's trump is set: the method, the votes, the tie cut and the suit.

Part of the verifier, which is deliberately independent of the engine: this module imports
nothing from the rest of :mod:`kow`. Trump is the suit turned up in round 1, or stays that
suit (``rules.trump`` is ``"fixed"``), or is chosen by last round's most-tricks player, or
is voted by the knocked-out seats (``rules.eliminated_vote``); the 1-card round has none
unless ``rules.final_round_trump``. A tie for the most tricks is settled by cuts from the
dealer's left. Rules text: seed 000, "Déroulement du jeu" and "Variantes courantes".
"""

from __future__ import annotations

from ._shape import SUITS, TRUMP_METHODS, Shape, rank_of, show_seats, suit_of
from ._table import Game, from_left

__all__ = ["TrumpCheck"]

_METHOD_REASONS = {
    "none": "the 1-card round has no trump (final_round_trump is false)",
    "turned-up": "round 1's trump is the suit of the turned-up card",
    "fixed": "trump stays the suit turned up in round 1 (rules.trump is 'fixed')",
    "vote": "knocked-out seats vote for trump (rules.eliminated_vote)",
    "chosen": "last round's most-tricks player chooses trump",
}


def _or_null(value: str | None) -> str:
    return "null" if value is None else value


class TrumpCheck:
    """Check the trump of one round, dealt by ``dealer`` with ``hand_size`` cards a seat.

    ``index`` is the round's place in ``rounds``, from 0. ``game`` is the game before this
    round; nothing here changes it. Faults stop the walk through ``shape``.
    """

    def __init__(
        self, shape: Shape, game: Game, *, index: int, dealer: int, hand_size: int
    ) -> None:
        self.c = shape
        self.g = game
        self.r = index + 1
        self.path = f"rounds[{index}]"
        self.n = shape.n
        self.dealer = dealer
        self.hand_size = hand_size

    def method(self) -> tuple[str, list[int]]:
        """Return how trump is set this round, and the knocked-out seats from dealer's left."""
        g, r = self.g, self.r
        rules = g.rules
        out = from_left(self.dealer, [s for s in range(self.n) if not g.in_game[s]], g.in_game)
        if self.hand_size == 1 and not rules.final_round_trump:
            return "none", out
        if r == 1:
            return "turned-up", out
        if rules.trump == "fixed":
            return "fixed", out
        if rules.eliminated_vote and out:
            return "vote", out
        return "chosen", out

    def cut_short(self, rd: dict[str, object]) -> bool:
        """Check a round cut short before trump was set; return whether it was.

        Call it only for the last round of an abandoned game.
        """
        if rd["trump_method"] is not None:
            return False
        method, out = self.method()
        if method not in ("vote", "chosen"):
            return False  # no player decides: the method must be there
        self.votes(rd["votes"], method, out, cut_short=True)
        if rd["tie_cut"] is not None:
            self.tie_cut(rd["tie_cut"], needed=True)
        for key in ("trump", "trump_chosen_by", "leader"):
            if rd[key] is not None:
                self.c.fail(f"{key} must be null: the round was cut short before trump was set")
        if self.c.list_(rd["tricks"], f"{self.path}.tricks"):
            self.c.fail("tricks must be empty: the round was cut short before trump was set")
        return True

    def check(self, rd: dict[str, object], turned_up: str | None) -> tuple[str | None, int | None]:
        """Check trump, its method, votes and tie cut; return trump and most-tricks seat."""
        c, g, p, r = self.c, self.g, self.path, self.r
        rules = g.rules
        method, out = self.method()
        got_method = c.choice(rd["trump_method"], f"{p}.trump_method", TRUMP_METHODS)
        if got_method != method:
            c.fail(
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
        mt = self.tie_cut(rd["tie_cut"], needs_mt)

        def no_chooser() -> None:
            if chosen_by is not None:
                c.fail(
                    f"trump_chosen_by is seat {chosen_by} but nobody chooses trump "
                    f"under trump_method {method!r}",
                    chosen_by,
                )

        def chooser(what: str) -> None:
            if chosen_by != mt:
                shown = "null" if chosen_by is None else f"seat {chosen_by}"
                c.fail(
                    f"{what} by {shown} but should be by seat {mt}, "
                    "who took the most tricks last round",
                    chosen_by,
                )

        if method == "none":
            if trump is not None:
                c.fail(f"trump is {_or_null(trump)} but {_METHOD_REASONS['none']}")
            no_chooser()
        elif method == "turned-up" and turned_up is not None:
            if trump != suit_of(turned_up):
                c.fail(
                    f"trump is {_or_null(trump)} but the turned-up card {turned_up} makes it "
                    f"{suit_of(turned_up)}"
                )
            no_chooser()
        elif method == "fixed":
            if trump != g.first_trump:
                c.fail(
                    f"trump is {_or_null(trump)} but should stay {_or_null(g.first_trump)}, "
                    "the suit turned up in round 1 (rules.trump is 'fixed')"
                )
            no_chooser()
        elif method == "vote" and len(tied_suits) == 1:
            if trump != tied_suits[0]:
                c.fail(f"trump is {_or_null(trump)} but the vote chose {tied_suits[0]}")
            if chosen_by is not None:
                c.fail(f"trump_chosen_by is seat {chosen_by} but the vote was not tied", chosen_by)
        elif method == "vote":
            if trump is None or trump not in tied_suits:
                c.fail(
                    f"trump is {_or_null(trump)} but must be one of the tied suits "
                    + ", ".join(tied_suits)
                )
            chooser("tied vote settled")
        else:
            if trump is None:
                c.fail(f"trump is null but seat {mt} chooses a trump suit")
            chooser("trump chosen")
        return trump, mt

    def votes(
        self, value: object, method: str, out: list[int], *, cut_short: bool = False
    ) -> list[str]:
        """Check the votes; return the suits with the most votes (empty if no vote).

        ``cut_short``: the round stopped during the vote, so some votes may be missing.
        """
        c, p = self.c, self.path
        if not self.g.rules.eliminated_vote:
            if value is not None:
                c.fail("votes must be null when rules.eliminated_vote is false")
            return []
        items = c.list_(value, f"{p}.votes")
        if method != "vote":
            if items:
                c.fail(f"votes must be empty: no vote is held under trump_method {method!r}")
            return []
        counts = dict.fromkeys(SUITS, 0)
        for i, item in enumerate(items):
            path = f"{p}.votes[{i}]"
            vote = c.obj(item, path, ("seat", "suit"))
            seat = c.seat(vote["seat"], f"{path}.seat")
            if i >= len(out):
                c.fail(f"seat {seat} cast an extra vote: each knocked-out seat votes once", seat)
            if seat != out[i]:
                if self.g.in_game[seat]:
                    c.fail(f"seat {seat} voted but is still in the game", seat)
                c.fail(f"seat {seat} voted out of turn: seat {out[i]} was to vote", seat)
            suit = c.opt_suit(vote["suit"], f"{path}.suit")
            if suit is None:
                c.fail(f"{path}.suit: seat {seat} voted for no suit", seat)
            counts[suit] += 1
        if len(items) < len(out) and not cut_short:
            missing = out[len(items)]
            c.fail(f"seat {missing} is knocked out but did not vote", missing)
        best = max(counts.values())
        return [s for s in SUITS if counts[s] == best]

    def tie_cut(self, value: object, needed: bool) -> int | None:
        """Check the tie cut; return the most-tricks seat if one is needed, else ``None``."""
        c, p = self.c, self.path
        if not needed:
            if value is not None:
                c.fail("tie_cut should be null: no most-tricks player is needed this round")
            return None
        counts = [(s, w) for s, w in enumerate(self.g.won) if w is not None]
        if not counts:
            return None
        best = max(w for _, w in counts)
        seats = from_left(self.dealer, [s for s, w in counts if w == best], self.g.in_game)
        if len(seats) == 1:
            if value is not None:
                c.fail(
                    f"tie_cut should be null: seat {seats[0]} alone took the most tricks last round"
                )
            return seats[0]
        passes = c.list_(value, f"{p}.tie_cut")
        if not passes:
            c.fail(f"tie_cut has no pass but seats {show_seats(seats)} tied for the most tricks")
        pending: list[int] | None = seats
        decided = -1
        for k, item in enumerate(passes):
            path = f"{p}.tie_cut[{k}]"
            if pending is None:
                c.fail(f"tie cut has an extra pass {k + 1}: pass {k} already had one highest")
            cuts = c.list_(item, path)
            if len(cuts) != len(pending):
                c.fail(
                    f"tie cut pass {k + 1} has {len(cuts)} cards but seats "
                    f"{show_seats(pending)} should cut"
                )
            cards: list[str] = []
            for j, cut_value in enumerate(cuts):
                cut = c.obj(cut_value, f"{path}[{j}]", ("seat", "card"))
                seat = c.seat(cut["seat"], f"{path}[{j}].seat")
                if seat != pending[j]:
                    c.fail(
                        f"tie cut pass {k + 1} should be cut by seats {show_seats(pending)} "
                        f"in this order, not seat {seat} at place {j + 1}",
                        seat,
                    )
                card = c.card(cut["card"], f"{path}[{j}].card")
                if card in cards:
                    c.fail(f"tie cut pass {k + 1}: card {card} is cut twice", seat)
                cards.append(card)
            top = max(rank_of(card) for card in cards)
            highest = [s for s, card in zip(pending, cards, strict=True) if rank_of(card) == top]
            if len(highest) == 1:
                decided, pending = highest[0], None
            else:
                pending = highest
        if pending is not None:
            c.fail(
                f"tie cut ends with seats {show_seats(pending)} still tied: another pass is needed"
            )
        return decided
