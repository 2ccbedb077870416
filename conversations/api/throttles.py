"""Per-user rate limits on the expensive writes (imports and replays): 429 with
Retry-After past the rate set in settings (``UMF_RATE_IMPORTS``, ``UMF_RATE_REPLAYS``)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class WriteRateThrottle(ScopedRateThrottle):
    """A scoped throttle that counts only writes: reading a job's progress is free."""

    def get_rate(self) -> str | None:
        # Read the rates now, not when the class was defined, so a settings change applies.
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return None if rate is None else str(rate)

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)
