"""Fixtures shared by the whole suite: users, authenticated API clients, fixture files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

FIXTURES = Path(__file__).parent / "fixtures"


def load_fixture(relative: str) -> Any:
    """The JSON of ``tests/fixtures/<relative>``."""
    return orjson.loads((FIXTURES / relative).read_bytes())


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[[str], Any]:
    def make(username: str) -> Any:
        return django_user_model.objects.create_user(username=username, password="pw-" + username)

    return make


@pytest.fixture
def alice(make_user: Callable[[str], Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[[str], Any]) -> Any:
    return make_user("bob")


def token_client(user: Any) -> APIClient:
    """An API client that authenticates like a script would: with the user's token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api(alice: Any) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob: Any) -> APIClient:
    return token_client(bob)


@pytest.fixture(params=["sql", "orm"])
def statements(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test twice: with the hand-written PostgreSQL statements of
    ``conversations.pgsql`` and with the ORM version other databases use."""
    from conversations import pgsql

    monkeypatch.setattr(pgsql, "USE_SQL", request.param == "sql")
    return str(request.param)
