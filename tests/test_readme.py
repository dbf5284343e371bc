"""The README's library example runs as written and prints what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_library_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Library") :]
    (code,) = re.findall(r"```python\n(.*?)```", section[: section.index("\n## ", 3)], re.S)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Outcome(winner=") and "termination=<Termination." in lines[0]
    assert '  "format": "kow-log",' in lines
    # The replay's states: the last is the game's end, phase "over".
    assert lines[-1].endswith(" over")
    assert sum(line.endswith((" play", " trump", " vote", " over")) for line in lines) > 50
