"""The trash (deleted conversations, restored or purged) and export jobs (many
conversations written out as one file in the background)."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import selectors, services
from conversations.api.errors import error_response
from conversations.api.serializers.trash import (
    CountOutput,
    ExportJobInput,
    ExportJobOutput,
    PurgeInput,
    RestoreInput,
    SelectionInput,
    TrashedConversation,
    TrashedOutput,
    TrashPage,
)
from conversations.api.views import ConversationPagination
from conversations.ownership import current_user, owned_export_job
from conversations.services import export_jobs
from conversations.views.exports import export_file_response

MAX_LISTED_JOBS = 200


class TrashPagination(ConversationPagination):
    ordering = ("-deleted_at", "-id")


class TrashView(APIView):
    more_error_statuses = ("422",)  # an unknown cursor; ids not yours or already trashed

    @extend_schema(
        responses=TrashPage, summary="Your conversations in the trash, last trashed first"
    )
    def get(self, request: Request) -> Response:
        paginator = TrashPagination()
        page = paginator.paginate_queryset(
            selectors.trash_list(owner=current_user(request)), request, view=self
        )
        return paginator.get_paginated_response(TrashedConversation(page, many=True).data)

    @extend_schema(
        request=SelectionInput,
        responses=TrashedOutput,
        summary="Move conversations to the trash: by id, or all that list filters match",
    )
    def post(self, request: Request) -> Response:
        body = SelectionInput(data=request.data)
        body.is_valid(raise_exception=True)
        trashed = services.conversations_trash(owner=current_user(request), **body.selection())
        done = {"trashed": trashed.count, "deleted_at": trashed.deleted_at}
        return Response(TrashedOutput(done).data)

    @extend_schema(
        responses={200: CountOutput}, summary="Empty the trash: delete its conversations for good"
    )
    def delete(self, request: Request) -> Response:
        return Response({"count": services.trash_empty(owner=current_user(request))})


class TrashRestoreView(APIView):
    @extend_schema(
        request=RestoreInput,
        responses=CountOutput,
        summary="Take conversations out of the trash: by id, or those one action trashed (undo)",
    )
    def post(self, request: Request) -> Response:
        body = RestoreInput(data=request.data)
        body.is_valid(raise_exception=True)
        restored = services.conversations_restore(
            owner=current_user(request),
            ids=body.validated_data.get("ids"),
            deleted_at=body.validated_data.get("deleted_at"),
        )
        return Response({"count": restored})


class TrashPurgeView(APIView):
    @extend_schema(
        request=PurgeInput,
        responses=CountOutput,
        summary="Delete conversations in the trash for good, by id",
    )
    def post(self, request: Request) -> Response:
        body = PurgeInput(data=request.data)
        body.is_valid(raise_exception=True)
        purged = services.trash_empty(owner=current_user(request), ids=body.validated_data["ids"])
        return Response({"count": purged})


class ExportJobListView(APIView):
    @extend_schema(
        request=ExportJobInput,
        responses={202: ExportJobOutput},
        summary="Export conversations as one file in the background: by id, all that list "
        "filters match, or (neither) the whole archive",
    )
    def post(self, request: Request) -> Response:
        body = ExportJobInput(data=request.data)
        body.is_valid(raise_exception=True)
        owner = current_user(request)
        job = export_jobs.export_job_create(
            owner=owner, format_id=body.validated_data["format"], **body.selection()
        )
        job = selectors.export_job_get(owner=owner, job_id=job.pk)  # as the worker left it
        out = ExportJobOutput(job, context={"request": request})
        return Response(out.data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=ExportJobOutput(many=True), summary="Your export jobs, newest first")
    def get(self, request: Request) -> Response:
        jobs = selectors.export_job_list(owner=current_user(request), limit=MAX_LISTED_JOBS)
        return Response(ExportJobOutput(jobs, many=True, context={"request": request}).data)


class ExportJobDetailView(APIView):
    @extend_schema(responses=ExportJobOutput, summary="An export job: its progress, then its file")
    def get(self, request: Request, pk: str) -> Response:
        job = owned_export_job(request, pk)
        return Response(ExportJobOutput(job, context={"request": request}).data)


class ExportJobDownloadView(APIView):
    more_error_statuses = ("409",)

    @extend_schema(
        responses={(200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY)},
        summary="The file of an export job that has succeeded (409 before)",
    )
    def get(self, request: Request, pk: str) -> Response | StreamingHttpResponse:
        job = owned_export_job(request, pk)
        response = export_file_response(job)
        if response is None:
            return error_response(
                409, "not_ready", f"the export is {job.status}, it has no file to download", None
            )
        return response
