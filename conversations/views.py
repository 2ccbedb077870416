"""Browser pages: thin views over the same selectors and services as the API."""

from __future__ import annotations

import orjson
from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from conversations import models, selectors, services
from providers import formats

PAGE_SIZE = 50


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 as JSON under /api/, as a page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": "not found", "field": None}}
        return JsonResponse(body, status=404)
    return render(request, "404.html", status=404)


@login_required
def conversation_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    source_format = request.GET.get("format", "").strip()
    conversations = selectors.conversation_list(
        owner=request.user,  # type: ignore[arg-type]
        query=query or None,
        source_format=source_format or None,
    )
    page = Paginator(conversations, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "conversations/list.html",
        {
            "page": page,
            "query": query,
            "format": source_format,
            "formats": formats.all_formats(),
        },
    )


@login_required
def conversation_detail(request: HttpRequest, pk: str) -> HttpResponse:
    try:
        conversation = selectors.conversation_get(owner=request.user, conversation_id=pk)  # type: ignore[arg-type]
    except models.Conversation.DoesNotExist:
        raise Http404("no such conversation") from None
    stored = selectors.conversation_umf(conversation=conversation)
    return render(
        request,
        "conversations/detail.html",
        {
            "conversation": conversation,
            "umf": stored.umf,
            "warnings": selectors.warnings_for(conversation=conversation),
            "formats": formats.all_formats(),
        },
    )


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, object] = {"formats": formats.all_formats(), "selected": "auto"}
    if request.method == "POST":
        format_id = request.POST.get("format", "auto")
        context["selected"] = format_id
        raw = request.POST.get("payload", "")
        context["payload"] = raw
        try:
            payload = orjson.loads(raw)
            _, results = services.conversation_import(
                owner=request.user,  # type: ignore[arg-type]
                format_id=format_id,
                payload=payload,
            )
        except orjson.JSONDecodeError as error:
            context["error"] = f"The payload is not valid JSON: {error}"
        except formats.FormatError as error:
            context["error"] = f"{error.message}" + (f" (at {error.field})" if error.field else "")
        else:
            first = results[0].conversation
            flash.success(request, f"Imported {len(results)} conversation(s).")
            return redirect("conversation-detail", pk=first.pk)
    return render(request, "import.html", context)
