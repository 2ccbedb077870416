"""Who is asking, and the rows they may reach: the one place where the interfaces (the API
and the pages) turn a request and an id from its URL into a row of the requester's.

Someone else's row, a row that does not exist and an id that is not one all answer 404
(``Http404``: the pages show their 404 page, the API its JSON error), so that nobody can
tell another owner's ids from ids never made.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest
from rest_framework.request import Request

from conversations import models, selectors

Found = TypeVar("Found")


def current_user(request: HttpRequest | Request) -> User:
    """The authenticated user (every API view and every page but login requires one)."""
    return cast(User, request.user)


def object_id(value: Any) -> uuid.UUID:
    """An id from a URL (the API's routes take any text, the pages' only UUIDs)."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise Http404("not an id") from None


def owned(read: Callable[[], Found]) -> Found:
    """What ``read`` (a selector narrowed to the owner) finds, or 404."""
    try:
        return read()
    except ObjectDoesNotExist:
        raise Http404("not found") from None


def owned_conversation(request: HttpRequest | Request, pk: Any) -> models.Conversation:
    """The requester's conversation, or 404 (also for someone else's)."""
    owner, conversation_id = current_user(request), object_id(pk)
    return owned(lambda: selectors.conversation_get(owner=owner, conversation_id=conversation_id))


def owned_replay_run(
    request: HttpRequest | Request, pk: Any, *, conversation_id: Any = None
) -> models.ReplayRun:
    """The requester's replay run (of that conversation, when named) with its turns, or
    404."""
    owner, run_id = current_user(request), object_id(pk)
    if conversation_id is None:
        return owned(lambda: selectors.replay_run_detail(owner=owner, run_id=run_id))
    of = object_id(conversation_id)
    return owned(lambda: selectors.replay_run_get(owner=owner, run_id=run_id, conversation_id=of))


def owned_import_job(request: HttpRequest | Request, pk: Any) -> models.ImportJob:
    """The requester's import job, or 404."""
    owner, job_id = current_user(request), object_id(pk)
    return owned(lambda: selectors.import_job_get(owner=owner, job_id=job_id))


def owned_export_job(request: HttpRequest | Request, pk: Any) -> models.ExportJob:
    """The requester's export job, or 404."""
    owner, job_id = current_user(request), object_id(pk)
    return owned(lambda: selectors.export_job_get(owner=owner, job_id=job_id))
