"""A per-workspace change marker for search (issue 20), kept by the database itself.

``memories_search_version``: one row per workspace, whose ``version`` moves in the same
transaction as every insert, update or delete of one of its notes (so a search later in the
writing transaction sees its own writes too); ``memories_search_change``: which notes each version changed. A search reads the
version (one row) instead of revalidating every note, and on a change reads only the notes
changed since the version it holds (``memories.search.marker``).

Triggers rather than calls in each write path: every write — the services, the trash, undo,
imports, ``embed_notes``, a manual UPDATE — moves the marker, and none can be forgotten.
A later migration that rebuilds ``memories_note`` on SQLite drops triggers: it must run
``install`` again (``tests/memories/test_search_index.py`` checks they are there).
"""

from django.db import migrations

POSTGRES = [
    """CREATE TABLE memories_search_version (
        workspace_id uuid PRIMARY KEY,
        version bigint NOT NULL,
        pruned_below bigint NOT NULL DEFAULT 0)""",
    """CREATE TABLE memories_search_change (
        id bigserial PRIMARY KEY,
        workspace_id uuid NOT NULL,
        version bigint NOT NULL,
        note_id uuid NOT NULL)""",
    "CREATE INDEX memories_search_change_since ON memories_search_change (workspace_id, version)",
    # A worker's index of a big workspace, for the next fresh worker (memories.search.snapshot):
    # vectors do not compress, so the value is stored as it is.
    """CREATE TABLE memories_search_snapshot (
        workspace_id uuid PRIMARY KEY,
        version bigint NOT NULL,
        payload bytea NOT NULL)""",
    "ALTER TABLE memories_search_snapshot ALTER COLUMN payload SET STORAGE EXTERNAL",
    # The turn's context reads the newest pinned live notes of each section (memories.selectors).
    """CREATE INDEX memories_note_pinned_live ON memories_note (workspace_id, scope, updated_at DESC)
        WHERE pinned AND state = 'active' AND trashed_at IS NULL""",
    # Statement-level, with transition tables: one version per statement and workspace, however
    # many rows it wrote (a row-level bump of one row 100,000 times in one transaction is
    # quadratic: the row's versions cannot be pruned while the transaction is open).
    """CREATE FUNCTION memories_note_search_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            -- No deleted note outlives its row in a kept index.
            DELETE FROM memories_search_snapshot WHERE workspace_id IN (SELECT workspace_id FROM changed_before);
            WITH marked AS (SELECT workspace_id, id FROM changed_before),
                 bumped AS (
                    INSERT INTO memories_search_version AS v (workspace_id, version)
                    SELECT DISTINCT workspace_id, 1 FROM marked
                    ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1
                    RETURNING v.workspace_id, v.version)
            INSERT INTO memories_search_change (workspace_id, version, note_id)
                SELECT m.workspace_id, b.version, m.id FROM marked m JOIN bumped b ON b.workspace_id = m.workspace_id;
        ELSIF TG_OP = 'UPDATE' THEN
            WITH marked AS (SELECT workspace_id, id FROM changed_after UNION SELECT workspace_id, id FROM changed_before),
                 bumped AS (
                    INSERT INTO memories_search_version AS v (workspace_id, version)
                    SELECT DISTINCT workspace_id, 1 FROM marked
                    ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1
                    RETURNING v.workspace_id, v.version)
            INSERT INTO memories_search_change (workspace_id, version, note_id)
                SELECT m.workspace_id, b.version, m.id FROM marked m JOIN bumped b ON b.workspace_id = m.workspace_id;
        ELSE
            WITH marked AS (SELECT workspace_id, id FROM changed_after),
                 bumped AS (
                    INSERT INTO memories_search_version AS v (workspace_id, version)
                    SELECT DISTINCT workspace_id, 1 FROM marked
                    ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1
                    RETURNING v.workspace_id, v.version)
            INSERT INTO memories_search_change (workspace_id, version, note_id)
                SELECT m.workspace_id, b.version, m.id FROM marked m JOIN bumped b ON b.workspace_id = m.workspace_id;
        END IF;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER memories_note_search_mark_insert AFTER INSERT ON memories_note
        REFERENCING NEW TABLE AS changed_after
        FOR EACH STATEMENT EXECUTE FUNCTION memories_note_search_mark()""",
    """CREATE TRIGGER memories_note_search_mark_update AFTER UPDATE ON memories_note
        REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed_after
        FOR EACH STATEMENT EXECUTE FUNCTION memories_note_search_mark()""",
    """CREATE TRIGGER memories_note_search_mark_delete AFTER DELETE ON memories_note
        REFERENCING OLD TABLE AS changed_before
        FOR EACH STATEMENT EXECUTE FUNCTION memories_note_search_mark()""",
]
POSTGRES_DROP = [
    "DROP INDEX IF EXISTS memories_note_pinned_live",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_insert ON memories_note",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_update ON memories_note",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_delete ON memories_note",
    "DROP FUNCTION IF EXISTS memories_note_search_mark()",
    "DROP TABLE IF EXISTS memories_search_change",
    "DROP TABLE IF EXISTS memories_search_version",
    "DROP TABLE IF EXISTS memories_search_snapshot",
]


def _sqlite_trigger(event: str, row: str) -> str:
    forget = ("DELETE FROM memories_search_snapshot WHERE workspace_id = OLD.workspace_id;"
              if event == "DELETE" else "")
    return f"""CREATE TRIGGER IF NOT EXISTS memories_note_search_mark_{event.lower()} AFTER {event} ON memories_note
    BEGIN
        {forget}
        INSERT INTO memories_search_version (workspace_id, version) VALUES ({row}.workspace_id, 1)
            ON CONFLICT (workspace_id) DO UPDATE SET version = version + 1;
        INSERT INTO memories_search_change (workspace_id, version, note_id)
            SELECT workspace_id, version, {row}.id FROM memories_search_version WHERE workspace_id = {row}.workspace_id;
    END"""


SQLITE = [
    """CREATE TABLE IF NOT EXISTS memories_search_version (
        workspace_id char(32) PRIMARY KEY,
        version integer NOT NULL,
        pruned_below integer NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS memories_search_change (
        id integer PRIMARY KEY AUTOINCREMENT,
        workspace_id char(32) NOT NULL,
        version integer NOT NULL,
        note_id char(32) NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS memories_search_change_since ON memories_search_change (workspace_id, version)",
    """CREATE TABLE IF NOT EXISTS memories_search_snapshot (
        workspace_id char(32) PRIMARY KEY,
        version integer NOT NULL,
        payload blob NOT NULL)""",
    """CREATE INDEX IF NOT EXISTS memories_note_pinned_live ON memories_note (workspace_id, scope, updated_at DESC)
        WHERE pinned = 1 AND state = 'active' AND trashed_at IS NULL""",
    _sqlite_trigger("INSERT", "NEW"),
    _sqlite_trigger("UPDATE", "NEW"),
    _sqlite_trigger("DELETE", "OLD"),
]
SQLITE_DROP = [
    "DROP INDEX IF EXISTS memories_note_pinned_live",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_insert",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_update",
    "DROP TRIGGER IF EXISTS memories_note_search_mark_delete",
    "DROP TABLE IF EXISTS memories_search_change",
    "DROP TABLE IF EXISTS memories_search_version",
    "DROP TABLE IF EXISTS memories_search_snapshot",
]


def install(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRES if postgres else SQLITE:
        schema_editor.execute(statement)


def uninstall(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRES_DROP if postgres else SQLITE_DROP:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0007_idempotent_answer"),
    ]

    operations = [
        migrations.RunPython(install, uninstall),
    ]
