"""Write (``--update``) or check the methods paragraph docs/planner.md renders for one example
(between ``<!-- methods: FILE -->`` and ``<!-- /methods -->``), quoted as a block.

Usage: python tools/methods_in_docs.py [--update]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "planner.md"
MARK = re.compile(r"(<!-- methods: (\S+) -->\n)(.*?)(<!-- /methods -->)", re.S)


def rendered(example: str) -> str:
    """The example's methods paragraph, quoted (as docs/planner.md shows it)."""
    from maxinfo_bounds.planning import load_study, plan_power

    text = plan_power(load_study(ROOT / example)).methods().strip()
    text = text.replace(str(ROOT / example), example)
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n")) + "\n"


def current() -> dict[str, str]:
    return {m.group(2): m.group(3) for m in MARK.finditer(DOC.read_text(encoding="utf-8"))}


def main() -> int:
    doc = DOC.read_text(encoding="utf-8")
    if "--update" in sys.argv:
        new = MARK.sub(lambda m: m.group(1) + rendered(m.group(2)) + m.group(4), doc)
        DOC.write_text(new, encoding="utf-8")
        return 0
    bad = [ex for ex, body in current().items() if body != rendered(ex)]
    print("stale: " + ", ".join(bad) if bad else "current")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
