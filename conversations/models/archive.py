"""The archive's tables: normalised rows, never one JSON blob per conversation.

A conversation's messages form a tree through ``Message.parent`` (branches from ChatGPT and
Claude.ai exports, forks and replays); ``position`` is the order in which they were stored,
which is also the order of the thread for linear imports. Primary keys of messages and
blocks are time-ordered UUIDs made in Python, so a whole conversation (parents included) is
written with one bulk insert per table.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import orjson
from django.conf import settings
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models.fields.json import KeyTransform
from psycopg.types.json import Jsonb

from conversations import jsonb_text


class JSONField(models.JSONField):
    """Django's JSONField, decoded with orjson: a long conversation reads ~50,000 JSON
    values, and the standard library's decoder was most of the export's time. On
    PostgreSQL it is written as the hand-written statements write it
    (:mod:`conversations.jsonb_text`), so that a float comes back a float."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        # SQLite keeps the text as Django writes it, and it reads back as it was.
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        return Jsonb(value, dumps=jsonb_text.dumps)

    def from_db_value(self, value: object, expression: object, connection: object) -> object:
        if value is None:
            return None
        # As in Django: some backends return already-decoded values for key lookups.
        if isinstance(expression, KeyTransform) and not isinstance(value, str | bytes):
            return value
        if not isinstance(value, str | bytes):
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value


def uuid7() -> uuid.UUID:
    """A time-ordered UUID (RFC 9562 version 7): new rows land at the end of the index."""
    millis = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (millis & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= ((rand >> 62) & 0xFFF) << 64
    value |= 0b10 << 62
    value |= rand & ((1 << 62) - 1)
    return uuid.UUID(int=value)


class MessageSearchVector(SearchVector):
    """``to_tsvector('english', search_text || ' ' || search_cjk)``: what ``?q=`` matches
    on PostgreSQL, stored once per message so that a search reads it instead of
    recomputing it per row. SQLite searches its FTS5 table instead (migration 0008): NULL."""

    def as_sqlite(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        return "NULL", []


# The conversations out of the trash: what every list, search and count shows.
LIVE = models.Q(deleted_at__isnull=True)


class Conversation(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=300, blank=True)
    source_format = models.CharField(max_length=40)
    # The provider that produced the answers (openai, anthropic...), when the source says.
    provider = models.CharField(max_length=40, blank=True)
    model = models.CharField(max_length=200, blank=True)
    # sha256 of the format id and the source document: the same import twice is a no-op.
    content_hash = models.CharField(max_length=64)
    # The source's own id for the conversation (ChatGPT/Claude.ai exports...): a newer
    # export of the same conversation updates this row instead of adding another.
    source_key = models.CharField(max_length=200, null=True, blank=True)
    tool_choice = JSONField(null=True, blank=True)
    parameters = JSONField(default=dict, blank=True)
    metadata = JSONField(default=dict, blank=True)
    extra = JSONField(default=dict, blank=True)
    message_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    # The conversation's own dates, as its source gives them (``source_dates``); null
    # when it gives none. ``created_at`` is when it was imported.
    started_at = models.DateTimeField(null=True, blank=True)
    last_message_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When its owner moved it to the trash (null: it is not there). A trashed conversation
    # keeps its rows but is out of every list, search, count, export and replay until it
    # is restored, or purged (``services.trash``) after ``TRASH_DAYS``.
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "content_hash"], name="conversation_unique_import_per_owner"
            ),
            models.UniqueConstraint(
                fields=["owner", "source_format", "source_key"],
                condition=models.Q(source_key__isnull=False),
                name="conversation_unique_source_key",
            ),
        ]
        # The list's default order and its date filters, by the conversation's own date
        # with undated ones last (``selectors.LIST_SORTS``), are served by the indexes
        # conversation_owner_started and conversation_owner_first, which migrations 0011
        # and 0013 make by hand: SQLite refuses their NULLS LAST. Every index of the list's
        # orders holds only the conversations out of the trash (``LIVE``), as every list
        # query asks (migration 0013).
        indexes = [
            # The API: one owner's conversations, newest imported first (its cursor), in the
            # exact order of ``-created_at, -id`` so no sort step follows the index scan.
            models.Index(
                fields=["owner", "-created_at", "-id"],
                name="conversation_owner_newest",
                condition=LIVE,
            ),
            # The list page's other orders (``selectors.LIST_SORTS``).
            models.Index(
                fields=["owner", "-message_count", "-created_at"],
                name="conversation_owner_size",
                condition=LIVE,
            ),
            models.Index(
                fields=["owner", "-warning_count", "-created_at"],
                name="conversation_owner_warnings",
                condition=LIVE,
            ),
            models.Index(
                fields=["owner", "title", "-created_at"],
                name="conversation_owner_title",
                condition=LIVE,
            ),
            # Filters of the list: by source format and by model.
            models.Index(fields=["owner", "source_format"], name="conversation_owner_format"),
            models.Index(fields=["owner", "model"], name="conversation_owner_model"),
            # The trash: one owner's trashed conversations, last trashed first
            # (``selectors.trash_list``); holds only those.
            models.Index(
                fields=["owner", "-deleted_at", "-id"],
                name="conversation_owner_trash",
                condition=models.Q(deleted_at__isnull=False),
            ),
        ]
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or str(self.id)


