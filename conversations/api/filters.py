"""Query parameters of the conversation list, validated (400 with the field) and documented."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class ConversationFilter(serializers.Serializer[Any]):
    format = serializers.CharField(required=False, help_text="Source format id")
    provider = serializers.CharField(required=False, help_text="Provider (openai, anthropic...)")
    model = serializers.CharField(required=False, help_text="A model used in the conversation")
    tool = serializers.CharField(required=False, help_text="A tool offered or called")
    has_warnings = serializers.BooleanField(required=False, allow_null=True, default=None)
    created_after = serializers.DateTimeField(required=False)
    created_before = serializers.DateTimeField(required=False)
    q = serializers.CharField(required=False, max_length=500, help_text="Full-text search")
    cursor = serializers.CharField(required=False, help_text="Pagination cursor")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=200)

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
            "query": data.get("q"),
        }
