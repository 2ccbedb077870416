"""The Django admin: the archive's tables, read-only (writes go through the services)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from conversations import models, selectors


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Lists and change pages to look at, never to edit: a conversation is what was imported."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    list_display = [
        "title",
        "owner",
        "source_format",
        "provider",
        "model",
        "message_count",
        "warning_count",
        "created_at",
    ]
    list_filter = ["source_format", "provider", "created_at"]
    search_fields = ["title", "model", "id"]
    list_select_related = ["owner"]
    readonly_fields = ["thread"]
    fields = [
        "title",
        "owner",
        "source_format",
        "provider",
        "model",
        "message_count",
        "warning_count",
        "parameters",
        "metadata",
        "created_at",
        "thread",
    ]
    show_full_result_count = False

    @admin.display(description="Thread")
    def thread(self, obj: models.Conversation) -> SafeString:
        stored = selectors.conversation_umf(conversation=obj)
        return SafeString(render_to_string("admin/conversations/thread.html", {"umf": stored.umf}))


@admin.register(models.Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["conversation", "position", "role", "model", "finish_reason", "timestamp"]
    list_filter = ["role", "finish_reason"]
    search_fields = ["conversation__title", "source_id", "tool_call_id"]
    raw_id_fields = ["conversation", "parent"]
    list_select_related = ["conversation"]
    show_full_result_count = False


@admin.register(models.DriftWarning)
class DriftWarningAdmin(ReadOnlyAdmin):
    list_display = ["conversation", "stage", "category", "severity", "field", "text"]
    list_filter = ["stage", "category", "severity"]
    search_fields = ["text", "field", "conversation__title"]
    raw_id_fields = ["conversation", "message"]
    list_select_related = ["conversation"]
    show_full_result_count = False
