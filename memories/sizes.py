"""How long a note may be, stated once: the API's limits (memories.limits) and the detectors
(memories.refusals) both read it, and the detectors import no Django."""

# Key and value together, in UTF-8 bytes (R-SAVE-1); a value is therefore at most this many
# characters.
NOTE_MAX_BYTES = 1024
