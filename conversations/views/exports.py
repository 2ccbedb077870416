"""Exports of many conversations from the pages: "Export all", "Export these results" or
the ticked ones, as a job whose page shows its progress, then its file."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from conversations import export_files, forms, models, selectors
from conversations.ownership import current_user, owned_export_job
from conversations.services import export_jobs
from conversations.services.enqueue import QueueUnavailable
from conversations.services.trash import NotFound
from conversations.views.trash import back


def export_file_response(job: models.ExportJob) -> StreamingHttpResponse | None:
    """The job's file as a download, streamed a stored chunk at a time (None until the job
    has succeeded). Only ever called with the owner's job (``owned_export_job``)."""
    if job.status != models.ExportJob.Status.SUCCEEDED or job.file is None:
        return None
    response = StreamingHttpResponse(
        selectors.export_file_chunks(job=job), content_type=export_files.media_type(job.filename)
    )
    response["Content-Length"] = str(job.file.size)
    response["Content-Disposition"] = f'attachment; filename="{job.filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def export_jobs_page(request: HttpRequest) -> HttpResponse:
    """The owner's exports, and (POST) a new one: of the ticked conversations, of all that
    match the list's filters, or (``everything``) of the whole archive."""
    owner = current_user(request)
    form = forms.SelectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        selection = {"filters": {}} if request.POST.get("everything") else form.selection()
        if selection is None:
            messages.error(request, "Tick the conversations to export first.")
            return redirect(back(request))
        try:
            job = export_jobs.export_job_create(
                owner=owner, format_id=form.cleaned_data["export_format"] or "umf", **selection
            )
        except NotFound:
            raise Http404("not your conversations") from None
        except QueueUnavailable as waiting:
            return redirect("export-job", pk=waiting.object_id)
        return redirect("export-job", pk=job.pk)
    context = {"form": form, "jobs": selectors.export_job_list(owner=owner, limit=20)}
    return render(request, "exports.html", context)


def _job_context(job: models.ExportJob) -> dict[str, Any]:
    finished = job.status in (job.Status.SUCCEEDED, job.Status.FAILED)
    percent = round(100 * job.processed / job.total) if job.total else 0
    return {"job": job, "finished": finished, "percent": percent}


@login_required
@require_GET
def export_job_detail(request: HttpRequest, pk: Any) -> HttpResponse:
    return render(request, "export_job.html", _job_context(owned_export_job(request, pk)))


@login_required
@require_GET
def export_job_status(request: HttpRequest, pk: Any) -> HttpResponse:
    """The progress fragment htmx polls while the job runs."""
    return render(request, "_export_job_status.html", _job_context(owned_export_job(request, pk)))


@login_required
@require_GET
def export_job_download(request: HttpRequest, pk: Any) -> HttpResponse | StreamingHttpResponse:
    response = export_file_response(owned_export_job(request, pk))
    if response is None:
        raise Http404("the export has no file (yet)")
    return response
