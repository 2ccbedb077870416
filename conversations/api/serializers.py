"""Input and output shapes of the API; separate classes each way, no logic in them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from conversations import models
from providers import formats


def check_format_id(value: str, *, allow_auto: bool) -> str:
    known = [fmt.id for fmt in formats.all_formats()]
    if value == "auto" and allow_auto:
        return value
    if value not in known:
        choices = (["auto"] if allow_auto else []) + known
        raise serializers.ValidationError(
            f"unknown format {value!r}; choose one of: {', '.join(choices)}", code="unknown_format"
        )
    return value


class StrictCharField(serializers.CharField):
    """Text that was sent as text: DRF would turn a number (or a boolean) into a string."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# The schema's two enums (named in settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
TARGET_FORMAT_IDS = [fmt.id for fmt in formats.all_formats()]
SOURCE_FORMAT_IDS = ["auto", *TARGET_FORMAT_IDS]


@extend_schema_field({"type": "string", "enum": SOURCE_FORMAT_IDS})
class SourceFormatField(StrictCharField):
    """A format id or ``auto``; validated with the list of choices in the error message."""

    def to_internal_value(self, data: Any) -> str:
        return check_format_id(super().to_internal_value(data), allow_auto=True)


@extend_schema_field({"type": "string", "enum": TARGET_FORMAT_IDS})
class TargetFormatField(StrictCharField):
    """A format id (``auto`` cannot be rendered)."""

    def to_internal_value(self, data: Any) -> str:
        return check_format_id(super().to_internal_value(data), allow_auto=False)


@extend_schema_field(
    {
        "description": "The document: JSON, or a string for text formats (never null).",
        "anyOf": [
            {"type": "object", "additionalProperties": True},
            {"type": "array", "items": {}},
            {"type": "string"},
            {"type": "number"},
            {"type": "boolean"},
        ],
    }
)
class PayloadField(serializers.JSONField):
    """Any JSON document but null."""


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


class ConvertInput(serializers.Serializer[Any]):
    # "from" is a Python keyword: the field is declared under another name and renamed.
    source = SourceFormatField(help_text="The payload's format id, or `auto`.")  # type: ignore[assignment]
    to = TargetFormatField(help_text="The format id to convert to.")
    payload = PayloadField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("source")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The field is bound as "from" but keeps its declared source name.
        attrs["from"] = attrs.pop("source")
        if attrs.get("payload") is None:
            raise serializers.ValidationError({"payload": "payload must not be null"})
        return attrs


class ExportQuery(serializers.Serializer[Any]):
    format = TargetFormatField(default="umf", help_text="Target format id")


class WarningOutput(serializers.Serializer[Any]):
    category = serializers.CharField()
    severity = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    original_value = serializers.JSONField(allow_null=True)
    transformed_value = serializers.JSONField(allow_null=True)
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]


class ImportedOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    title = serializers.CharField()
    format = serializers.CharField()
    created = serializers.BooleanField()
    warnings = WarningOutput(many=True)


class ImportOutput(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="The format that read the payload.")
    conversations = ImportedOutput(many=True)


class ErrorDetailOutput(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable machine-readable code")
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True, help_text="The offending field, if any")


class ErrorOutput(serializers.Serializer[Any]):
    """The one error shape of the API (more keys may follow ``field``)."""

    error = ErrorDetailOutput()


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

    class Meta(ConversationSummary.Meta):
        fields = [*ConversationSummary.Meta.fields, "warnings", "conversation"]

    def get_warnings(self, obj: models.Conversation) -> list[dict[str, Any]]:
        return [w.model_dump(mode="json") for w in self.context["stored"].import_warnings]

    def get_conversation(self, obj: models.Conversation) -> dict[str, Any]:
        umf_conversation = self.context["stored"].umf
        return umf_conversation.model_dump(mode="json", exclude_defaults=True)  # type: ignore[no-any-return]


class ExportOutput(serializers.Serializer[Any]):
    format = serializers.CharField()
    payload = serializers.JSONField()
    warnings = WarningOutput(many=True)


class ConvertOutput(serializers.Serializer[Any]):
    source = serializers.CharField(help_text="The format the payload was read as")  # type: ignore[assignment]
    to = serializers.CharField()
    payload = serializers.JSONField()
    warnings = WarningOutput(many=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Documented under its real key, "from" (a Python keyword).
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("source")


class ConversationPage(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="The next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null")
    results = ConversationSummary(many=True)


class FormatOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    kind = serializers.CharField()
    provider = serializers.CharField(allow_null=True)
    capabilities = serializers.DictField()
