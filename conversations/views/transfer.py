"""Getting conversations in (a paste, or a file imported in the background) and out (a
download in any format, with what the target cannot hold listed first)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from conversations import export_files, forms, models, selectors, services
from conversations.ownership import current_user, owned_conversation, owned_import_job
from conversations.services import import_files, import_jobs
from conversations.services.enqueue import QueueUnavailable
from conversations.services.uploads import UploadQuotaExceeded
from providers import formats


@login_required
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponse:
    paste, upload = forms.PasteImportForm(), forms.UploadImportForm()
    context: dict[str, Any] = {}
    if request.method == "POST" and "file" in request.FILES:
        upload = forms.UploadImportForm(request.POST, request.FILES)
        if upload.is_valid() and (started := _start_job(request, upload)) is not None:
            return started
    elif request.method == "POST":
        paste = forms.PasteImportForm(request.POST)
        if paste.is_valid():
            context.update(_import_paste(request, paste))
            if "results" in context:  # imported: an empty form for the next one
                paste = forms.PasteImportForm()
    context.update(paste=paste, upload=upload)
    context["jobs"] = selectors.import_job_list(owner=current_user(request), limit=5)
    return render(request, "import.html", context)


def _import_paste(request: HttpRequest, form: forms.PasteImportForm) -> dict[str, Any]:
    data = form.cleaned_data
    try:
        format_id, results = services.conversation_import(
            owner=current_user(request),
            format_id=data["format"],
            payload=data["payload"],
            title=data.get("title") or None,
        )
    except formats.FormatError as error:
        form.add_error("payload", error.message + (f" (at {error.field})" if error.field else ""))
        return {}
    return {"detected": format_id, "results": results}


def _start_job(request: HttpRequest, form: forms.UploadImportForm) -> HttpResponse | None:
    """A redirect to the new job's page, or None when the form got the reason why not."""
    upload = form.cleaned_data["file"]
    reason = import_files.upload_refusal(upload)
    if reason is not None:
        form.add_error("file", reason)
        return None
    try:
        job = import_jobs.import_job_create(
            owner=current_user(request),
            upload=upload,
            filename=upload.name or "upload.json",
            format_id=form.cleaned_data["format"],
        )
    except QueueUnavailable as waiting:
        # The job is stored, queued: its page shows it start once the queue is back.
        return redirect("import-job", pk=waiting.object_id)
    except UploadQuotaExceeded as error:
        form.add_error("file", error.message)
        return None
    return redirect("import-job", pk=job.pk)


@login_required
@require_GET
def import_job_detail(request: HttpRequest, pk: Any) -> HttpResponse:
    job = owned_import_job(request, pk)
    return render(request, "import_job.html", _job_context(request, job))


@login_required
@require_GET
def import_job_status(request: HttpRequest, pk: Any) -> HttpResponse:
    """The progress fragment htmx polls while the job runs."""
    job = owned_import_job(request, pk)
    return render(request, "_import_job_status.html", _job_context(request, job))


JOB_ITEMS_PAGE = 100


def _job_context(request: HttpRequest, job: models.ImportJob) -> dict[str, Any]:
    """The job, and once it has ended a page of its results (``?page=``, from 1), all of
    them or the failed ones only (``?failed=1``)."""
    finished = job.status in (job.Status.SUCCEEDED, job.Status.FAILED)
    failed_only = request.GET.get("failed") == "1"
    total = job.failed if failed_only else job.processed
    pages = max((total + JOB_ITEMS_PAGE - 1) // JOB_ITEMS_PAGE, 1)
    try:
        page = min(max(int(request.GET.get("page", "1")), 1), pages)
    except ValueError:
        page = 1
    items = (
        selectors.import_job_items(
            job=job,
            limit=JOB_ITEMS_PAGE,
            offset=(page - 1) * JOB_ITEMS_PAGE,
            status=models.ImportItem.Status.FAILED if failed_only else None,
            with_conversations=True,
        )
        if finished
        else []
    )
    return {
        "job": job,
        "finished": finished,
        "items": items,
        "page": page,
        "pages": pages,
        "failed_only": failed_only,
        "first_number": (page - 1) * JOB_ITEMS_PAGE + 1,
    }


def _export_target(request: HttpRequest, pk: Any) -> tuple[models.Conversation, Any, Any]:
    """The conversation, the chosen format and the branch to export (None: the tree)."""
    conversation = owned_conversation(request, pk)
    form = forms.ExportForm(request.GET)
    if not form.is_valid():
        raise Http404("no such format")
    return conversation, formats.get(form.cleaned_data["format"]), form.export_leaf()


@login_required
@require_GET
def export_download(request: HttpRequest, pk: Any) -> HttpResponseBase:
    """The conversation as a file in the chosen format (what the API's export returns); a
    long one, in a format that can stream, written a message at a time (compact JSON)."""
    conversation, target, leaf = _export_target(request, pk)
    exported = selectors.conversation_export_or_stream(
        conversation=conversation, target=target, leaf=leaf
    )
    extension = export_files.extension(target)
    name = f"{slugify(conversation.title)[:60] or 'conversation'}.{target.id}{extension}"
    response: HttpResponseBase
    if isinstance(exported, formats.Rendered):
        body = export_files.encode(exported.payload)
        response = HttpResponse(body, content_type=export_files.media_type(name))
    else:
        response = StreamingHttpResponse(exported, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


PREVIEW_CHARS = 20_000


def _preview(body: bytes, size: int | None) -> dict[str, Any]:
    """The start of what the download holds, as text, and its whole size in bytes (None
    when it is streamed: unknown until written)."""
    text = body[:PREVIEW_CHARS].decode(errors="ignore")  # not a character cut in two
    return {"text": text, "cut": size is None or size > PREVIEW_CHARS, "size": size}


def _stream_start(stream: Iterator[bytes]) -> bytes:
    """The first bytes of a streamed export, enough for a preview (the rest never read)."""
    start = b""
    for chunk in stream:
        start += chunk
        if len(start) > PREVIEW_CHARS:
            break
    return start


@login_required
@require_GET
def export_warnings(request: HttpRequest, pk: Any) -> HttpResponse:
    """What exporting to the chosen format would lose: the fragment the menu fetches."""
    conversation, target, leaf = _export_target(request, pk)
    exported = selectors.conversation_export_or_stream(
        conversation=conversation, target=target, leaf=leaf
    )
    if isinstance(exported, formats.Rendered):
        body = export_files.encode(exported.payload)
        found, preview = exported.warnings, _preview(body, len(body))
    else:  # a format that streams loses nothing
        found, preview = [], _preview(_stream_start(exported), None)
    # What is lost first; info notes (facts a format has no place for, ids rewritten) last.
    warnings = sorted(found, key=lambda w: w.severity == "info")
    notes = sum(w.severity == "info" for w in warnings)
    context = {
        "conversation": conversation,
        "target": target,
        "warnings": warnings,
        "serious": len(warnings) - notes,
        "notes": notes,
        "preview": preview,
    }
    return render(request, "conversations/_export_warnings.html", context)
