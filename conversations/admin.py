"""The Django admin: the archive's tables, read-only (writes go through the services).

Message, block and tool-call tables reach millions of rows: their lists never count them
in full (``show_full_result_count`` off and a paginator whose count stops at a cap), use
raw-id widgets instead of loading every choice, and join what they show up front.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.functional import cached_property
from django.utils.safestring import SafeString

from conversations import models, selectors
from conversations.provider_settings import configured_providers
from conversations.services import replays


class CappedCountPaginator(Paginator):  # type: ignore[type-arg]
    """Counts at most ``CAP`` rows (a bounded scan, never the whole table): past it the
    admin shows pages up to the cap, and the search narrows from there."""

    CAP = 10_000

    @cached_property
    def count(self) -> int:
        rows: Any = self.object_list
        return int(rows[: self.CAP].count())


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Lists and change pages to look at, never to edit: a conversation is what was imported."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    # Staff who are not superusers look and never touch, whatever permissions they were
    # given: no delete, no actions (replays write; issue 20.9).
    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(getattr(request.user, "is_superuser", False)) and super().has_delete_permission(
            request, obj
        )

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        if not getattr(request.user, "is_superuser", False):
            return {}
        return dict(super().get_actions(request))


class LargeTableAdmin(ReadOnlyAdmin):
    show_full_result_count = False
    paginator = CappedCountPaginator


class ReplayAgainstForm(forms.Form):
    provider = forms.ChoiceField()
    model = forms.CharField(max_length=200)
    mode = forms.ChoiceField(choices=models.ReplayRun.Mode.choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["provider"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, name) for name in configured_providers()]


@admin.register(models.Conversation)
class ConversationAdmin(LargeTableAdmin):
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
    raw_id_fields = ["owner", "forked_from"]
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
    actions = ["replay_against"]

    @admin.display(description="Thread")
    def thread(self, obj: models.Conversation) -> SafeString:
        """The imported thread, shown with the templates of the conversation page."""
        thread = selectors.conversation_thread(conversation=obj)
        html = render_to_string(
            "admin/conversations/thread.html", {"thread": thread, "conversation": obj}
        )
        return SafeString(html)

    @admin.action(description="Replay against…")
    def replay_against(
        self, request: HttpRequest, queryset: QuerySet[models.Conversation]
    ) -> HttpResponse | None:
        """An intermediate form (provider, model, mode), then one run per conversation,
        owned by the conversation's owner so that they see it on their page."""
        form = ReplayAgainstForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "form": form,
                "conversations": queryset,
                "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            }
            return render(request, "admin/conversations/replay_against.html", context)
        started, refused = replays.replay_start_each(conversations=queryset, **form.cleaned_data)
        for conversation, error in refused:
            self.message_user(request, f"{conversation}: {error.message}", messages.WARNING)
        self.message_user(request, f"Started {started} replay run(s).", messages.SUCCESS)
        return None


@admin.register(models.Message)
class MessageAdmin(LargeTableAdmin):
    list_display = ["conversation", "position", "role", "model", "finish_reason", "timestamp"]
    list_filter = ["role", "finish_reason"]
    search_fields = ["source_id", "tool_call_id"]
    raw_id_fields = ["conversation", "parent", "replay_run"]
    list_select_related = ["conversation"]


@admin.register(models.ContentBlock)
class ContentBlockAdmin(LargeTableAdmin):
    list_display = ["message", "index", "type", "attachment"]
    list_filter = ["type"]
    raw_id_fields = ["message", "attachment"]
    list_select_related = ["message"]


@admin.register(models.ToolCall)
class ToolCallAdmin(LargeTableAdmin):
    list_display = ["name", "call_id", "conversation", "is_error"]
    list_filter = ["is_error"]
    search_fields = ["name", "call_id"]
    raw_id_fields = ["conversation", "message", "block", "result_block"]
    list_select_related = ["conversation"]


@admin.register(models.DriftWarning)
class DriftWarningAdmin(LargeTableAdmin):
    list_display = ["conversation", "stage", "category", "severity", "field", "text"]
    list_filter = ["stage", "category", "severity"]
    search_fields = ["text", "field"]
    raw_id_fields = ["conversation", "message", "replay_run"]
    list_select_related = ["conversation"]


TURN_FIELDS = ["index", "status", "attempts", "original_message", "message", "latency_ms", "error"]
ITEM_FIELDS = ["index", "key", "status", "conversation", "added_messages", "warning_count", "error"]


class ReplayTurnInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.ReplayTurn
    fields = tuple(TURN_FIELDS)
    readonly_fields = TURN_FIELDS
    raw_id_fields = ["original_message", "message"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.ReplayRun)
class ReplayRunAdmin(LargeTableAdmin):
    list_display = ["id", "conversation", "owner", "provider", "model", "mode", "status",
                    "attempts", "latency_ms", "created_at"]  # fmt: skip
    list_filter = ["status", "mode", "provider"]
    search_fields = ["id", "model", "error"]
    raw_id_fields = ["owner", "conversation", "from_message"]
    list_select_related = ["conversation", "owner"]
    inlines = [ReplayTurnInline]
    actions = ["retry"]

    @admin.action(description="Retry the failed runs")
    def retry(self, request: HttpRequest, queryset: QuerySet[models.ReplayRun]) -> None:
        retried, skipped = replays.replay_retry_failed(runs=queryset)
        note = f" ({skipped} not failed, left alone)" if skipped else ""
        self.message_user(request, f"Retrying {retried} run(s){note}.", messages.SUCCESS)


class ImportItemInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.ImportItem
    fields = tuple(ITEM_FIELDS)
    readonly_fields = ITEM_FIELDS
    raw_id_fields = ["conversation"]
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(models.ImportJob)
class ImportJobAdmin(ReadOnlyAdmin):
    list_display = ["filename", "owner", "format", "status", "processed", "created", "updated",
                    "unchanged", "failed", "created_at"]  # fmt: skip
    list_filter = ["status", "format"]
    search_fields = ["filename", "id"]
    raw_id_fields = ["owner"]
    list_select_related = ["owner"]
    show_full_result_count = False
    inlines = [ImportItemInline]
