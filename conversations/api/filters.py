"""Query parameters of the conversation list, validated (400 with the field) and documented."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

# What DRF trims from a value (Python's str.strip), spelled out: the schema's readers
# match patterns with ECMAScript's \s, which leaves out \x1c-\x1f and \x85 and adds \ufeff.
WHITESPACE = r"\t-\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# Blank values are mistakes, not "any"; the pattern also tells schema readers that a NUL
# character (which DRF refuses too) is not text.
NOT_BLANK = [
    RegexValidator(
        rf"^[^\u0000]*[^{WHITESPACE}\u0000][^\u0000]*$", message="may not be blank", code="blank"
    )
]


class ConversationFilter(serializers.Serializer[Any]):
    format = serializers.CharField(
        required=False, validators=NOT_BLANK, help_text="Source format id"
    )
    provider = serializers.CharField(
        required=False, validators=NOT_BLANK, help_text="Provider (openai, anthropic...)"
    )
    model = serializers.CharField(
        required=False, validators=NOT_BLANK, help_text="A model used in the conversation"
    )
    tool = serializers.CharField(
        required=False, validators=NOT_BLANK, help_text="A tool offered or called"
    )
    has_warnings = serializers.BooleanField(required=False, allow_null=True, default=None)
    started_after = serializers.DateTimeField(
        required=False,
        help_text="Conversations that started at or after this time (their own date, "
        "from the source; those without one are left out)",
    )
    started_before = serializers.DateTimeField(
        required=False, help_text="Conversations that started before this time"
    )
    created_after = serializers.DateTimeField(
        required=False, help_text="Imported at or after this time"
    )
    created_before = serializers.DateTimeField(
        required=False, help_text="Imported before this time"
    )
    q = serializers.CharField(
        required=False, max_length=500, validators=NOT_BLANK, help_text="Full-text search"
    )
    cursor = serializers.CharField(
        required=False, validators=NOT_BLANK, help_text="Pagination cursor"
    )
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=200)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A form leaves unused filters empty; here an empty value is a mistake, not "any".
        blank = [name for name in self.fields if self.initial_data.get(name) == ""]
        if blank:
            raise serializers.ValidationError({str(blank[0]): "may not be blank"}, code="blank")
        return attrs

    @classmethod
    def schema_parameters(cls) -> type[ConversationFilter]:
        return cls

    def selector_kwargs(self) -> dict[str, Any]:
        data = self.validated_data
        return {
            "source_format": data.get("format"),
            "provider": data.get("provider"),
            "model": data.get("model"),
            "tool": data.get("tool"),
            "has_warnings": data.get("has_warnings"),
            "created_after": data.get("created_after"),
            "created_before": data.get("created_before"),
            "started_after": data.get("started_after"),
            "started_before": data.get("started_before"),
            "query": data.get("q"),
        }
