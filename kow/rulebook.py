"""The rulebook: the rules of a game as a player reads them, each with its source.

It states only the variant in force: with the dog's life off, it says that a player who
takes no trick is knocked out, and has no dog's-life rule. ``kow rules`` prints it, and
``kow play`` shows it when a player types ``rules``. The text is Latin-1 (no suit
symbols), so that any terminal but a pure ASCII one can show it. ``docs/rules.md``
states the same rules at length, with the reasons for each choice.

It states only rules that can apply: a game of one round (``start_cards`` 1) has no rule
of later rounds, and a setting that has no effect says so in a sentence.
:func:`rules_summary` names the settings in one line, for the opening of ``kow play``.

Sources are the files of ``docs/rules.md``, which calls them "seeds"; the text a user
sees calls them "sources" ("source 002"), as ``--seed`` is something else. "The rules
text" is sources 000 (French), 001 (Italian) and 003 (Portuguese), one text whose
defaults kow follows, cited by the headings of 000; sources 002 and 004 (French) give
the traditional rules; "kow's choice" marks what the sources leave open. :data:`SOURCES`
names each so that a reader can recognise it.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

from .rules import Rules, preset_of

__all__ = [
    "MIN_WIDTH",
    "SOURCES",
    "SUMMARY_WIDTH",
    "Rule",
    "rule_lines",
    "rulebook",
    "rules_summary",
]

MIN_WIDTH = 40
"""The narrowest width :func:`rule_lines` wraps to, in columns."""

SUMMARY_WIDTH = 78
"""The columns :func:`rules_summary` keeps to when it can, by leaving defaults unnamed."""

SOURCES = (
    "The rules text: one text in three languages, a full guide with variants, tips and a "
    "glossary. Source 000 is the French, headed 'Comment jouer'; 001 the Italian, 'Come si "
    "gioca'; 003 the Portuguese, 'Como Jogar'. kow's defaults are its rules. Its sections "
    "are cited by their French headings.\n"
    "Source 002: a French rules sheet titled 'Knock out whist', starting \"Nombre de "
    "joueurs: de 2 à 7 joueurs\". The traditional rules, with the dog's life in full.\n"
    "Source 004: a French paragraph titled 'Knock Out Whist', starting \"C'est un jeu de "
    'levées simple, adapté aux enfants". The traditional rules, in brief.\n'
    "kow's choice: what the sources leave open."
)
"""What the names in each rule's source stand for: one paragraph per name, ``"\\n"``
between them. Latin-1, like the rules."""

_RT = "the rules text"
_DEALING = "'Mise en place et Distribution'"
_PLAY = "'Déroulement du jeu'"
_VARIANTS = "'Variantes courantes'"
_INDENT = "   "


_S002 = "source 002"
_S004 = "source 004"


class Rule(NamedTuple):
    """One rule of the rulebook.

    ``title``: a few words ("Knock-out"). ``text``: what the rule says, in sentences;
    ``"\\n"`` separates paragraphs. ``source``: where it comes from, e.g. "the rules
    text, 'Déroulement du jeu' 4; source 002, 'Elimination'; source 004", or "kow's
    choice". All three are one line each (``text`` aside), unwrapped, and Latin-1.
    """

    title: str
    text: str
    source: str


def rulebook(rules: Rules) -> list[Rule]:
    """Return the rules in force under ``rules``, in the order of play, each with its source.

    The order: players and cards, rounds, the deal, trump (round 1, later rounds, the
    eliminated vote, ties for the most tricks), tricks, knock-out, the dog's life, leads,
    the final round, the sweep, winning. A rule whose variant is off is left out (the
    dog's life, the vote, the tie cut) or says the variant in force (the sweep). A rule
    that cannot apply is left out too: the vote with 2 players (once one is knocked out,
    the game is over) or under fixed trump; and in a game of one round (``start_cards``
    1, so round 1 is the final round) every rule of later rounds: trump in later rounds,
    the vote, the ties, knock-out and the sweep; the dog's life, if on, is then one
    sentence saying that it never happens. The sources are those of ``docs/rules.md``.
    Raises nothing: ``rules`` is already checked.

    >>> [r.title for r in rulebook(Rules())][-4:]
    ['Leads', 'The final round', 'Sweep', 'Winning']
    >>> "Dog's life" in [r.title for r in rulebook(Rules(dogs_life="once-per-game"))]
    True
    >>> [r.title for r in rulebook(Rules(start_cards=1))][3:]
    ['Trump in round 1', 'Tricks', 'Leads', 'The final round', 'Winning']
    """
    one_round = rules.start_cards == 1
    out = [_players(rules), _rounds(rules), _deal(rules), _first_trump(rules)]
    if not one_round:
        out.append(_later_trump(rules))
        if _vote_applies(rules):
            out.append(_vote())
        if rules.trump == "winner-chooses" or rules.lead == "most-tricks":
            out.append(_ties(rules))
    out.append(_tricks(rules))
    if not one_round:
        out.append(_knock_out(rules))
    if rules.dogs_life != "off":
        out.append(_dogs_life(rules))
    out += [_leads(rules), _final_round(rules)]
    if not one_round:
        out.append(_sweep(rules))
    out.append(_winning(rules))
    return out


def rules_summary(rules: Rules) -> str:
    """Return one line naming the settings a player must know as a game of ``rules`` starts.

    It names the players and the cards of round 1; the dog's life and the sweep (the rules
    the presets change), even when they are the default; each other setting that is not
    the default, in the order of the fields of :class:`Rules`; then the preset the
    settings match, if any. Every setting that is not the default is always named. When
    the line would pass :data:`SUMMARY_WIDTH` (78) columns, the sweep, then the dog's
    life, are left out where they are the default. So it passes 78 columns only when every
    setting it names must be named: the traditional preset (80 columns), or several
    changed settings. Plain ASCII, no full stop at the end. It states the settings, not
    whether they apply: with 1 card, a dog's life is named though none can happen.

    >>> rules_summary(Rules(dogs_life="once-per-game", sweep_wins=False))
    "4 players, 7 cards; dog's life once per game; no sweep rule (preset traditional)"
    >>> rules_summary(Rules(players=3))
    "3 players, 7 cards; no dog's life; a sweep wins (preset rules-text)"
    >>> rules_summary(Rules(start_cards=1, lead="dealer-left"))
    "4 players, 1 card; no dog's life; dealer's left leads; a sweep wins"
    >>> rules_summary(Rules(trump="fixed", eliminated_vote=True, final_round_trump=False))
    '4 players, 7 cards; fixed trump; no final-round trump; knocked-out players vote'
    """
    cards = "1 card" if rules.start_cards == 1 else f"{rules.start_cards} cards"
    dogs = (
        "no dog's life"
        if rules.dogs_life == "off"
        else f"dog's life {rules.dogs_life.replace('-', ' ')}"
    )
    others = [
        text
        for changed, text in (
            (rules.trump == "fixed", "fixed trump"),
            (not rules.final_round_trump, "no final-round trump"),
            (rules.lead == "dealer-left", "dealer's left leads"),
            (rules.eliminated_vote, "knocked-out players vote"),
        )
        if changed
    ]
    sweep = "a sweep wins" if rules.sweep_wins else "no sweep rule"
    preset = preset_of(rules)
    end = f" (preset {preset})" if preset else ""
    head = f"{rules.players} players, {cards}"
    line = "; ".join([head, dogs, *others, sweep]) + end
    if len(line) > SUMMARY_WIDTH and rules.sweep_wins:  # leave out the default sweep first
        line = "; ".join([head, dogs, *others]) + end
    if len(line) > SUMMARY_WIDTH and rules.dogs_life == "off":  # then no dog's life
        line = "; ".join([head, *others, *([] if rules.sweep_wins else [sweep])]) + end
    return line


def rule_lines(rules: Rules, width: int = 80) -> list[str]:
    """Return the rulebook of ``rules`` as lines of at most ``width`` columns.

    ``width`` is the terminal's width in columns; below :data:`MIN_WIDTH` (40), 40 is
    used. Words are never broken, and a line never ends in a space. The lines are: a
    title, the settings (and the preset they match, if any), "Sources:" and what the
    sources' names mean (:data:`SOURCES`, indented by 3), then each rule of
    :func:`rulebook` numbered from 1, its text and "From: " its source, indented by 3
    (so a source reads "From: source 002, 'Elimination'; source 004."). Blank lines
    separate the parts. No line ends with a newline.

    >>> lines = rule_lines(Rules(), 40)
    >>> lines[0], max(map(len, lines)) <= 40
    ('Knock-Out Whist: the rules of this game', True)
    """
    width = max(width, MIN_WIDTH)
    outer = _wrapper(width, "")
    inner = _wrapper(width, _INDENT)
    preset = preset_of(rules)
    cards = "1 card" if rules.start_cards == 1 else f"{rules.start_cards} cards"
    settings = f"{rules.players} players; round 1 deals {cards}."
    if preset == "traditional":
        settings += " These are the traditional rules of sources 002 and 004 (preset traditional)."
    elif preset == "rules-text":
        settings += " These are the rules text's rules (preset rules-text)."
    lines = ["Knock-Out Whist: the rules of this game", *outer.wrap(settings), "", "Sources:"]
    for paragraph in SOURCES.split("\n"):
        lines += inner.wrap(paragraph)
    for number, rule in enumerate(rulebook(rules), 1):
        lines += ["", *outer.wrap(f"{number}. {rule.title}")]
        for paragraph in rule.text.split("\n"):
            lines += inner.wrap(paragraph)
        lines += inner.wrap(f"From: {rule.source}.")
    return lines


def _wrapper(width: int, indent: str) -> textwrap.TextWrapper:
    return textwrap.TextWrapper(
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _vote_applies(rules: Rules) -> bool:
    """Whether knocked-out players can ever vote: not under fixed trump (no choice to vote
    on), nor with 2 players (once one is knocked out, the game is over), nor in one round."""
    return (
        rules.eliminated_vote
        and rules.trump != "fixed"
        and rules.players > 2
        and rules.start_cards > 1
    )


def _players(rules: Rules) -> Rule:
    return Rule(
        "Players and cards",
        f"{rules.players} players play, each for themselves (2 to 7 may play). One deck of "
        "52 cards, no jokers. In each suit the cards rank, from high to low: A K Q J 10 9 8 "
        "7 6 5 4 3 2. The screen shows the ten as 10; the logs write it T (Th is the ten of "
        "hearts). Suits have no order: only the trump suit beats the others.",
        f"{_RT}, 'Joueurs', 'Jeu de cartes'; {_S002}; {_S004}",
    )


def _rounds(rules: Rules) -> Rule:
    n = rules.start_cards
    if n == 1:
        text = (
            "The game is a single round of 1 card each, so a single trick: round 1 is also "
            "the final round, and no rule of later rounds applies."
        )
    else:
        text = (
            f"Round 1 deals {n} cards to each player, and each later round one card fewer, "
            f"down to 1 card in round {n}. So a game has at most {n} rounds. A round has as "
            "many tricks as each player has cards."
        )
    source = f"{_RT}, 'Comment jouer', {_DEALING} 2 and 4; {_S002}; {_S004}"
    if n != 7:
        text += " The sources deal 7 cards in round 1."
        source += f"; other sizes: {_RT}, {_VARIANTS} ('Variantes de taille de main')"
    return Rule("Rounds", text, source)


def _deal(rules: Rules) -> Rule:
    if rules.start_cards == 1:
        return Rule(
            "The deal",
            "The dealer is drawn at random. The whole deck is shuffled; the player on the "
            "dealer's right cuts, and the dealer deals one card to each player, clockwise, "
            "starting on their left.",
            f"{_RT}, 'Joueurs', {_DEALING} 1 and 2; {_S002}, 'Première main'; {_S004}; "
            "the draw for the dealer: kow's choice",
        )
    return Rule(
        "The deal",
        "The first dealer is drawn at random. Each later round, the deal passes to the "
        "dealer's left: the next player clockwise still in the game. Every round starts "
        "from the whole deck, shuffled; the player on the dealer's right cuts, and the "
        "dealer deals one card at a time, clockwise, starting on their left. Players who "
        "are knocked out get no cards.",
        f"{_RT}, 'Joueurs', {_DEALING} 1 and 2, {_PLAY} 4; {_S002}, 'Première main', "
        f"'Mains successives'; {_S004}; the draw for the first dealer: kow's choice",
    )


def _first_trump(rules: Rules) -> Rule:
    text = (
        "After the deal, the next card of the deck is turned up: its suit is trump for "
        "round 1. That card belongs to no one."
    )
    source = f"{_RT}, {_DEALING} 3; {_S002}, 'Première main'; {_S004}"
    if rules.start_cards == 1 and not rules.final_round_trump:
        text = "Round 1 is also the final round, which has no trump here: no card is turned up."
        source = f"{_RT}, {_VARIANTS} ('Sans atout lors de la manche finale')"
    return Rule("Trump in round 1", text, source)


def _later_trump(rules: Rules) -> Rule:
    last = "" if rules.final_round_trump else " (but see the final round)"
    if rules.trump == "fixed":
        vote = (
            " The knocked-out players' vote (--eliminated-vote) has no effect under fixed "
            "trump: there is no choice of trump to vote on."
            if rules.eliminated_vote
            else ""
        )
        return Rule(
            "Trump in later rounds",
            f"Round 1's trump suit stays trump in every round{last}. No one chooses it.{vote}",
            f"{_RT}, {_VARIANTS} ('Atout fixe / Atout uniquement au premier tour')",
        )
    vote = " unless the knocked-out players vote (below)" if _vote_applies(rules) else ""
    text = (
        "From round 2, the new round is dealt first. Then the player who took the most "
        "tricks last round looks at their new hand and names one of the four suits, which "
        f"is trump for this round{vote}{last}."
    )
    if rules.eliminated_vote and not vote:
        text += (
            " The knocked-out players' vote (--eliminated-vote) has no effect with 2 players: "
            "once one is knocked out, the game is over."
        )
    return Rule(
        "Trump in later rounds",
        text,
        f"{_RT}, {_DEALING} 5, 'Glossaire' ('Atout'); {_S002}, 'Mains successives'; {_S004}",
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
        f"{_RT}, {_DEALING} 5, {_PLAY} 1; {_S002}, 'Mains successives'; {_S004}; "
        "the details of the cut: kow's choice",
    )


def _tricks(rules: Rules) -> Rule:
    text = (
        "The leader plays a card face up; then each player who holds a card plays one, in "
        "turn clockwise. You must follow suit: if you hold a card of the suit led, you must "
        "play one. If you cannot, you may play any card, a trump or a discard. The highest "
        "trump wins the trick; if no trump was played, the highest card of the suit led "
        "wins. A card that neither follows suit nor is a trump never wins."
    )
    if rules.start_cards > 1:
        text += " The winner of a trick leads the next one."
    return Rule(
        "Tricks",
        text,
        f"{_RT}, {_PLAY} 2 and 3, 'Glossaire' ('Fournir', 'Pli'); {_S002}, "
        f"'Première main'; {_S004}",
    )


def _knock_out(rules: Rules) -> Rule:
    text = (
        "At the end of each round, each player who took no trick is knocked out: they get "
        "no more cards and take no more part in the game."
    )
    source = f"{_RT}, {_PLAY} 4, 'Glossaire' ('Élimination'); {_S002}, 'Elimination'; {_S004}"
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
        source = f"{_S002}, 'Elimination'; {_S004} (the traditional rule)"
    else:
        who = (
            "Each player, the first time they take no trick, gets a dog's life instead of "
            "being knocked out. Several players may get one in the same round."
        )
        source = f"{_RT}, {_PLAY} 5 and {_VARIANTS} ('Vie de chien': once per player)"
    if rules.start_cards == 1:
        return Rule(
            "Dog's life",
            "No one gets a dog's life in this game: a dog's life is played in the next "
            "round, and this game has only one.",
            source,
        )
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
        f"; the one card, played on any trick: {_RT}, {_PLAY} 5, {_S002}; the knock and "
        f"the lead after a win: {_S002}, 'Elimination'; playing it by the last trick: "
        "kow's choice"
    )
    return Rule("Dog's life", f"{who} {no_more}\n{how}", source)


def _leads(rules: Rules) -> Rule:
    source = f"{_RT}, {_PLAY} 1, 'Glossaire' ('Premier joueur'); {_S002}, 'Première main'"
    if rules.start_cards == 1:
        return Rule(
            "Leads", "The player on the dealer's left leads the only trick.", f"{source}; {_S004}"
        )
    first = "In round 1, the player on the dealer's left leads the first trick."
    if rules.lead == "most-tricks":
        text = (
            f"{first} In each later round, the player who took the most tricks last round "
            "leads it (a tie is settled by the cut)."
        )
        source += f"; {_S004}; later rounds: {_RT}, {_PLAY} 1"
    else:
        text = "In every round, the player on the dealer's left leads the first trick."
        if rules.dogs_life != "off":
            text += (
                " A player on a dog's life may lead, and may knock at the lead: the first "
                "card played then sets the suit led."
            )
        source += (
            f"; {_S004}; later rounds: kow's choice (sources 002 and 004 say only who leads "
            "round 1)"
        )
    return Rule("Leads", f"{text} After that, the winner of each trick leads the next.", source)


def _final_round(rules: Rules) -> Rule:
    if rules.start_cards == 1:
        text = "Round 1 is the final round here: it deals 1 card each ('la carte')."
    else:
        text = "The last possible round deals 1 card each ('la carte')."
    text += " Whoever wins its only trick wins the game; everyone else is knocked out."
    source = f"{_RT}, {_DEALING} 4, {_PLAY} 7, 'Victoire'; {_S004}"
    if not rules.final_round_trump:
        text += " It is played with no trump: the highest card of the suit led wins."
        source += f"; no trump: {_RT}, {_VARIANTS} ('Sans atout lors de la manche finale')"
    if rules.dogs_life != "off" and rules.start_cards > 1:
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
        "sources 002 and 004, which have no sweep rule (the rules text has one)",
    )


def _winning(rules: Rules) -> Rule:
    source = (
        f"{_RT}, {_PLAY} 7, 'Victoire' ('Vainqueur de la partie', 'Départage'), 'Objectif'; {_S004}"
    )
    if rules.start_cards == 1:
        return Rule(
            "Winning",
            "The game ends with its only round: the winner of its only trick wins. There is "
            "never a tie: every trick has one winner.",
            source,
        )
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
    return Rule("Winning", text, source)
