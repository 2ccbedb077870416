"""Replays from the conversation page: start one, watch it run, compare it turn by turn."""

from __future__ import annotations

from typing import Any

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from conversations import export_files, forms, models, selectors
from conversations.ownership import current_user, owned_conversation, owned_replay_run
from conversations.services import replays
from conversations.services.enqueue import QueueUnavailable
from conversations.views.compare import compare_turn
from conversations.views.transfer import _preview


@login_required
@require_POST
def replay_start(request: HttpRequest, pk: Any) -> HttpResponse:
    conversation = owned_conversation(request, pk)
    form = forms.ReplayForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(str(e) for e in v)}" for k, v in form.errors.items())
        return _not_started(request, conversation, form, errors)
    try:
        run = replays.replay_start(
            owner=current_user(request),
            conversation=conversation,
            provider=form.cleaned_data["provider"],
            model=form.cleaned_data["model"],
            mode=form.cleaned_data["mode"],
            parameters=form.replay_parameters(),
        )
    except replays.ReplayRequestError as error:
        return _not_started(request, conversation, form, error.message)
    except QueueUnavailable as waiting:
        flash.warning(request, f"{waiting}: it starts once the queue is back.")
        return redirect("replay-detail", pk=conversation.pk, run_id=waiting.object_id)
    return redirect("replay-detail", pk=conversation.pk, run_id=run.pk)


def _not_started(
    request: HttpRequest, conversation: models.Conversation, form: forms.ReplayForm, why: str
) -> HttpResponse:
    """Back to the conversation, with the reason, and the form as it was typed (kept in
    the session for the next view of the page: see :func:`typed_replay_form`)."""
    flash.error(request, f"Replay not started: {why}")
    request.session[_TYPED.format(conversation.pk)] = {
        name: request.POST.get(name, "") for name in form.fields
    }
    return redirect(reverse("conversation-detail", args=[conversation.pk]) + "#replay")


_TYPED = "replay-form:{}"


def typed_replay_form(request: HttpRequest, conversation_id: Any) -> forms.ReplayForm | None:
    """The replay form as it was typed before an error, once (None when there is none)."""
    typed = request.session.pop(_TYPED.format(conversation_id), None)
    return forms.ReplayForm(initial=typed) if isinstance(typed, dict) else None


def _finished(run: models.ReplayRun) -> bool:
    return run.status in (run.Status.SUCCEEDED, run.Status.FAILED)


@login_required
@require_GET
def replay_detail(request: HttpRequest, pk: Any, run_id: Any) -> HttpResponse:
    """Progress while the run works; then original and replay side by side."""
    run = owned_replay_run(request, run_id, conversation_id=pk)
    turns = [compare_turn(t) for t in selectors.replay_comparison(run=run)]
    context = {"run": run, "conversation": run.conversation, "turns": turns}
    context["finished"] = _finished(run)
    context["warnings"] = selectors.replay_run_warnings(run=run)
    return render(request, "conversations/replay.html", context)


@login_required
@require_GET
def replay_status(request: HttpRequest, pk: Any, run_id: Any) -> HttpResponse:
    """The fragment htmx polls; once the run is over, the whole page reloads to compare."""
    run = owned_replay_run(request, run_id, conversation_id=pk)
    response = render(request, "conversations/_replay_status.html", {"run": run})
    if _finished(run):
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_GET
def replay_turn_request(request: HttpRequest, pk: Any, run_id: Any, index: int) -> HttpResponse:
    """The request a turn sent, rebuilt whole: the start of it as a fragment for the
    comparison (htmx, when its box opens), or all of it as a JSON file."""
    run = owned_replay_run(request, run_id, conversation_id=pk)
    try:
        turn = selectors.replay_turn_at(run=run, index=index)
    except models.ReplayTurn.DoesNotExist:
        raise Http404("no such turn") from None
    sent = selectors.replay_turn_request(turn=turn)
    if sent is None:
        raise Http404("this turn sent no request that was stored")
    body = export_files.encode(sent)
    if request.headers.get("HX-Request") != "true":
        response = HttpResponse(body, content_type=export_files.payload_media_type(sent))
        response["X-Content-Type-Options"] = "nosniff"
        return response
    context = {"preview": _preview(body, len(body)), "whole": request.path}
    return render(request, "conversations/_turn_request.html", context)
