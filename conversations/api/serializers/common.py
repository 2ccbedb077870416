"""Fields and shapes every resource uses: format ids, text sent as text, any JSON payload,
a drift warning, the one error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

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

    def get_value(self, dictionary: Any) -> Any:
        # A form or query string's "format=" is a blank text, not a missing one: DRF would
        # take it as not given and use the default (an export in umf that asked for none).
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""
        return super().get_value(dictionary)

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


class WarningOutput(serializers.Serializer[Any]):
    category = serializers.CharField()
    severity = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    original_value = serializers.JSONField(allow_null=True)
    transformed_value = serializers.JSONField(allow_null=True)
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]


class ErrorDetailOutput(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable machine-readable code")
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True, help_text="The offending field, if any")


class ErrorOutput(serializers.Serializer[Any]):
    """The one error shape of the API (more keys may follow ``field``)."""

    error = ErrorDetailOutput()
