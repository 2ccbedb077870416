"""The demo account of ``make run``: a superuser with a published password (see the
``load_demo`` command, which refuses to make it in production)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token


def demo_user_ensure(*, username: str, password: str) -> tuple[User, str]:
    """The demo superuser (given ``password`` when it is created, never changed after) and
    the key of its API token, made if missing. Safe to run again."""
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        user.set_password(password)
        user.save()
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key
