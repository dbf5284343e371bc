"""Card models of the other players (kow.players.models) and the mixture that weighs deals."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from test_inference import _first_lead  # seat 0 leads the 9s, as the heuristic would

from kow.cards import NO_CARD, NO_SUIT, mask_of, parse_card
from kow.engine.view import TrickFacts
from kow.events import KNOCK
from kow.players import models
from kow.players.inference import (
    HEURISTIC,
    MIXTURE,
    SEARCHER,
    UNIFORM,
    Mixture,
    weighed_deals,
)
from kow.players.models import (
    CLASSES,
    CONTEXTS,
    KNOCK_CLASS,
    NOISE,
    card_class,
    context,
    heuristic_chance,
    read_table,
    searcher_card,
    searcher_chance,
    table_chance,
)
from kow.players.sampling import Sampler
from kow.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
HEARTS = 2


def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def c(text: str) -> int:
    return parse_card(text)


def facts(
    hand: str, *, legal: str | None = None, seen: str = "", winning: str | None = None,
    led: int = NO_SUIT, to_come: bool = True, won: int = 0, may_knock: bool = False,
) -> TrickFacts:  # fmt: skip
    return TrickFacts(
        seat=0, hand=m(hand), legal=m(legal if legal is not None else hand),
        may_knock=may_knock, seen=m(seen), winning=NO_CARD if winning is None else c(winning),
        led=led, trump=HEARTS, to_come=to_come, won=won, tricks_left=7,
    )  # fmt: skip


# Clubs led, the Kc winning so far, hearts trump; the seat holds Ac 3c 7c 5h and must
# follow with a club. The Ac wins, no unseen club beats it, and it is an ace, the
# highest of its clubs; the 3c is its lowest club; the 7c is between.
FOLLOW = facts("Ac 3c 7c 5h", legal="Ac 3c 7c", seen="Kc", winning="Kc", led=0)


def test_each_card_has_the_class_of_what_it_is_in_the_trick() -> None:
    assert CONTEXTS[context(FOLLOW)] == "follow, needs a trick, holds the led suit"
    assert CLASSES[card_class(FOLLOW, c("Ac"))] == "side winner boss high highest"
    assert CLASSES[card_class(FOLLOW, c("3c"))] == "side lowest"
    assert CLASSES[card_class(FOLLOW, c("7c"))] == "side middle"


def test_leading_trumps_are_classed_by_rank_and_bosses() -> None:
    # Leading with a trick: the Qh is no boss (Kh and Ah unseen) but a queen, the
    # highest of its hearts; the 2h the lowest; the 9s alone in its suit is its lowest.
    lead = facts("2h Qh 9s", won=1)
    assert CONTEXTS[context(lead)] == "lead, has a trick"
    assert CLASSES[card_class(lead, c("Qh"))] == "trump high highest"
    assert CLASSES[card_class(lead, c("2h"))] == "trump lowest"
    assert CLASSES[card_class(lead, c("9s"))] == "side lowest"
    # Once the Ah and Kh are seen, the Qh is the boss of trumps.
    seen = facts("2h Qh 9s", won=1, seen="Ah Kh")
    assert CLASSES[card_class(seen, c("Qh"))] == "trump boss high highest"


def test_a_void_last_player_that_ruffs_has_a_trump_winner() -> None:
    last = facts("4h 9d", seen="As Ks", winning="As", led=3, to_come=False, won=1)
    assert CONTEXTS[context(last)] == "last, has a trick, void"
    assert CLASSES[card_class(last, c("4h"))] == "trump winner lowest"
    assert CLASSES[card_class(last, c("9d"))] == "side lowest"


def _table(weight: float, *, ctx: int, cls: int) -> list[list[float]]:
    table = [[1.0] * len(CLASSES) for _ in CONTEXTS]
    table[ctx][cls] = weight
    return table


def test_a_cards_chance_is_its_weight_over_the_legal_cards_weights() -> None:
    table = _table(3.0, ctx=context(FOLLOW), cls=card_class(FOLLOW, c("Ac")))
    assert table_chance(table, FOLLOW, c("Ac")) == 3 / 5
    assert table_chance(table, FOLLOW, c("3c")) == 1 / 5
    assert table_chance(table, FOLLOW, c("7c")) == 1 / 5
    # A dog's life may knock: the knock is one more action, of its own class.
    dog = facts("Ks", may_knock=True, seen="As", winning="As", led=3)
    knock = _table(4.0, ctx=context(dog), cls=KNOCK_CLASS)
    assert table_chance(knock, dog, KNOCK) == 4 / 5
    assert table_chance(knock, dog, c("Ks")) == 1 / 5


def test_the_heuristic_model_puts_most_of_its_chance_on_the_heuristic_card() -> None:
    # Needing a trick, no sure winner (trumps are out): the heuristic plays its lowest club.
    assert heuristic_chance(FOLLOW, c("3c")) == pytest.approx(1 - NOISE + NOISE / 3)
    assert heuristic_chance(FOLLOW, c("Ac")) == pytest.approx(NOISE / 3)


def test_the_searcher_model_plays_its_likeliest_class() -> None:
    weights = models.SEARCHER[context(FOLLOW)]
    # The greatest weight; a tie to the lower card.
    best = max(
        (c(x) for x in ("Ac", "3c", "7c")), key=lambda x: (weights[card_class(FOLLOW, x)], -x)
    )
    assert searcher_card(FOLLOW) == best
    total = sum(searcher_chance(FOLLOW, c(card)) for card in ("Ac", "3c", "7c"))
    assert total == pytest.approx(1.0)


def test_the_shipped_table_is_read_whole() -> None:
    assert len(models.SEARCHER) == len(CONTEXTS)
    assert all(len(row) == len(CLASSES) and min(row) > 0 for row in models.SEARCHER)
    data = json.loads((ROOT / "kow" / "players" / "searcher.json").read_text(encoding="utf-8"))
    assert data["fitted_by"] == "python benchmarks/fit_models.py"
    assert sum(data["decisions"]) == 6720
    # It ships in the package: what an installed kow reads (the compiled build of CI is
    # installed from a wheel, not run from the checkout).
    assert resources.files("kow.players").joinpath("searcher.json").is_file()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[", "t.json: not JSON"),
        ("[]", "t.json: not a JSON object"),
        ('{"contexts": [], "classes": []}', "t.json: its contexts or classes are not this kow's"),
        (None, "t.json: weight [1][2] is -1, not a positive number"),
    ],
)
def test_a_bad_table_file_is_refused_with_its_fault(text: str | None, message: str) -> None:
    if text is None:
        rows = [[1.0] * len(CLASSES) for _ in CONTEXTS]
        rows[1][2] = -1
        text = json.dumps({"contexts": list(CONTEXTS), "classes": list(CLASSES), "weights": rows})
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_table(text, name="t.json")


def test_a_seats_chance_is_the_prior_weighted_sum_of_its_models_chances() -> None:
    view = _first_lead().view()
    mixture = Mixture(view)
    now = m("2c 8c 5d 7d 3h 4h")  # seat 0's hand after its lead
    then = facts("2c 8c 5d 7d 9s 3h 4h", seen="Jh")._replace(trump=view.trump)
    h = heuristic_chance(then, c("9s"))
    s = searcher_chance(then, c("9s"))
    assert h == pytest.approx(1 - NOISE + NOISE / 7)
    chance, likeliest = mixture.chances(0, now)
    assert chance == pytest.approx(MIXTURE[HEURISTIC] * h + MIXTURE[SEARCHER] * s
                                   + MIXTURE[UNIFORM] / 7)  # fmt: skip
    assert likeliest == (SEARCHER if s > h else HEURISTIC)
    # A hand from which the heuristic would have led another card: its heuristic
    # chance is NOISE / 7 alone.
    other = m("Kd 8c 5d 7d 3h 4h")
    chance, _ = mixture.chances(0, other)
    then = facts("Kd 8c 5d 7d 9s 3h 4h", seen="Jh")._replace(trump=view.trump)
    assert chance == pytest.approx(MIXTURE[HEURISTIC] * NOISE / 7
                                   + MIXTURE[SEARCHER] * searcher_chance(then, c("9s"))
                                   + MIXTURE[UNIFORM] / 7)  # fmt: skip


def test_weighed_deals_stand_for_the_deals_asked_and_repeat_with_the_seed() -> None:
    view = _first_lead().view()
    sampler = Sampler(view)
    first = weighed_deals(view, sampler, random.Random(4), iterations=50)
    again = weighed_deals(view, sampler, random.Random(4), iterations=50)
    assert first == again
    assert sum(w.times for w in first) == 50
    for w in first:
        assert w.hands[1] == m("Ac Kc Qc Jc Tc 9c 7c")  # the seat's own hand, as seen
        assert w.models[1] == HEURISTIC  # the searching seat: nothing to explain
        assert w.models[0] in (HEURISTIC, SEARCHER)


def _fit_models():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "fit_models", ROOT / "benchmarks" / "fit_models.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fit_finds_the_maximum_likelihood_weights() -> None:
    # One kind of decision, a card of class 0 against one of class 1: class 0 chosen 75
    # times, class 1 25 times. With one pseudo-decision per class pulling towards
    # weight 1, the fixed point is w0 = 76 / 51, w1 = 26 / 51 (their sum is 2, so each
    # is (chosen + 1) / (100 / 2 + 1)).
    counts = [0] * len(CLASSES)
    counts[0] = counts[1] = 1
    seen: Counter[tuple[tuple[int, ...], int]] = Counter(
        {(tuple(counts), 0): 75, (tuple(counts), 1): 25}
    )
    weights = _fit_models().fit(seen)
    assert weights[0] == float(f"{76 / 51:.4g}")
    assert weights[1] == float(f"{26 / 51:.4g}")
    assert weights[2:] == [1.0] * (len(CLASSES) - 2)  # never available: weight 1


def test_the_shipped_table_is_what_its_script_fits_on_the_shipped_games(tmp_path: Path) -> None:
    out = tmp_path / "searcher.json"
    script = ROOT / "benchmarks" / "fit_models.py"
    data = ROOT / "benchmarks" / "data" / "ismcts-seed2.jsonl.gz"
    done = subprocess.run(
        [sys.executable, str(script), "--logs", str(data), "-o", str(out)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shipped = ROOT / "kow" / "players" / "searcher.json"
    assert out.read_bytes() == shipped.read_bytes()


def _evidence_after(
    kinds: tuple[str, ...], seed: int, rounds: int
) -> list[tuple[float, float, float]]:
    """Play ``rounds`` rounds of a game of ``kinds`` and return seat 0's Evidence weights."""
    from kow.game import bots_rng, new_game
    from kow.players import make_bot
    from kow.players.inference import Evidence

    state = new_game(Rules(), seed)
    rng = bots_rng(seed)
    bots = [make_bot(kind, f"b{s}", rng) for s, kind in enumerate(kinds)]
    evidence = Evidence(len(kinds))
    while state.outcome is None:
        view = state.view()
        if view.round > rounds:
            break
        if view.seat == 0:
            evidence.see(view)
        state.apply(bots[view.seat].act(view))
    return evidence.priors()


