from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(_search_table_upkeep, sender=self)


def _search_table_upkeep(using: str = "default", **kwargs: Any) -> None:
    # A migration that changes a message column on SQLite drops the search triggers.
    from django.db import connections

    from conversations.sqlite_search import ensure_message_fts

    ensure_message_fts(connections[using])
