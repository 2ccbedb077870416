"""The archive's tables (see ``archive`` for the design); replays and import jobs apart."""

from conversations.models.archive import (
    LIVE,
    Attachment,
    ContentBlock,
    Conversation,
    DriftWarning,
    JSONField,
    Message,
    Provenance,
    ToolCall,
    ToolDefinition,
    uuid7,
)
from conversations.models.exports import ExportJob
from conversations.models.imports import ImportItem, ImportJob, Upload, UploadChunk
from conversations.models.replays import ReplayRun, ReplayTurn

__all__ = [
    "LIVE",
    "Attachment",
    "ContentBlock",
    "Conversation",
    "DriftWarning",
    "ExportJob",
    "ImportItem",
    "ImportJob",
    "JSONField",
    "Message",
    "Provenance",
    "ReplayRun",
    "ReplayTurn",
    "ToolCall",
    "ToolDefinition",
    "Upload",
    "UploadChunk",
    "uuid7",
]