def test_evidence_finds_the_heuristic_players_after_a_round() -> None:
    # Seat 0 watches three heuristic bots for two rounds: from the plays it saw of round 1
    # (a seat that played out its hand exactly, one holding its last card averaged over
    # what it may hold), the heuristic model explains them far better than the others.
    weights = _evidence_after(("random", "heuristic", "heuristic", "heuristic"), 3, 2)
    assert weights[0] == MIXTURE  # its own seat: nothing to learn
    for seat in (1, 2, 3):
        h, s, u = weights[seat]
        assert h > 0.9 and h + s + u == pytest.approx(1.0), (seat, weights[seat])


def test_evidence_finds_random_players_unlike_the_heuristic() -> None:
    # Three rounds of random play: the heuristic model is all but ruled out for each seat
    # (the searcher and uniform models share the rest: a few random plays can look like
    # a searcher's).
    weights = _evidence_after(("heuristic", "random", "random", "random"), 3, 3)
    for seat in (1, 2, 3):
        assert weights[seat][0] < 0.1, (seat, weights[seat])


def test_evidence_starts_again_with_a_new_game() -> None:
    from kow.players.inference import Evidence

    first = _first_lead().view()
    evidence = Evidence(4)
    evidence.weights[2] = (0.0, 1.0, 0.0)
    evidence.see(first._replace(round=3))
    evidence.see(first)  # round 1 again: a new game
    assert evidence.priors() == [MIXTURE] * 4
