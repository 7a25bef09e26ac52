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


def _secret_refusal(key: str, value: str) -> Findings | None:
    for field_name, text in (("key", key), ("value", value)):
        findings = find_secrets(text)
        if findings:
            places = [{"field": field_name, "kind": f.kind, "start": f.start, "end": f.end} for f in findings]
            kinds = ", ".join(sorted({f.kind.replace("_", " ") for f in findings}))
            detail = (
                f"This note looks like it holds a secret ({kinds}) in its {field_name} at characters "
                f"{findings[0].start}–{findings[0].end}. Secrets never go into memory: save the fact without the "
                "secret (for example, where the credential is kept, not the credential)."
            )
            return Findings(refusal=("secret_detected", detail), refusal_fields={"secrets": places})
    return None


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
