"""The one interface every write path calls before a note is stored (R-SAVE-2, R-SAVE-3, R-SAVE-3b).

``inspect_note`` runs the detectors and says what they found; memories.policy decides what
follows (refuse or hold). The tool, a person's own save, edits, keeps and imports all call it.
Refusals name the kind and place of what was found and never echo it back.

Every text an agent sends that is stored or shown is checked, not only the value (R-SAVE-8):
the key and the subject id of a note here; chat ids and channel fields (``inspect_text``) and
read refs (``redact_secrets``) in memories.turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memories.refusals.people import find_person_mentions
from memories.refusals.secrets import find_secrets
from tables import identifying

# Keys and ids join words with separators ("contact.maria.gonzalez"); the person detector reads words.
_ID_SEPARATORS = re.compile(r"[._:/-]+")
REDACTED = "[redacted: it looked like a secret]"
# The detector's finds of a random-looking string with no vendor format and no keyword.
RANDOM_STRING_KINDS = frozenset({"base64_high_entropy", "hex_high_entropy"})


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


def _secret_sentence(places: list[dict]) -> str:
    kinds = ", ".join(sorted({p["kind"].replace("_", " ") for p in places}))
    first = places[0]
    return (
        f"This note looks like it holds a secret ({kinds}) in its {first['field'].replace('_', ' ')} at characters "
        f"{first['start']}–{first['end']}. Secrets never go into memory: save the fact without the secret (for "
        "example, where the credential is kept, not the credential)."
    )


def _field_places(text: str, field_name: str) -> list[dict]:
    return [{"field": field_name, "kind": f.kind, "start": f.start, "end": f.end} for f in find_secrets(text)]


def _secret_refusal(key: str, value: str, subject_id: str | None) -> Findings | None:
    # Key and value are scanned together: "wifi.password: hunter2" is a secret though neither half is.
    places = [_place(f, key) for f in find_secrets(f"{key}: {value}")]
    if subject_id:
        places += _field_places(subject_id, "subject.id")
    if not places:
        return None
    return Findings(refusal=("secret_detected", _secret_sentence(places)),
                    refusal_fields={"secrets": places})


def _names_person(text: str) -> bool:
    return bool(find_person_mentions(text))


def inspect_note(*, workspace, key: str, value: str, subject_table=None, subject_id: str | None = None) -> Findings:
    """What the detectors find in a note. ``subject_id`` is the id of an integration, workflow or
    skill the note is about (a table subject is checked as ``subject_table``)."""
    secret = _secret_refusal(key, value, subject_id)
    if secret:
        return secret
    text = f"{key.replace('.', ' ').replace('_', ' ')} {value}"
    # Every table of the workspace, not only the subject's (issue 18). A match in a table the
    # note is not tied to names neither the table nor the column: that a person is in some
    # table ("Patients") is itself what the refusal must not tell.
    # An instance rule (workspace None) belongs to no workspace: no tables to check against.
    match = identifying.find_workspace_match(
        workspace_id=workspace.id, text=text, using=workspace.db_alias, subject_table=subject_table
    ) if workspace is not None else None
    if match is not None:
        code = "names_person" if match.column_kind == "person" else "names_record"
        what = "a person" if code == "names_person" else "a single record"
        if subject_table is not None and match.table_id == subject_table.pk:
            detail = (
                f"This note names {what} of table {subject_table.name} (it matches a value of column "
                f"{match.column!r}). Notes about a table describe the table, never one person or record in it: "
                "save the general fact instead."
            )
            return Findings(refusal=(code, detail), refusal_fields={"column": match.column})
        detail = (
            f"This note names {what} of one of this workspace's tables. Notes never name one person or "
            "record of a table: save the general fact instead."
        )
        return Findings(refusal=(code, detail))
    # The key and the subject id each on their own: read together with the value, a key's last
    # word and the value's first could pass for a name that neither holds.
    may_name_person = (
        _names_person(value)
        or _names_person(_ID_SEPARATORS.sub(" ", key))
        or bool(subject_id) and (_names_person(subject_id) or _names_person(_ID_SEPARATORS.sub(" ", subject_id)))
    )
    return Findings(may_name_person=bool(may_name_person))


def inspect_text(*, field_name: str, text: str, opaque_id: bool = False) -> Findings:
    """The secret detector over one short text other than a note (a chat id, a channel field);
    the refusal names ``field_name`` and never echoes the secret (R-SAVE-8).

    ``opaque_id``: the text is an id a messaging platform made up, and some are random strings
    (a Teams user id is "29:1GcS4EyB_oSI8A88XmWB…"), so a random-looking string alone is not
    taken for a secret there; a vendor's token format, a private key or a credential URL is."""
    places = _field_places(text, field_name) if text else []
    if opaque_id:
        places = [p for p in places if p["kind"] not in RANDOM_STRING_KINDS]
    if not places:
        return Findings()
    kinds = ", ".join(sorted({p["kind"].replace("_", " ") for p in places}))
    detail = (
        f"The {field_name} looks like it holds a secret ({kinds}) at characters {places[0]['start']}–"
        f"{places[0]['end']}. Nothing was stored: secrets never go into memory, so send an id that is not a credential."
    )
    return Findings(refusal=("secret_detected", detail), refusal_fields={"secrets": places})


def redact_secrets(text: str) -> tuple[str, bool]:
    """``text`` with each secret found in it replaced by REDACTED, and whether any was. If the
    masked text still looks like it holds one, all of it is replaced."""
    findings = find_secrets(text)
    if not findings:
        return text, False
    masked, end = [], 0
    for finding in findings:  # ordered by position, not overlapping
        masked.append(text[end:finding.start])
        masked.append(REDACTED)
        end = max(end, finding.end)
    masked.append(text[end:])
    text = "".join(masked)
    return (REDACTED if find_secrets(text) else text), True
