"""Import jobs: a file uploaded to import in the background, its progress and results."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from conversations import models
from conversations.api.serializers.common import SourceFormatField


@extend_schema_field({"type": "string", "format": "binary", "minLength": 1})
class UploadField(serializers.FileField):
    """A non-empty file (Django drops an empty file part: it arrives as no file at all)."""


class ImportUploadInput(serializers.Serializer[Any]):
    file = UploadField(
        allow_empty_file=True, help_text="conversations.json, a .jsonl dataset or a .zip export"
    )
    format = SourceFormatField(default="auto", help_text="A format id, or `auto`")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A form's empty field would otherwise silently mean the default.
        if self.initial_data.get("format") == "":
            raise serializers.ValidationError({"format": "may not be blank"}, code="blank")
        return attrs


class ImportItemOutput(serializers.ModelSerializer[models.ImportItem]):
    class Meta:
        model = models.ImportItem
        fields = [
            "index",
            "key",
            "status",
            "conversation",
            "title",
            "added_messages",
            "warning_count",
            "error",
            "field",
        ]


class ImportJobOutput(serializers.ModelSerializer[models.ImportJob]):
    class Meta:
        model = models.ImportJob
        fields = [
            "id",
            "filename",
            "requested_format",
            "format",
            "size",
            "status",
            "processed",
            "created",
            "updated",
            "unchanged",
            "failed",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]


class ImportJobDetailOutput(ImportJobOutput):
    items = ImportItemOutput(many=True, help_text="Up to 1,000 results from ?offset=")
    items_offset = serializers.IntegerField()

    class Meta(ImportJobOutput.Meta):
        fields = [*ImportJobOutput.Meta.fields, "items", "items_offset"]
