"""Background imports: upload a file (202 and a job), then follow its progress."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import selectors
from conversations.api.errors import PayloadTooLarge, error_response, idempotency_key
from conversations.api.serializers.imports import (
    ImportItemOutput,
    ImportJobDetailOutput,
    ImportJobOutput,
    ImportUploadInput,
)
from conversations.api.throttles import WriteRateThrottle
from conversations.api.upload_handler import DatabaseUploadHandler, StoredUploadFile
from conversations.ownership import current_user, owned_import_job
from conversations.services import import_files, import_jobs, uploads

MAX_LISTED_ITEMS = 1000
MAX_LISTED_JOBS = 200


class ImportUploadParser(MultiPartParser):
    """Multipart, refused with 413 before reading when larger than MAX_IMPORT_BYTES."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        if length > settings.MAX_IMPORT_BYTES:
            raise PayloadTooLarge(
                f"upload is {length} bytes; the limit is {settings.MAX_IMPORT_BYTES}"
            )
        return super().parse(stream, media_type, parser_context)


def _discard_unused(request: Request) -> None:
    """Delete what the request stored that no job took (a refused request)."""
    for file in request.FILES.values():  # DRF's: empty, never parsed again, after an error
        if isinstance(file, StoredUploadFile) and not hasattr(file.upload, "job"):
            uploads.upload_delete(file.upload.pk)


class ImportJobListView(APIView):
    throttle_classes = [WriteRateThrottle]
    throttle_scope = "imports"

    parser_classes = [ImportUploadParser]

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST":
            # Before anything reads the body (a session's CSRF check reads the form).
            request.upload_handlers = [DatabaseUploadHandler(request)]
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(
        request={"multipart/form-data": ImportUploadInput},
        responses={202: ImportJobOutput},
        summary="Upload a file of conversations to import in the background",
    )
    def post(self, request: Request) -> Response:
        key = idempotency_key(request)
        # A retry is answered before its body is read: the upload is stored once.
        owner = current_user(request)
        if earlier := selectors.import_job_by_key(owner=owner, idempotency_key=key):
            return Response(ImportJobOutput(earlier).data, status=status.HTTP_202_ACCEPTED)
        try:
            data = ImportUploadInput(data=request.data)
            data.is_valid(raise_exception=True)
            upload = data.validated_data["file"]
            reason = import_files.upload_refusal(upload)
            if reason is not None:
                # A well-formed request whose file cannot be what it must be (as a payload
                # that is not its format): 422, and no job.
                return error_response(422, "unreadable_file", reason, "file")
            job = import_jobs.import_job_create(
                owner=owner,
                upload=upload.upload if isinstance(upload, StoredUploadFile) else upload,
                filename=upload.name or "upload.json",
                format_id=data.validated_data["format"],
                idempotency_key=key,
            )
        finally:
            _discard_unused(request)
        job = selectors.import_job_get(owner=owner, job_id=job.pk)  # as the worker may have left it
        return Response(ImportJobOutput(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=ImportJobOutput(many=True), summary="Your import jobs, newest first")
    def get(self, request: Request) -> Response:
        jobs = selectors.import_job_list(owner=current_user(request), limit=MAX_LISTED_JOBS)
        return Response(ImportJobOutput(jobs, many=True).data)


class ImportJobDetailView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("offset", int, required=False)],
        responses=ImportJobDetailOutput,
        summary="An import job: progress and a result per conversation",
    )
    def get(self, request: Request, pk: str) -> Response:
        job = owned_import_job(request, pk)
        try:
            offset = max(int(request.query_params.get("offset", 0)), 0)
        except ValueError:
            return error_response(400, "invalid", "offset must be a number", "offset")
        items = selectors.import_job_items(job=job, offset=offset, limit=MAX_LISTED_ITEMS)
        body = ImportJobOutput(job).data
        body["items"] = ImportItemOutput(items, many=True).data
        body["items_offset"] = offset
        return Response(body)
