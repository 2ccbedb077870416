"""Conversations: import (one, or a batch), list, read, export."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from conversations import models
from conversations.api.filters import NOT_BLANK
from conversations.api.serializers.common import (
    ErrorDetailOutput,
    PayloadField,
    SourceFormatField,
    StrictCharField,
    TargetFormatField,
    WarningOutput,
)


class ImportInput(serializers.Serializer[Any]):
    format = SourceFormatField(help_text="A format id, or `auto` to detect it.")
    payload = PayloadField()
    title = StrictCharField(required=False, allow_blank=True, max_length=300)

    def validate_payload(self, value: Any) -> Any:
        if value is None:
            raise serializers.ValidationError("payload must not be null", code="null")
        return value


# Each item is validated on its own (a status per item), so the list's items are any JSON.
IMPORT_BATCH_SCHEMA = {
    "type": "array",
    "maxItems": 100,
    "items": {"description": "An import body, as for conversations/import"},
}


class ImportedOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    title = serializers.CharField()
    format = serializers.CharField()
    created = serializers.BooleanField()
    warnings = WarningOutput(many=True)


class ImportOutput(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="The format that read the payload.")
    conversations = ImportedOutput(many=True)


class ImportBatchItemOutput(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    status = serializers.IntegerField(help_text="The status the item alone would have had")
    format = serializers.CharField(required=False)
    conversations = ImportedOutput(many=True, required=False)
    error = ErrorDetailOutput(required=False)


class ImportBatchOutput(serializers.Serializer[Any]):
    results = ImportBatchItemOutput(many=True)


class ConversationSummary(serializers.ModelSerializer[models.Conversation]):
    format = serializers.CharField(source="source_format")
    started_at = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="When the conversation started, as its source says; null when it says not",
    )
    last_message_at = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="When its last message was written, as its source says; null when it says not",
    )
    created_at = serializers.DateTimeField(read_only=True, help_text="When it was imported")

    class Meta:
        model = models.Conversation
        fields = [
            "id",
            "title",
            "format",
            "provider",
            "model",
            "message_count",
            "warning_count",
            "started_at",
            "last_message_at",
            "created_at",
            "updated_at",
        ]


class ConversationDetail(ConversationSummary):
    warnings = serializers.SerializerMethodField()
    conversation = serializers.SerializerMethodField()
    messages_truncated = serializers.SerializerMethodField(
        help_text="True when the conversation holds more messages than the detail holds "
        "inline (UMF_DETAIL_MAX_INLINE_MESSAGES, default 1,000; `message_count` says how "
        "many): `conversation.messages` then holds only the first ones, and `messages_url` "
        "pages through them all"
    )
    messages_url = serializers.SerializerMethodField(
        help_text="GET conversations/{id}/messages: every message of the imported thread, "
        "a page at a time, in the order of `conversation.messages`"
    )

    class Meta(ConversationSummary.Meta):
        fields = [
            *ConversationSummary.Meta.fields,
            "warnings",
            "conversation",
            "messages_truncated",
            "messages_url",
        ]

    def get_messages_truncated(self, obj: models.Conversation) -> bool:
        return bool(self.context["truncated"])

    def get_messages_url(self, obj: models.Conversation) -> str:
        return str(self.context["messages_url"])

    def get_warnings(self, obj: models.Conversation) -> list[dict[str, Any]]:
        return [w.model_dump(mode="json") for w in self.context["stored"].import_warnings]

    def get_conversation(self, obj: models.Conversation) -> dict[str, Any]:
        umf_conversation = self.context["stored"].umf
        return umf_conversation.model_dump(mode="json", exclude_defaults=True)  # type: ignore[no-any-return]


class ConversationPage(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="The next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null")
    results = ConversationSummary(many=True)


class MessagesQuery(serializers.Serializer[Any]):
    cursor = serializers.CharField(
        required=False,
        validators=NOT_BLANK,
        help_text="The `next` or `previous` link's cursor; none for the first page",
    )
    limit = serializers.IntegerField(
        default=100, min_value=1, max_value=settings.API_MAX_PAGE_SIZE, help_text="Messages a page"
    )
    leaf = serializers.UUIDField(
        required=False,
        help_text="A message id: the branch through it, as the conversation page shows it "
        "(default: the imported thread, as `conversation.messages` of the detail holds it)",
    )


class MessageOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField(help_text="The stored message's id (for `leaf`)")
    position = serializers.IntegerField(help_text="Its place in the thread (grows along a branch)")
    message = serializers.JSONField(help_text="The message in UMF")


class MessagePageOutput(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="The next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null")
    results = MessageOutput(many=True)


class ExportQuery(serializers.Serializer[Any]):
    format = TargetFormatField(default="umf", help_text="Target format id")


class ExportOutput(serializers.Serializer[Any]):
    format = serializers.CharField()
    payload = serializers.JSONField()
    warnings = WarningOutput(many=True)
