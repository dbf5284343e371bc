"""Run the command line: ``python -m kow``."""

from .cli import main

main(prog_name="kow")