class Attachment(models.Model):
    """Media bytes (images, documents, audio), stored once by content hash for everyone;
    who may read them follows from the blocks that point at them."""

    sha256 = models.CharField(max_length=64, primary_key=True)
    media_type = models.CharField(max_length=200)
    size = models.PositiveBigIntegerField()
    data = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.media_type} {self.sha256[:12]} ({self.size} bytes)"


class Message(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    position = models.PositiveIntegerField()
    role = models.CharField(max_length=20)
    name = models.CharField(max_length=200, null=True, blank=True)
    tool_call_id = models.CharField(max_length=200, null=True, blank=True)
    # The UMF message id (the provider's, or the node id in exported trees).
    source_id = models.CharField(max_length=200, null=True, blank=True)
    # The UMF ``parent_id`` when the source named parents itself (trees); the ``parent``
    # foreign key holds the structure in every case.
    source_parent_id = models.CharField(max_length=200, null=True, blank=True)
    model = models.CharField(max_length=200, null=True, blank=True)
    timestamp = models.DateTimeField(null=True, blank=True)
    finish_reason = models.CharField(max_length=20, null=True, blank=True)
    provider_finish_reason = models.CharField(max_length=60, null=True, blank=True)
    usage = JSONField(null=True, blank=True)
    reasoning = models.TextField(blank=True, null=True)
    # Context the source keeps out of the person's sight (ChatGPT's profile, memories):
    # stored for the exact round trip, never shown, searched, exported elsewhere or replayed.
    hidden = models.BooleanField(default=False, db_default=False)
    reasoning_details = JSONField(null=True, blank=True)
    metadata = JSONField(default=dict, blank=True)
    extra = JSONField(default=dict, blank=True)
    # Everything searchable in the message: text, reasoning, tool names, arguments and
    # results; ``search_vector`` is its tsvector, kept by the database itself, and a GIN
    # index over it serves ?q= on PostgreSQL (migration 0005).
    search_text = models.TextField(blank=True)
    # Its Chinese and Japanese text as characters and pairs of characters
    # (``search_syntax.cjk_terms``): their words are not split by spaces. Searched with it.
    search_cjk = models.TextField(blank=True, default="")
    search_vector = models.GeneratedField(
        expression=MessageSearchVector("search_text", "search_cjk", config="english"),
        output_field=SearchVectorField(null=True),
        db_persist=True,
    )
    # Which backend produced this message when it was not the conversation's source
    # (replays); empty means "as the conversation".
    provider = models.CharField(max_length=40, blank=True)
    # Set on the messages a replay wrote: they are branches beside the imported thread,
    # which stays exactly what was imported (and exports as such).
    replay_run = models.ForeignKey(
        "conversations.ReplayRun",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="messages",
    )

    class Meta:
        constraints = [
            # The imported thread has one message per position. A replay's answer takes
            # the position of the turn it regenerates (its sibling), so that many replays
            # of one conversation never wait on each other for a position.
            models.UniqueConstraint(
                fields=["conversation", "position"],
                condition=models.Q(replay_run__isnull=True),
                name="message_unique_position",
            )
        ]
        ordering = ["conversation", "position"]

    def __str__(self) -> str:
        return f"{self.role} #{self.position}"


class ContentBlock(models.Model):
    """One block of a message. ``text`` holds the readable text (text, refusal, thinking,
    tool-result text); ``payload`` the rest of the UMF block; base64 media lives in
    ``attachment`` instead of inline."""

    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    # No index of its own: block_unique_index (message, index) serves lookups by message.
    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="blocks", db_index=False
    )
    index = models.PositiveIntegerField()
    type = models.CharField(max_length=20)
    text = models.TextField(blank=True, null=True)
    payload = JSONField(default=dict, blank=True)
    attachment = models.ForeignKey(
        Attachment, null=True, blank=True, on_delete=models.PROTECT, related_name="blocks"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "index"], name="block_unique_index")
        ]
        ordering = ["message", "index"]

    def __str__(self) -> str:
        return f"{self.type} block {self.index}"


