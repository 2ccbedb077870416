"""The demo account of ``make run``: its published login, and whether the login page
should offer it (only in demo mode: DEBUG on, the account there, its password unchanged)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"


def demo_login_shown() -> tuple[str, str] | None:
    """``(username, password)`` for the login page to show, or None outside demo mode or
    once someone has changed the demo password (then it is no longer public)."""
    if not settings.DEBUG:
        return None
    user = get_user_model().objects.filter(username=DEMO_USERNAME).first()
    if user is None or not user.check_password(DEMO_PASSWORD):
        return None
    return DEMO_USERNAME, DEMO_PASSWORD
