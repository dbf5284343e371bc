"""The rulebook: the rules of a game as a player reads them, each with its source.

It states only the variant in force: with the dog's life off, it says that a player who
takes no trick is knocked out, and has no dog's-life rule. ``kow rules`` prints it, and
``kow play`` shows it when a player types ``rules``. The text is Latin-1 (no suit
symbols), so that any terminal but a pure ASCII one can show it. ``docs/rules.md``
states the same rules at length, with the reasons for each choice.

Sources are named as in ``docs/rules.md``: "the rules text" is seeds 000 (French),
001 (Italian) and 003 (Portuguese), one text whose defaults kow follows, cited by the
headings of 000; seeds 002 and 004 (French) give the traditional rules; "kow's choice"
marks what the sources leave open.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

from .rules import Rules, preset_of

__all__ = ["MIN_WIDTH", "SOURCES", "Rule", "rule_lines", "rulebook"]

MIN_WIDTH = 40
"""The narrowest width :func:`rule_lines` wraps to, in columns."""

SOURCES = (
    "Sources: the rules text is seeds 000 (French), 001 (Italian) and 003 (Portuguese), "
    "one text whose defaults kow follows, cited by the headings of its French version "
    "(000). Seeds 002 and 004 (French) give the traditional rules. kow's choice marks what "
    "the sources leave open."
)
"""What the names in each rule's source stand for."""

_RT = "the rules text"
_DEALING = "'Mise en place et Distribution'"
_PLAY = "'Déroulement du jeu'"
_VARIANTS = "'Variantes courantes'"
_INDENT = "   "


class Rule(NamedTuple):
    """One rule of the rulebook.

    ``title``: a few words ("Knock-out"). ``text``: what the rule says, in sentences;
    ``"\\n"`` separates paragraphs. ``source``: where it comes from, e.g. "the rules
    text, 'Déroulement du jeu' 4; seed 002, 'Elimination'; seed 004", or "kow's choice".
    All three are one line each (``text`` aside), unwrapped, and Latin-1.
    """

    title: str
    text: str
    source: str


def rulebook(rules: Rules) -> list[Rule]:
    """Return the rules in force under ``rules``, in the order of play, each with its source.

    The order: players and cards, rounds, the deal, trump (round 1, later rounds, the
    eliminated vote, ties for the most tricks), tricks, knock-out, the dog's life, leads,
    the final round, the sweep, winning. A rule whose variant is off is left out (the
    dog's life, the vote, the tie cut) or says the variant in force (the sweep). The
    sources are those of ``docs/rules.md``. Raises nothing: ``rules`` is already checked.

    >>> [r.title for r in rulebook(Rules())][-4:]
    ['Leads', 'The final round', 'Sweep', 'Winning']
    >>> "Dog's life" in [r.title for r in rulebook(Rules(dogs_life="once-per-game"))]
    True
    """
    out = [_players(rules), _rounds(rules), _deal(), _first_trump(rules), _later_trump(rules)]
    if rules.eliminated_vote and rules.trump != "fixed":
        out.append(_vote())
    if rules.trump == "winner-chooses" or rules.lead == "most-tricks":
        out.append(_ties(rules))
    out += [_tricks(), _knock_out(rules)]
    if rules.dogs_life != "off":
        out.append(_dogs_life(rules))
    out += [_leads(rules), _final_round(rules), _sweep(rules), _winning(rules)]
    return out


