"""Reading the outside prose sets of issue 18 (GUM, WNUT 2017) the same way in their tests."""

from __future__ import annotations

import json
from pathlib import Path

from memories.refusals.people import find_person_mentions

DATA = Path(__file__).resolve().parents[1] / "data"


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def figures(rows: list[dict]) -> tuple[float, float]:
    """(share of the notes naming someone that are held, share of the benign ones held)."""
    named = [r for r in rows if r["label"] == "names_person_other"]
    benign = [r for r in rows if r["label"] == "benign"]
    held = sum(bool(find_person_mentions(r["value"])) for r in named) / len(named)
    false = sum(bool(find_person_mentions(r["value"])) for r in benign) / len(benign)
    return held, false
