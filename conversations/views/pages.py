"""The conversation list, a conversation, and the attachments its messages show."""

from __future__ import annotations

import mimetypes
import re
import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from conversations import forms, selectors
from conversations.ownership import current_user, owned_conversation
from conversations.provider_settings import configured_providers
from conversations.views.replay import typed_replay_form

# The session key of the last deletion's undo (views.trash), shown by the next list page.
UNDO = "umf_undo"

PAGE_SIZE = 50
# Shown inline; anything else (SVG, HTML, PDF...) is a download, never a page of ours.
INLINE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}
# The types an attachment is served as: a user sets an attachment's media type, and one
# served as application/javascript or text/css would load as a same-origin script or
# stylesheet (<script src>) despite the CSP. Every other type is served as bytes.
SERVED_AS_ITSELF = re.compile(r"(image|audio)/[\w.+-]+|application/pdf|text/plain", re.ASCII)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 as JSON under /api/, as a page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": "not found", "field": None}}
        return JsonResponse(body, status=404)
    return render(request, "404.html", status=404)


@login_required
@require_GET
def conversation_list(request: HttpRequest) -> HttpResponse:
    form = forms.ConversationFilterForm(request.GET or None)
    filters = form.selector_kwargs() if form.is_valid() else {}
    conversations = selectors.conversation_sorted(
        selectors.conversation_list(owner=current_user(request), **filters),
        request.GET.get("sort", ""),
    )
    page = page_number(request)
    # One row more than a page tells whether there is a next one, without a COUNT.
    rows = list(conversations[(page - 1) * PAGE_SIZE : page * PAGE_SIZE + 1])
    rows, has_next = rows[:PAGE_SIZE], len(rows) > PAGE_SIZE
    ids = [row.pk for row in rows]
    query = filters.get("query")
    hits = selectors.search_hits(conversation_ids=ids, query=query) if query else {}
    context = {
        "form": form,
        "rows": rows,
        "models": selectors.conversation_models(conversation_ids=ids) if ids else {},
        "hits": hits,
        "page": page,
        "has_next": has_next,
        "querystring": urlencode([(k, v) for k, v in request.GET.items() if k != "page"]),
        # The column headers' links: the same filters in another order.
        "unsorted": urlencode([(k, v) for k, v in request.GET.items() if k not in SORT_KEYS]),
        "sort": request.GET.get("sort") or "newest",
        "filtered": any(v not in (None, "") for v in filters.values()),
        "export_formats": forms.SelectionForm()["export_format"],
    }
    htmx = request.headers.get("HX-Request") == "true"
    if not htmx:  # the last deletion's undo, offered once (views.trash)
        context["undo"] = request.session.pop(UNDO, None)
    template = "conversations/_list_results.html" if htmx else "conversations/list.html"
    return render(request, template, context)


SORT_KEYS = ("page", "sort")


@login_required
@require_GET
def conversation_count(request: HttpRequest) -> HttpResponse:
    """How many conversations the list's filters match, fetched by the list after it
    shows (so the list's own queries stay the same, and a count of a broad search never
    holds the page back)."""
    form = forms.ConversationFilterForm(request.GET or None)
    filters = form.selector_kwargs() if form.is_valid() else {}
    total = selectors.conversation_count(owner=current_user(request), **filters)
    return render(request, "conversations/_list_count.html", {"total": total})


@login_required
@require_GET
def filter_suggestions(request: HttpRequest, field: str) -> HttpResponse:
    """``<option>``s for the model or tool filter's datalist: names starting with what
    was typed."""
    if field not in ("model", "tool"):
        raise Http404("no such filter")
    prefix = request.GET.get(field, "").strip()[:200]
    names = selectors.filter_suggestions(owner=current_user(request), field=field, prefix=prefix)
    return render(request, "conversations/_suggestions.html", {"names": names})


def page_number(request: HttpRequest) -> int:
    """The page asked for (``?page=``, from 1)."""
    try:
        return max(int(request.GET.get("page", "1")), 1)
    except ValueError:
        return 1


@login_required
@require_GET
def conversation_detail(request: HttpRequest, pk: Any) -> HttpResponse:
    conversation = owned_conversation(request, pk)
    thread = selectors.conversation_thread(
        conversation=conversation,
        leaf=_message_id(request, "leaf"),
        at=_message_id(request, "at"),
    )
    typed = typed_replay_form(request, conversation.pk)
    replay_form = typed or forms.ReplayForm(initial={"provider": "echo", "model": "echo-1"})
    context = {
        "conversation": conversation,
        "thread": thread,
        "export_form": forms.ExportForm(initial={"format": conversation.source_format}),
        "replay_form": replay_form,
        "provider_models": {n: list(c.models) for n, c in configured_providers().items()},
        "runs": selectors.replay_runs_of(conversation=conversation),
        "leaf": request.GET.get("leaf", ""),
        "replay_open": typed is not None,
    }
    return render(request, "conversations/detail.html", context)


def _message_id(request: HttpRequest, parameter: str) -> Any:
    """The message id in ``parameter`` (``leaf``: the branch; ``at``: where the window
    is), or None when it is absent or not an id."""
    try:
        return uuid.UUID(request.GET.get(parameter, ""))
    except ValueError:
        return None


@login_required
@require_GET
def attachment(request: HttpRequest, sha256: str) -> HttpResponse:
    """An attachment's bytes, only to someone whose conversation shows it. Raster images
    inline; every other type as a download, so no stored file can act as a page here, and
    under its own type only when that is an image, audio, a PDF or plain text."""
    found = selectors.attachment_for(owner=current_user(request), sha256=sha256.lower())
    if found is None:
        raise Http404("no such attachment")
    inline = found.media_type in INLINE_TYPES
    media_type = found.media_type.split(";")[0].strip().lower()
    served = SERVED_AS_ITSELF.fullmatch(media_type) is not None
    content_type = media_type if served else "application/octet-stream"
    response = HttpResponse(bytes(found.data), content_type=content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cache-Control"] = "private, max-age=86400"
    if not inline:
        name = f"{found.sha256[:16]}{_extension(found.media_type)}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _extension(media_type: str) -> str:
    return mimetypes.guess_extension(media_type.split(";")[0].strip()) or ".bin"
