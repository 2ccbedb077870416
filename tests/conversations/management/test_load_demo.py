"""load_demo: the demo superuser (published password) exists only in demo mode, and its
API token never reaches a log or a pipe."""

from __future__ import annotations

import io
import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@override_settings(DEBUG=False)
def test_refuses_with_debug_off() -> None:
    with pytest.raises(CommandError, match="--allow-production"):
        call_command("load_demo", stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="demo").exists()


@override_settings(DEBUG=False)
def test_runs_with_debug_off_when_told_explicitly() -> None:
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    assert get_user_model().objects.get(username="demo").is_superuser


@override_settings(DEBUG=True)
def test_the_token_is_not_written_to_a_pipe_or_a_log(caplog: pytest.LogCaptureFixture) -> None:
    output = io.StringIO()
    with caplog.at_level(logging.DEBUG):
        call_command("load_demo", stdout=output)
    token = Token.objects.get(user__username="demo").key
    assert "Demo ready" in output.getvalue()
    assert token not in output.getvalue()
    assert "drf_create_token demo" in output.getvalue()
    assert token not in caplog.text


@override_settings(DEBUG=True)
def test_the_token_is_shown_at_a_terminal() -> None:
    output = Terminal()
    call_command("load_demo", stdout=output)
    assert Token.objects.get(user__username="demo").key in output.getvalue()
