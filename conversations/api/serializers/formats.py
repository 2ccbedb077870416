"""Formats: what each can hold, and a conversion between two of them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from conversations.api.serializers.common import (
    PayloadField,
    SourceFormatField,
    TargetFormatField,
    WarningOutput,
)


class FormatOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    kind = serializers.CharField()
    provider = serializers.CharField(allow_null=True)
    capabilities = serializers.DictField()


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


class ConvertOutput(serializers.Serializer[Any]):
    source = serializers.CharField(help_text="The format the payload was read as")  # type: ignore[assignment]
    to = serializers.CharField()
    payload = serializers.JSONField()
    warnings = WarningOutput(many=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Documented under its real key, "from" (a Python keyword).
        super().__init__(*args, **kwargs)
        self.fields["from"] = self.fields.pop("source")