def rule_lines(rules: Rules, width: int = 80) -> list[str]:
    """Return the rulebook of ``rules`` as lines of at most ``width`` columns.

    ``width`` is the terminal's width in columns; below :data:`MIN_WIDTH` (40), 40 is
    used. Words are never broken, and a line never ends in a space. The lines are: a
    title, the settings (and the preset they match, if any), what the sources' names
    mean, then each rule of :func:`rulebook` numbered from 1, its text and its source
    indented by 3. Blank lines separate the parts. No line ends with a newline.

    >>> lines = rule_lines(Rules(), 40)
    >>> lines[0], max(map(len, lines)) <= 40
    ('Knock-Out Whist: the rules of this game', True)
    """
    width = max(width, MIN_WIDTH)
    outer = _wrapper(width, "")
    inner = _wrapper(width, _INDENT)
    preset = preset_of(rules)
    settings = f"{rules.players} players; round 1 deals {rules.start_cards} cards."
    if preset == "traditional":
        settings += " These are the traditional rules of seeds 002 and 004 (preset traditional)."
    elif preset == "rules-text":
        settings += " These are the rules text's rules (preset rules-text)."
    lines = ["Knock-Out Whist: the rules of this game", *outer.wrap(settings), ""]
    lines += outer.wrap(SOURCES)
    for number, rule in enumerate(rulebook(rules), 1):
        lines += ["", *outer.wrap(f"{number}. {rule.title}")]
        for paragraph in rule.text.split("\n"):
            lines += inner.wrap(paragraph)
        lines += inner.wrap(f"Source: {rule.source}.")
    return lines


