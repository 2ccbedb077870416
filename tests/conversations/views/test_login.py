"""Login is throttled: failed attempts per client address and username (UMF_RATE_LOGIN)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters(settings: Any) -> Iterator[None]:
    cache.clear()
    # A login hashes the password: the fast hasher keeps 15 of them quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    # The counters would throttle the next test's login as alice in this process.
    cache.clear()


WRONG = "Please enter a correct username and password"
THROTTLED = "Too many failed logins for this username from your address"


def log_in(client: Client, password: str, path: str = "/accounts/login/", **extra: Any) -> Any:
    return client.post(path, {"username": "alice", "password": password}, **extra)


def test_fifteen_wrong_passwords_are_throttled(alice: Any) -> None:
    client = Client()
    statuses = [log_in(client, f"guess-{n}").status_code for n in range(15)]
    assert statuses == [200] * 10 + [429] * 5
    response = log_in(client, "guess-16")
    assert THROTTLED in response.content.decode()
    assert "try again in 60 minute(s)" in response.content.decode()
    # Even the right password waits: otherwise the guessing would simply go on.
    assert log_in(client, "pw-alice").status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_wrong_password_says_so_and_the_right_one_logs_in(alice: Any) -> None:
    client = Client()
    response = log_in(client, "wrong")
    assert response.status_code == 200
    assert WRONG in response.content.decode()
    assert log_in(client, "pw-alice").status_code == 302


def test_another_address_is_not_locked_out(alice: Any) -> None:
    for n in range(11):
        log_in(Client(), f"guess-{n}", REMOTE_ADDR="203.0.113.9")
    assert log_in(Client(), "wrong", REMOTE_ADDR="203.0.113.9").status_code == 429
    assert log_in(Client(), "pw-alice", REMOTE_ADDR="198.51.100.7").status_code == 302


def test_a_forwarded_for_header_does_not_reset_the_count(alice: Any) -> None:
    for n in range(10):
        log_in(Client(), f"guess-{n}", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    response = log_in(Client(), "guess", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert response.status_code == 429


def test_the_admin_login_is_throttled_too(django_user_model: Any) -> None:
    django_user_model.objects.create_superuser("alice", password="pw-alice")
    client = Client()
    for n in range(10):
        log_in(client, f"guess-{n}", path="/admin/login/")
    response = log_in(client, "pw-alice", path="/admin/login/")
    assert THROTTLED in response.content.decode()
    assert "_auth_user_id" not in client.session
