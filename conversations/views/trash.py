"""Deleting from the pages: to the trash (with an undo on the page that deleted),
restoring, and purging for good."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from conversations import forms, selectors, services
from conversations.ownership import current_user
from conversations.services.trash import NotFound
from conversations.views.pages import PAGE_SIZE, UNDO, page_number


def back(request: HttpRequest, default: str = "/") -> str:
    """Where the form came from (its ``next``), when that is a page of this site."""
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else default


def _plural(count: int) -> str:
    return f"{count} conversation{'' if count == 1 else 's'}"


@login_required
@require_POST
def trash_add(request: HttpRequest) -> HttpResponse:
    """Move the ticked conversations (or all that match) to the trash; the page it
    returns to offers to undo it."""
    form = forms.SelectionForm(request.POST)
    selection = form.selection() if form.is_valid() else None
    if selection is None:
        messages.error(request, "Tick the conversations to delete first.")
        return redirect(back(request))
    try:
        trashed = services.conversations_trash(owner=current_user(request), **selection)
    except NotFound:
        raise Http404("not your conversations") from None
    request.session[UNDO] = {
        "deleted_at": trashed.deleted_at.isoformat(),
        "count": trashed.count,
        "text": f"Moved {_plural(trashed.count)} to the trash.",
    }
    return redirect(back(request))


@login_required
@require_POST
def trash_restore(request: HttpRequest) -> HttpResponse:
    """Take conversations out of the trash: those ticked, or those one deletion moved
    there (its undo)."""
    form = forms.RestoreForm(request.POST)
    if not form.is_valid():
        raise Http404("no such conversations")
    ids, deleted_at = form.cleaned_data.get("ids") or None, form.cleaned_data.get("deleted_at")
    if ids is None and deleted_at is None:
        messages.error(request, "Tick the conversations to restore first.")
        return redirect(back(request, "/trash/"))
    try:
        restored = services.conversations_restore(
            owner=current_user(request), ids=ids, deleted_at=deleted_at
        )
    except NotFound:
        raise Http404("not in your trash") from None
    request.session.pop(UNDO, None)
    messages.success(request, f"Restored {_plural(restored)}.")
    return redirect(back(request, "/trash/"))


@login_required
@require_POST
def trash_purge(request: HttpRequest) -> HttpResponse:
    """Delete for good the ticked conversations of the trash, or (``all``) all of it."""
    form = forms.RestoreForm(request.POST)
    if not form.is_valid():
        raise Http404("no such conversations")
    everything = request.POST.get("all") == "1"
    ids = form.cleaned_data.get("ids") or None
    if ids is None and not everything:
        messages.error(request, "Tick the conversations to delete for good first.")
        return redirect("/trash/")
    try:
        purged = services.trash_empty(owner=current_user(request), ids=ids)
    except NotFound:
        raise Http404("not in your trash") from None
    messages.success(request, f"Deleted {_plural(purged)} for good.")
    return redirect("/trash/")


@login_required
@require_GET
def trash_page(request: HttpRequest) -> HttpResponse:
    owner = current_user(request)
    page = page_number(request)
    rows = list(selectors.trash_list(owner=owner)[(page - 1) * PAGE_SIZE : page * PAGE_SIZE + 1])
    context = {
        "rows": rows[:PAGE_SIZE],
        "has_next": len(rows) > PAGE_SIZE,
        "page": page,
        "total": selectors.trash_count(owner=owner),
        "trash_days": settings.TRASH_DAYS,
    }
    return render(request, "conversations/trash.html", context)
