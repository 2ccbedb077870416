"""People, as the management commands name them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User


def user_by_username(*, username: str) -> User | None:
    """The user with that username, if any."""
    found: User | None = get_user_model().objects.filter(username=username).first()
    return found
