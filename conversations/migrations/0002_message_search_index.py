"""Full-text search over messages: a GIN index on PostgreSQL (nothing on other databases).

The expression must stay identical to the one ``selectors._matching_messages`` builds
(``SearchVector("search_text", config="english")``) or PostgreSQL will not use the index.
"""

from django.db import migrations

INDEX = "message_search_gin"
CREATE = (
    f"CREATE INDEX IF NOT EXISTS {INDEX} ON conversations_message "
    "USING gin (to_tsvector('english'::regconfig, COALESCE(search_text, '')))"
)
DROP = f"DROP INDEX IF EXISTS {INDEX}"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("conversations", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