class ToolDefinition(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="tool_definitions"
    )
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, null=True)
    parameters = JSONField(null=True, blank=True)
    extra = JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "position"], name="tooldef_unique_position"
            )
        ]
        # The list filter "conversations offering or calling tool X".
        indexes = [models.Index(fields=["name"], name="tooldef_name")]
        ordering = ["conversation", "position"]

    def __str__(self) -> str:
        return self.name


class ToolCall(models.Model):
    """A tool call and, once answered, the block that answered it."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="tool_calls"
    )
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="tool_calls")
    block = models.OneToOneField(ContentBlock, on_delete=models.CASCADE, related_name="tool_call")
    call_id = models.CharField(max_length=200)
    name = models.CharField(max_length=200)
    arguments = JSONField(null=True, blank=True)
    result_block = models.OneToOneField(
        ContentBlock,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="answered_call",
    )
    is_error = models.BooleanField(null=True)

    class Meta:
        indexes = [
            # The list filter "conversations calling tool X".
            models.Index(fields=["name"], name="toolcall_name"),
            models.Index(fields=["conversation", "call_id"], name="toolcall_conversation_id"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.call_id})"


class Provenance(models.Model):
    """Which format a conversation (or one of its messages) was read from, and which
    provider and model produced it."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="provenance"
    )
    message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.CASCADE, related_name="provenance"
    )
    frontend = models.CharField(max_length=40, blank=True)
    backend = models.CharField(max_length=40, blank=True)
    middleware = JSONField(default=list, blank=True)
    router = models.CharField(max_length=100, blank=True)
    model = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.frontend or '?'} -> {self.backend or '?'}"


class DriftWarning(models.Model):
    """Something a conversion could not carry as it was.

    ``stage`` says which conversion: ``import`` (reading the source), ``record`` (warnings
    the source document itself carried, as UMF and ai.matey documents do), ``replay``.
    """

    class Stage(models.TextChoices):
        IMPORT = "import"
        RECORD = "record"
        REPLAY = "replay"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="warnings"
    )
    message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.CASCADE, related_name="warnings"
    )
    replay_run = models.ForeignKey(
        "conversations.ReplayRun",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="warnings",
    )
    position = models.PositiveIntegerField(default=0)
    stage = models.CharField(max_length=10, choices=Stage.choices)
    category = models.CharField(max_length=40)
    severity = models.CharField(max_length=10)
    text = models.TextField()
    field = models.CharField(max_length=300, blank=True, null=True)
    original_value = JSONField(null=True, blank=True)
    transformed_value = JSONField(null=True, blank=True)
    source = models.CharField(max_length=100, blank=True, null=True)
    details = JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "stage", "position"]
        indexes = [models.Index(fields=["category"], name="warning_category")]

    def __str__(self) -> str:
        return f"{self.category}: {self.text}"
