"""What one replay may cost, checked before a run is stored: the provider's models and
parameters (:mod:`providers.clients.limits`), the turns of a run in mode ``each``
(``REPLAY_MAX_TURNS``), and the provider calls a user may start per UTC day
(``REPLAY_DAILY_CALLS``, counted as the turns of the runs they started that day)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count
from django.utils import timezone

from conversations import models
from providers.clients import limits
from providers.clients.base import ProviderConfig


@dataclass(frozen=True)
class Refusal:
    """Why a replay may not start: the input at fault, in words, and the HTTP status
    (422; 429 with ``retry_after`` seconds for a spent daily budget)."""

    field: str
    message: str
    status: int = 422
    retry_after: int | None = None


def replay_refusal(
    *,
    owner: User,
    config: ProviderConfig,
    model: str,
    parameters: dict[str, Any],
    turns: int,
) -> Refusal | None:
    """The first reason this replay may not start, or None."""
    refused_model = limits.model_refusal(config.models, config.name, model)
    if refused_model:
        return Refusal("model", refused_model)
    refused_parameter = limits.parameter_refusal(config.parameters, config.name, parameters)
    if refused_parameter:
        return Refusal(*refused_parameter)
    if turns > settings.REPLAY_MAX_TURNS:
        return Refusal(
            "mode",
            f"this replay would regenerate {turns} turns; the most one run may is "
            f"{settings.REPLAY_MAX_TURNS}: start later in the thread with from_message",
        )
    return _budget_refusal(owner, turns)


def _budget_refusal(owner: User, turns: int) -> Refusal | None:
    now = timezone.now()
    midnight = datetime.combine(now.date(), time.min, tzinfo=now.tzinfo)
    used = models.ReplayTurn.objects.filter(
        run__owner=owner, run__created_at__gte=midnight
    ).aggregate(n=Count("pk"))["n"]
    budget = settings.REPLAY_DAILY_CALLS
    if used + turns <= budget:
        return None
    retry_after = int((midnight + timedelta(days=1) - now).total_seconds()) + 1
    return Refusal(
        "provider",
        f"this replay needs {turns} provider call(s) and {budget - min(used, budget)} of "
        f"today's {budget} are left; the budget renews at midnight UTC",
        status=429,
        retry_after=retry_after,
    )
