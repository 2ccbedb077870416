"""Log in, for the pages and the admin, with failed attempts throttled.

Failures are counted per client address and username (``UMF_RATE_LOGIN``, e.g.
``10/hour``) in the cache: past the rate even the right password is refused until the
oldest failure ages out, so a password cannot be guessed at the speed of the server. The
count is per address and name, so someone guessing one account from elsewhere does not
lock its owner out. With the cache Redis down, the count is kept per process
(``umfsite.cache``): slower guessing is still refused.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from conversations.selectors.demo import demo_login_shown


class LoginThrottle(SimpleRateThrottle):
    """The failed logins of one client address for one username, within the rate's period.

    DRF's throttle, for its rate format, cache and client address (``UMF_NUM_PROXIES``);
    unlike an API throttle it counts failures only, recorded after the password is checked.
    """

    scope = "login"

    def __init__(self, request: HttpRequest, username: str) -> None:
        # Read the rate now, not when the class was defined, so a settings change applies.
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        self.limit, self.period = self.parse_rate(None if rate is None else str(rate))
        # Hashed, so that any username makes a valid cache key.
        ident = f"{self.get_ident(request)}\n{username.casefold()}"  # type: ignore[arg-type]
        digest = hashlib.sha256(ident.encode()).hexdigest()
        self.key = self.cache_format % {"scope": self.scope, "ident": digest}
        self.now = self.timer()
        self.failures: list[float] = [
            moment
            for moment in self.cache.get(self.key, [])
            if moment > self.now - (self.period or 0)
        ]

    def exhausted(self) -> bool:
        return self.limit is not None and len(self.failures) >= self.limit

    def record_failure(self) -> None:
        if self.limit is not None:
            self.failures.insert(0, self.now)
            self.cache.set(self.key, self.failures, self.period)

    def minutes_to_wait(self) -> int:
        """Until the oldest failure that counts ages out."""
        oldest = self.failures[(self.limit or 1) - 1]
        return max(1, math.ceil((oldest + (self.period or 0) - self.now) / 60))


class ThrottledLogin:
    """Refuses a login past the rate of failures, and counts each failure."""

    request: HttpRequest | None
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        if self.request is None:  # a form built outside a request has no address to count
            return super().clean()  # type: ignore[misc,no-any-return]
        throttle = LoginThrottle(self.request, self.cleaned_data.get("username") or "")
        if throttle.exhausted():
            raise forms.ValidationError(
                "Too many failed logins for this username from your address: try again in "
                f"{throttle.minutes_to_wait()} minute(s).",
                code="throttled",
            )
        try:
            return super().clean()  # type: ignore[misc,no-any-return]
        except forms.ValidationError:
            throttle.record_failure()
            raise


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass


class LoginView(auth_views.LoginView):
    """Django's login page with ``LoginForm``; a throttled attempt answers 429."""

    form_class = LoginForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["demo_login"] = demo_login_shown()
        return context

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
