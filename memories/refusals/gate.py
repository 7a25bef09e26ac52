"""The one interface every write path calls before a note is stored (R-SAVE-2, R-SAVE-3, R-SAVE-3b).

``inspect_note`` runs the detectors and says what they found; memories.policy decides what
follows (refuse or hold). The tool, a person's own save, edits, keeps and imports all call it.
Refusals name the kind and place of what was found and never echo it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memories.refusals.people import find_person_mentions
from memories.refusals.secrets import find_secrets
from tables import identifying


@dataclass(frozen=True)
class Findings:
    refusal: tuple[str, str] | None = None  # (code, detail)
    refusal_fields: dict = field(default_factory=dict)
    may_name_person: bool = False


def _place(finding, key: str) -> dict:
    """Where a finding of the combined ``key: value`` text lies, relative to its field."""
    value_start = len(key) + 2
    if finding.end <= len(key):
        return {"field": "key", "kind": finding.kind, "start": finding.start, "end": finding.end}
    if finding.start >= value_start:
        return {"field": "value", "kind": finding.kind, "start": finding.start - value_start,
                "end": finding.end - value_start}
    return {"field": "key_and_value", "kind": finding.kind, "start": finding.start, "end": finding.end}


def _secret_refusal(key: str, value: str) -> Findings | None:
    # Key and value are scanned together: "wifi.password: hunter2" is a secret though neither half is.
    findings = find_secrets(f"{key}: {value}")
    if not findings:
        return None
    places = [_place(f, key) for f in findings]
    kinds = ", ".join(sorted({f.kind.replace("_", " ") for f in findings}))
    first = places[0]
    detail = (
        f"This note looks like it holds a secret ({kinds}) in its {first['field'].replace('_', ' ')} at characters "
        f"{first['start']}–{first['end']}. Secrets never go into memory: save the fact without the secret (for "
        "example, where the credential is kept, not the credential)."
    )
    return Findings(refusal=("secret_detected", detail), refusal_fields={"secrets": places})


def inspect_note(*, workspace, key: str, value: str, subject_table=None) -> Findings:
    secret = _secret_refusal(key, value)
    if secret:
        return secret
    text = f"{key.replace('.', ' ').replace('_', ' ')} {value}"
    if subject_table is not None:
        match = identifying.find_identifying_match(table=subject_table, text=text, using=workspace.db_alias)
        if match is not None:
            code = "names_person" if match.column_kind == "person" else "names_record"
            what = "a person" if code == "names_person" else "a single record"
            detail = (
                f"This note names {what} of table {subject_table.name} (it matches a value of column "
                f"{match.column!r}). Notes about a table describe the table, never one person or record in it: "
                "save the general fact instead."
            )
            return Findings(refusal=(code, detail), refusal_fields={"column": match.column})
    return Findings(may_name_person=bool(find_person_mentions(value)))
