"""The trash and export jobs: which conversations an action is about, and what it did."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import APIException

from conversations import models
from conversations.api.filters import ConversationFilter
from conversations.api.serializers.common import TargetFormatField
from conversations.api.serializers.conversations import ConversationSummary

MAX_IDS = 10_000


class ConversationIds(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.UUIDField(), min_length=1, max_length=MAX_IDS, **kwargs)


class ListFilter(ConversationFilter):
    """The conversation list's filters (``GET conversations/``'s query parameters) as an
    object; ``{}`` is every conversation."""

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        del fields["cursor"], fields["page_size"]
        return fields


class SelectionUnclear(APIException):
    """Well-formed, but naming no conversations, or naming them two ways at once (the
    schema cannot say "one of these two")."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "invalid_selection"

    def __init__(self, detail: str, field: str) -> None:
        super().__init__(detail)
        self.field = field


def _one_of(attrs: dict[str, Any], names: tuple[str, ...], *, required: bool) -> None:
    given = [name for name in names if attrs.get(name) is not None]
    if len(given) > 1:
        raise SelectionUnclear(f"give {' or '.join(names)}, not both", given[1])
    if required and not given:
        raise SelectionUnclear(f"give {' or '.join(names)}", names[0])


@extend_schema_field(ListFilter)
class FilterField(serializers.DictField):
    """The list's filters, validated as ``GET conversations/`` validates its parameters."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        listed = ListFilter(data=super().to_internal_value(data))
        if not listed.is_valid():
            raise serializers.ValidationError(listed.errors)
        return listed.selector_kwargs()


class SelectionInput(serializers.Serializer[Any]):
    """Conversations by id, or all that the list's filters match."""

    ids = ConversationIds(required=False, help_text="Conversations by id (at most 10,000)")
    filter = FilterField(required=False, help_text="All the conversations these list filters match")

    required_selection = True

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        _one_of(attrs, ("ids", "filter"), required=self.required_selection)
        return attrs

    def selection(self) -> dict[str, Any]:
        """``ids`` or ``filters`` for the services (call after ``is_valid``)."""
        data = self.validated_data
        if "ids" in data:
            return {"ids": data["ids"]}
        return {"filters": data.get("filter") or {}}


class TrashedOutput(serializers.Serializer[Any]):
    trashed = serializers.IntegerField(help_text="How many conversations went to the trash")
    deleted_at = serializers.DateTimeField(
        help_text="The instant of this action: POST trash/restore with it undoes it"
    )


class RestoreInput(serializers.Serializer[Any]):
    ids = ConversationIds(required=False, help_text="Conversations in the trash, by id")
    deleted_at = serializers.DateTimeField(
        required=False, help_text="Restore what one action trashed (its deleted_at): an undo"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        _one_of(attrs, ("ids", "deleted_at"), required=True)
        return attrs


class PurgeInput(serializers.Serializer[Any]):
    ids = ConversationIds(help_text="Conversations in the trash, by id, to delete for good")


class CountOutput(serializers.Serializer[Any]):
    count = serializers.IntegerField()


class TrashedConversation(ConversationSummary):
    deleted_at = serializers.DateTimeField(read_only=True, help_text="When it was trashed")

    class Meta(ConversationSummary.Meta):
        fields = [*ConversationSummary.Meta.fields, "deleted_at"]


class TrashPage(serializers.Serializer[Any]):
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = TrashedConversation(many=True)


class ExportJobInput(SelectionInput):
    format = TargetFormatField(help_text="The format to write the conversations in")

    # Neither ids nor filter: the whole archive.
    required_selection = False


class ExportJobOutput(serializers.ModelSerializer[models.ExportJob]):
    warnings = serializers.JSONField(
        read_only=True,
        help_text=(
            "What the format could not hold: `categories` (a count per warning category,"
            " most frequent first) and `examples` (the first 20 warnings: category,"
            " severity, message, field, and the conversation's file in a zip)"
        ),
    )
    download = serializers.SerializerMethodField(
        help_text="The absolute URL of the file, once the job has succeeded (else null)"
    )

    class Meta:
        model = models.ExportJob
        fields = [
            "id",
            "format",
            "status",
            "total",
            "processed",
            "warning_count",
            "warnings",
            "filename",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "download",
        ]

    def get_download(self, job: models.ExportJob) -> str | None:
        if job.status != models.ExportJob.Status.SUCCEEDED:
            return None
        path = reverse("api-export-job-download", kwargs={"pk": job.pk})
        return str(self.context["request"].build_absolute_uri(path))
