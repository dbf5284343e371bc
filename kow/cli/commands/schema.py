"""``kow schema``: print the JSON Schema of the log format, of an analysis, or of the
online protocol."""

from __future__ import annotations

import click

from .._pipes import reader_may_leave, write_out


@click.command()
@click.argument(
    "what", type=click.Choice(("log", "analysis", "protocol")), default="log", required=False
)
def schema(what: str) -> None:
    """Print a JSON Schema (draft 2020-12): of the log format, version 1 (the default), of
    kow analyze --json's output (kow schema analysis), or of the online protocol's
    messages, version 1 (kow schema protocol)."""
    import json

    if what == "analysis":
        from ...runs.analysis import schema as chosen_schema
    elif what == "protocol":
        from ...online.protocol import schema as chosen_schema
    else:
        from ...log import schema as chosen_schema

    with reader_may_leave():
        write_out(json.dumps(chosen_schema(), indent=2))
