"""The limits of what a note, a turn and a search accept, stated once.

The API's input contracts (``memories.contract``), the services' checks and the tool schemas
agents load (``memories.tools``) all read these, so a schema never allows what the server
refuses, nor forbids what it accepts.
"""

from __future__ import annotations

import re

from memories.models import Layer, Turn, TurnRead
from memories.sizes import NOTE_MAX_BYTES

# A key is a short slug: "pref.tone", "orders.amount".
KEY_MAX_CHARS = 64
KEY_REGEX = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"
KEY_PATTERN = re.compile(KEY_REGEX)
# A value is text of at most NOTE_MAX_BYTES bytes, so at most that many characters.
VALUE_MAX_CHARS = NOTE_MAX_BYTES

SUBJECT_KINDS = ("table", "integration", "workflow", "skill")
# Integrations, workflows and skills are named by a slug or an id (R-SAVE-8); a table by its UUID.
SUBJECT_ID_MAX = 128
SUBJECT_ID_REGEX = r"^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$"
SUBJECT_ID_PATTERN = re.compile(SUBJECT_ID_REGEX)
SUBJECT_ID_SENTENCE = (
    f"A subject id of an integration, workflow or skill is 1 to {SUBJECT_ID_MAX} letters, digits, '.', '_', "
    "':', '/', '@' or '-', starting with a letter or digit (like salesforce, wf-123 or skills/summarize)"
)

LAYERS = tuple(Layer.values)
NOTE_STATES = ("active", "held")
AGENT_UNDO_STATES = ("done", "held")
AGENT_SAVE_LAYERS = (Layer.MINE, Layer.WORKSPACE, Layer.BOT, Layer.CONVERSATION)  # instance rules: people
TURN_KINDS = tuple(Turn.Kind.values)
READ_SOURCES = tuple(TurnRead.Source.values)
CHAT_KINDS = ("direct", "group", "channel", "thread")

SEARCH_LIMIT_DEFAULT = 10
SEARCH_LIMIT_MAX = 50
QUERY_MAX_CHARS = 1000
# memory_search and the Memory page leave out a note that shares no word with the query unless the
# cosine similarity of its meaning reaches this (memories.search_cutoff). Calibrated on the paraphrase
# set by benchmarks/bench_search_cutoff.py: the largest cut-off that costs at most 0.01 of recall@5.
SEARCH_MIN_SCORE = 0.15

CHAT_ID_MAX = 200
CONVERSATION_ID_MAX = 150
PLATFORM_MAX = 40
READ_REF_MAX = 500  # longer refs are cut, never refused: a read must always taint its turn
EMAIL_MAX = 254