def _wrapper(width: int, indent: str) -> textwrap.TextWrapper:
    return textwrap.TextWrapper(
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _players(rules: Rules) -> Rule:
    return Rule(
        "Players and cards",
        f"{rules.players} players play, each for themselves (2 to 7 may play). One deck of "
        "52 cards, no jokers. In each suit the cards rank, from high to low: A K Q J 10 9 8 "
        "7 6 5 4 3 2 (kow writes the 10 as T: Th is the ten of hearts). Suits have no "
        "order: only the trump suit beats the others.",
        f"{_RT}, 'Joueurs', 'Jeu de cartes'; seed 002; seed 004",
    )


def _rounds(rules: Rules) -> Rule:
    n = rules.start_cards
    if n == 1:
        deal = "The game is a single round of 1 card each, so a single trick."
    else:
        deal = (
            f"Round 1 deals {n} cards to each player, and each later round one card fewer, "
            f"down to 1 card in round {n}. So a game has at most {n} rounds."
        )
    text = f"{deal} A round has as many tricks as each player has cards."
    source = f"{_RT}, 'Comment jouer', {_DEALING} 2 and 4; seed 002; seed 004"
    if n != 7:
        text += " The sources deal 7 cards in round 1."
        source += f"; other sizes: {_RT}, {_VARIANTS} ('Variantes de taille de main')"
    return Rule("Rounds", text, source)


def _deal() -> Rule:
    return Rule(
        "The deal",
        "The first dealer is drawn at random. Each later round, the deal passes to the "
        "dealer's left: the next player clockwise still in the game. Every round starts "
        "from the whole deck, shuffled; the player on the dealer's right cuts, and the "
        "dealer deals one card at a time, clockwise, starting on their left. Players who "
        "are knocked out get no cards.",
        f"{_RT}, 'Joueurs', {_DEALING} 1 and 2, {_PLAY} 4; seed 002, 'Première main', "
        "'Mains successives'; seed 004; the draw for the first dealer: kow's choice",
    )


def _first_trump(rules: Rules) -> Rule:
    text = (
        "After the deal, the next card of the deck is turned up: its suit is trump for "
        "round 1. That card belongs to no one."
    )
    source = f"{_RT}, {_DEALING} 3; seed 002, 'Première main'; seed 004"
    if rules.start_cards == 1 and not rules.final_round_trump:
        text = "Round 1 is also the final round, which has no trump here: no card is turned up."
        source = f"{_RT}, {_VARIANTS} ('Sans atout lors de la manche finale')"
    return Rule("Trump in round 1", text, source)


def _later_trump(rules: Rules) -> Rule:
    last = "" if rules.final_round_trump else " (but see the final round)"
    if rules.trump == "fixed":
        vote = " The knocked-out players do not vote either." if rules.eliminated_vote else ""
        return Rule(
            "Trump in later rounds",
            f"Round 1's trump suit stays trump in every round{last}. No one chooses it.{vote}",
            f"{_RT}, {_VARIANTS} ('Atout fixe / Atout uniquement au premier tour')",
        )
    vote = " unless the knocked-out players vote (below)" if rules.eliminated_vote else ""
    return Rule(
        "Trump in later rounds",
        "From round 2, the new round is dealt first. Then the player who took the most "
        "tricks last round looks at their new hand and names one of the four suits, which "
        f"is trump for this round{vote}{last}.",
        f"{_RT}, {_DEALING} 5, 'Glossaire' ('Atout'); seed 002, 'Mains successives'; seed 004",
    )


def _vote() -> Rule:
    return Rule(
        "Knocked-out players vote for trump",
        "From round 2, once at least one player is knocked out, the knocked-out players "
        "choose trump instead, after the deal. Each names a suit in turn, clockwise from "
        "the dealer's left, seeing the votes before theirs. The suit with the most votes "
        "is trump. A tie is settled by the player who would otherwise choose, who picks one "
        "of the tied suits.",
        f"{_RT}, {_VARIANTS} ('Choix de l'atout par les joueurs éliminés'); "
        "how the vote goes: kow's choice",
    )


def _ties(rules: Rules) -> Rule:
    roles = []
    if rules.trump == "winner-chooses":
        roles.append("names trump")
    if rules.lead == "most-tricks":
        roles.append("leads the round's first trick")
    return Rule(
        "Ties for the most tricks",
        "When several players tied for the most tricks last round, a cut picks the one who "
        f"{' and '.join(roles)}. Each tied player draws a card from a freshly shuffled "
        "deck, clockwise from the dealer's left. The highest rank wins; suits do not count. "
        "Players still tied draw again, until one is left.",
        f"{_RT}, {_DEALING} 5, {_PLAY} 1; seed 002, 'Mains successives'; seed 004; "
        "the details of the cut: kow's choice",
    )


def _tricks() -> Rule:
    return Rule(
        "Tricks",
        "The leader plays a card face up; then each player who holds a card plays one, in "
        "turn clockwise. You must follow suit: if you hold a card of the suit led, you must "
        "play one. If you cannot, you may play any card, a trump or a discard. The highest "
        "trump wins the trick; if no trump was played, the highest card of the suit led "
        "wins. A card that neither follows suit nor is a trump never wins. The winner of a "
        "trick leads the next one.",
        f"{_RT}, {_PLAY} 2 and 3, 'Glossaire' ('Fournir', 'Pli'); seed 002, "
        "'Première main'; seed 004",
    )


def _knock_out(rules: Rules) -> Rule:
    text = (
        "At the end of each round, each player who took no trick is knocked out: they get "
        "no more cards and take no more part in the game."
    )
    source = f"{_RT}, {_PLAY} 4, 'Glossaire' ('Élimination'); seed 002, 'Elimination'; seed 004"
    if rules.dogs_life == "off":
        text += " There is no dog's life in this game."
        source += f"; no dog's life: {_RT}, {_PLAY} 5 makes it optional"
    else:
        text += " The one exception is the dog's life (below)."
    return Rule("Knock-out", text, source)


def _dogs_life(rules: Rules) -> Rule:
    if rules.dogs_life == "once-per-game":
        who = (
            "Once per game, a player who takes no trick gets a dog's life instead of being "
            "knocked out: the first player in the game to take no trick. If several take no "
            "trick in that same round, each gets one. After that round, no one else gets one."
        )
        source = "seed 002, 'Elimination'; seed 004 (the traditional rule)"
    else:
        who = (
            "Each player, the first time they take no trick, gets a dog's life instead of "
            "being knocked out. Several players may get one in the same round."
        )
        source = f"{_RT}, {_PLAY} 5 and {_VARIANTS} ('Vie de chien': once per player)"
    no_more = "No one gets a second dog's life, and none is granted at the end of the 1-card round"
    no_more += ", nor in a round that someone swept." if rules.sweep_wins else "."
    how = (
        "In the next round, a player on a dog's life gets one card. On each trick, when "
        "their turn comes, they may play it, or knock on the table to keep it for a later "
        "trick; on the round's last trick they must play it. If the card wins the trick, "
        "the next player on their left still holding cards leads the next trick, and they "
        "are back in the game, with a full hand next round. If it loses, they are knocked "
        "out at the end of the round. While on a dog's life they are still in the game: "
        "they may deal and cut, but never choose trump."
    )
    source += (
        f"; the one card, played on any trick: {_RT}, {_PLAY} 5, seed 002; the knock and "
        "the lead after a win: seed 002, 'Elimination'; playing it by the last trick: "
        "kow's choice"
    )
    return Rule("Dog's life", f"{who} {no_more}\n{how}", source)


def _leads(rules: Rules) -> Rule:
    first = "In round 1, the player on the dealer's left leads the first trick."
    source = f"{_RT}, {_PLAY} 1, 'Glossaire' ('Premier joueur'); seed 002, 'Première main'"
    if rules.lead == "most-tricks":
        text = (
            f"{first} In each later round, the player who took the most tricks last round "
            "leads it (a tie is settled by the cut)."
        )
        source += f"; seed 004; later rounds: {_RT}, {_PLAY} 1"
    else:
        text = "In every round, the player on the dealer's left leads the first trick."
        if rules.dogs_life != "off":
            text += (
                " A player on a dog's life may lead, and may knock at the lead: the first "
                "card played then sets the suit led."
            )
        source += "; seed 004; later rounds: kow's choice (002 and 004 say only who leads round 1)"
    return Rule("Leads", f"{text} After that, the winner of each trick leads the next.", source)


def _final_round(rules: Rules) -> Rule:
    text = (
        "The last possible round deals 1 card each ('la carte'). Whoever wins its only trick "
        "wins the game; everyone else is knocked out."
    )
    source = f"{_RT}, {_DEALING} 4, {_PLAY} 7, 'Victoire'; seed 004"
    if not rules.final_round_trump:
        text += " It is played with no trump: the highest card of the suit led wins."
        source += f"; no trump: {_RT}, {_VARIANTS} ('Sans atout lors de la manche finale')"
    if rules.dogs_life != "off":
        text += (
            " A player on a dog's life there holds one card like everyone else, and cannot knock."
        )
    return Rule("The final round", text, source)


def _sweep(rules: Rules) -> Rule:
    if rules.sweep_wins:
        dog = ", before any dog's life is granted" if rules.dogs_life != "off" else ""
        return Rule(
            "Sweep",
            "A player who takes every trick of a round wins the game at once; everyone else "
            f"is knocked out. This is checked first at the end of the round{dog}.",
            f"{_RT}, {_PLAY} 6 and 7, 'Victoire', 'Objectif', 'Glossaire' ('Rafle')",
        )
    others = (
        "is knocked out or gets a dog's life"
        if rules.dogs_life != "off"
        else "is knocked out, as usual"
    )
    return Rule(
        "Sweep",
        "There is no sweep rule: a player who takes every trick of a round does not win "
        f"at once. Every other player then took no trick, so each {others}.",
        "seeds 002 and 004 have no sweep rule (the rules text has one)",
    )


def _winning(rules: Rules) -> Rule:
    ends = ["only one player is left in the game"]
    if rules.dogs_life != "off":
        ends[0] += " (a player on a dog's life is in the game)"
    if rules.sweep_wins:
        ends.append("a player sweeps")
    ends.append("the 1-card round is over")
    text = (
        f"The game ends at the end of a round when {'; or '.join(ends)}. The last player "
        "left, or the winner of the last trick, wins. There is never a tie: every trick has "
        "one winner."
    )
    return Rule(
        "Winning",
        text,
        f"{_RT}, {_PLAY} 7, 'Victoire' ('Vainqueur de la partie', 'Départage'), "
        "'Objectif'; seed 004",
    )
