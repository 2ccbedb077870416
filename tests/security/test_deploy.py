"""Production settings pass Django's deployment checks with no warning, and refuse to
start without a secret key or host list."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process (Playwright's sync
        # API runs an event loop); a production environment never has it.
        env={k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="archive.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = manage(
        "check", DJANGO_DEBUG="false", DJANGO_SECRET_KEY="", DJANGO_ALLOWED_HOSTS="a.example"
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    result = manage(
        "check",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="",
    )
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS must be set" in result.stderr


@pytest.mark.parametrize(
    "secret_key",
    [
        "change-me-in-.env",
        "short-but-random-Zq8x",
        "a" * 60,
        "django-insecure-" + "x1y2z3w4v5" * 5,
        "please-change-me-0123456789abcdefghijklmnopqrstuvwxyz",
    ],
)
def test_production_refuses_a_placeholder_or_weak_secret_key(secret_key: str) -> None:
    result = manage(
        "check",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secret_key,
        DJANGO_ALLOWED_HOSTS="archive.example.com",
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is a placeholder or too weak" in result.stderr


def cookie_flags(**env: str) -> str:
    result = manage(
        "shell",
        "--verbosity=0",
        "-c",
        "from django.conf import settings; "
        "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="archive.example.com",
        **env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_cookies_are_secure_when_tls_ends_at_a_load_balancer() -> None:
    # No redirect to https here (the balancer does it), and still Secure cookies.
    assert cookie_flags(DJANGO_SECURE_SSL_REDIRECT="false") == "True True"


def test_cookies_go_over_plain_http_only_when_told_explicitly() -> None:
    assert cookie_flags(DJANGO_SECURE_COOKIES="false") == "False False"
