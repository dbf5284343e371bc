"""``kow rules``: print the rules in force with the options given, each with its source."""

from __future__ import annotations

import sys

import click

from ...rules import Rules
from .._options import json_option, rule_options
from .._pipes import reader_may_leave, write_out
from .._terminal import page


@click.command("rules")
@rule_options
@json_option("Print the settings and the rules as one JSON object: {rules, preset, rulebook}.")
def rules_command(rules: Rules, as_json: bool) -> None:
    """Print the rules in force with the options given, each with its source.

    Takes the rule options of play and simulate, so `kow rules --preset traditional`
    shows the rules that `kow play --preset traditional` plays. Sources: the rules text
    (sources 000/001/003), sources 002 and 004 (the traditional rules), or kow's choice
    where they are silent. Wrapped to the terminal's width (40 to 100 columns), in a
    pager on a terminal.
    """
    import json
    import shutil
    import unicodedata

    from ...log import rules_to_log
    from ...rulebook import rule_lines, rulebook
    from ...rules import preset_of

    if as_json:
        book = [rule._asdict() for rule in rulebook(rules)]
        data = {"rules": rules_to_log(rules), "preset": preset_of(rules), "rulebook": book}
        with reader_may_leave():
            write_out(json.dumps(data, indent=2))  # ASCII: json escapes the accents
        return
    width = min(shutil.get_terminal_size((80, 24)).columns, 100)
    text = "\n".join(rule_lines(rules, width))
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):  # e.g. ASCII: drop the accents, é becomes e
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    if sys.stdout.isatty():  # a person reads it: a pager, as kow replay has; piped: whole
        page(text + "\n")
        return
    with reader_may_leave():
        click.echo(text)
