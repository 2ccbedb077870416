"""load_demo: the demo superuser (published password) exists only in demo mode, and its
API token never reaches a log or a pipe."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from rest_framework.authtoken.models import Token

from conversations.management.commands.load_demo import DEMO_DIR

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
    assert "UMF Archive (demo mode) is starting at http://127.0.0.1:8000/" in output.getvalue()
    assert token not in output.getvalue()
    assert "drf_create_token demo" in output.getvalue()
    assert token not in caplog.text


@override_settings(DEBUG=True)
def test_the_token_is_shown_at_a_terminal() -> None:
    output = Terminal()
    call_command("load_demo", stdout=output)
    assert Token.objects.get(user__username="demo").key in output.getvalue()


@override_settings(DEBUG=True)
def test_the_banner_gives_the_full_url_the_login_and_what_was_loaded() -> None:
    output = Terminal()
    call_command("load_demo", "--url", "http://127.0.0.1:9000/", stdout=output)
    banner = output.getvalue()
    assert "is starting at http://127.0.0.1:9000/" in banner
    assert "Log in as   demo / demo-password" in banner
    assert "API docs    http://127.0.0.1:9000/api/docs/" in banner
    demo_files = len(list(DEMO_DIR.glob("*.json")))
    assert f"Demo data   {demo_files} conversation(s), {demo_files} new" in banner
    again = Terminal()
    call_command("load_demo", stdout=again)
    assert f"{demo_files} conversation(s), 0 new" in again.getvalue()


@override_settings(DEBUG=True)
def test_the_login_page_shows_the_demo_account_only_in_demo_mode(client: Any) -> None:
    call_command("load_demo", stdout=io.StringIO())
    assert "Demo mode: log in as <strong>demo</strong>" in client.get("/accounts/login/").text
    with override_settings(DEBUG=False):
        assert "Demo mode" not in client.get("/accounts/login/").text
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed and private")
    user.save()
    assert "Demo mode" not in client.get("/accounts/login/").text
