"""The import upload's file goes straight into PostgreSQL as it arrives (services.uploads):
never held in memory or written to the web host's disk, so a worker on any host reads it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from rest_framework import exceptions

from conversations import models
from conversations.services import uploads


class StoredUploadFile(UploadedFile):  # type: ignore[type-arg]
    """A file the handler stored: readable and seekable (from its chunks), and
    ``upload``, the row a job takes over."""

    def __init__(self, upload: models.Upload, name: str, content_type: str | None) -> None:
        super().__init__(uploads.upload_open(upload), name, content_type, upload.size)
        self.upload = upload


class DatabaseUploadHandler(FileUploadHandler):
    """Stores the request's ``file`` part as an upload; other file parts are dropped."""

    FIELD = "file"

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.writer: uploads.UploadWriter | None = None
        self.announced = 0

    def handle_raw_input(self, input_data: Any, META: Any, content_length: int, *args: Any) -> None:
        self.announced = content_length
        return None

    def new_file(self, field_name: str, *args: Any, **kwargs: Any) -> None:
        super().new_file(field_name, *args, **kwargs)
        if field_name == self.FIELD and self.writer is None:
            # Set by DRF's authentication, which runs before the body is read.
            owner = getattr(self.request, "user", None)
            if not isinstance(owner, User):
                raise exceptions.NotAuthenticated()
            self.writer = uploads.UploadWriter(owner=owner, announced=self.announced)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if self.field_name == self.FIELD and self.writer is not None:
            try:
                self.writer.write(raw_data)
            except BaseException:
                self.writer.abort()
                raise
        return None

    def file_complete(self, file_size: int) -> StoredUploadFile | None:
        if self.field_name != self.FIELD or self.writer is None:
            return None
        upload = self.writer.close()
        return StoredUploadFile(upload, self.file_name or "upload.json", self.content_type)

    def upload_interrupted(self) -> None:
        if self.writer is not None:
            self.writer.abort()
