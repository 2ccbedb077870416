"""Full-text search on SQLite (the ``make run`` default): an FTS5 table ``message_fts``
with a copy of each message's searchable text, kept by triggers on the message table.

A copy, not an external-content table: those follow the message table's rowid, which
VACUUM may renumber (its key is a UUID, not an INTEGER PRIMARY KEY). And SQLite drops a
table's triggers with it, which Django's migrations do whenever they change a column of
``conversations_message`` (they copy it into a new table): so after every ``migrate``
:func:`ensure_message_fts` puts back what is missing and refills the copy if it had to.
"""

from __future__ import annotations

from typing import Any

FTS_TABLE = """CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5(
    message_id UNINDEXED, search_text, search_cjk, tokenize = 'porter unicode61'
)"""
TRIGGERS = {
    "message_fts_insert": """CREATE TRIGGER message_fts_insert
    AFTER INSERT ON conversations_message BEGIN
        INSERT INTO message_fts (message_id, search_text, search_cjk)
        VALUES (new.id, new.search_text, new.search_cjk);
    END""",
    "message_fts_delete": """CREATE TRIGGER message_fts_delete
    AFTER DELETE ON conversations_message BEGIN
        DELETE FROM message_fts WHERE message_id = old.id;
    END""",
    "message_fts_update": """CREATE TRIGGER message_fts_update
    AFTER UPDATE OF id, search_text, search_cjk ON conversations_message BEGIN
        DELETE FROM message_fts WHERE message_id = old.id;
        INSERT INTO message_fts (message_id, search_text, search_cjk)
        VALUES (new.id, new.search_text, new.search_cjk);
    END""",
}


def ensure_message_fts(connection: Any) -> bool:
    """Create the FTS5 table and its triggers where missing (SQLite only); when any was
    missing, fill the table anew from the messages. Whether it had to."""
    if connection.vendor != "sqlite":
        return False
    with connection.cursor() as cursor:
        tables = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master")}
        if "conversations_message" not in tables:
            return False
        missing = [name for name in TRIGGERS if name not in tables]
        if "message_fts" in tables and not missing:
            return False
        cursor.execute(FTS_TABLE)
        cursor.execute("DELETE FROM message_fts")
        cursor.execute(
            "INSERT INTO message_fts (message_id, search_text, search_cjk) "
            "SELECT id, search_text, search_cjk FROM conversations_message"
        )
        for name, statement in TRIGGERS.items():
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
            cursor.execute(statement)
    return True


def drop_message_fts(connection: Any) -> None:
    """Remove the table and its triggers (undoing migration 0008)."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for name in TRIGGERS:
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
        cursor.execute("DROP TABLE IF EXISTS message_fts")
