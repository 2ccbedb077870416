"""Input and output shapes of the API; separate classes each way, no logic in them."""

from __future__ import annotations

from typing import Any

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


class ImportInput(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="A format id, or `auto` to detect it.")
    payload = serializers.JSONField(help_text="The document: JSON, or a string for text formats.")
    title = serializers.CharField(required=False, allow_blank=True, max_length=300)

    def validate_format(self, value: str) -> str:
        return check_format_id(value, allow_auto=True)

    def validate_payload(self, value: Any) -> Any:
        if value is None:
            raise serializers.ValidationError("payload must not be null", code="null")
        return value


class ConvertInput(serializers.Serializer[Any]):
    # "from" is a Python keyword: the field is declared under another name and renamed.
    source = serializers.CharField(help_text="The payload's format id, or `auto`.")  # type: ignore[assignment]
    to = serializers.CharField(help_text="The format id to convert to.")
    payload = serializers.JSONField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("source")

    def validate_to(self, value: str) -> str:
        return check_format_id(value, allow_auto=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The field is bound as "from" but keeps its declared source name.
        attrs["from"] = check_format_id(attrs.pop("source"), allow_auto=True)
        if attrs.get("payload") is None:
            raise serializers.ValidationError({"payload": "payload must not be null"})
        return attrs


class ExportQuery(serializers.Serializer[Any]):
    format = serializers.CharField(default="umf")

    def validate_format(self, value: str) -> str:
        return check_format_id(value, allow_auto=False)


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


class ConversationSummary(serializers.ModelSerializer[models.Conversation]):
    format = serializers.CharField(source="source_format")

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
    source = serializers.CharField()  # type: ignore[assignment]
    to = serializers.CharField()
    payload = serializers.JSONField()
    warnings = WarningOutput(many=True)


class FormatOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    kind = serializers.CharField()
    provider = serializers.CharField(allow_null=True)
    capabilities = serializers.DictField()
