"""Schema fuzzing: schemathesis generates requests for every operation of ``/api/schema/``
and runs all its checks on each answer: no 5xx, every status and body as documented,
schema-valid requests accepted and schema-violating ones refused.

Kept cheap enough for ``make test``: one pytest item per operation (so xdist spreads them),
each running its examples inside one database transaction (no flush between cases),
derandomized and without Hypothesis' example database, so a run is repeatable.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, assume, settings
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig

EXAMPLES_PER_OPERATION = 100

# The schema promises a well-formed request, not that a payload is the format it names:
# 422 (valid JSON, not that format; an unknown cursor; a file that is no archive nor text)
# is a legitimate answer to schema-valid data, and 413 (too large) to schema-violating data.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]
            },
            "negative_data_rejection": {
                "expected-statuses": [
                    *("400", "401", "403", "404", "405", "406"),
                    *("409", "413", "415", "422", "428", "429"),
                ]
            },
        }
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)


@pytest.fixture
def keep_connection() -> Iterator[None]:
    # The WSGI handler closes the database connection around each request, which would
    # end the test's transaction; Django's test client disconnects the same handler.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(alice: Any, settings: Any, keep_connection: None) -> dict[str, str]:
    # Hundreds of imports a minute are the point here, not a client to slow down.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "100000/min", "replays": "100000/min"},
    }
    token, _ = Token.objects.get_or_create(user=alice)
    return {"Authorization": f"Token {token.key}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api(case: Any, auth_headers: dict[str, str]) -> None:
    if case.media_type == "multipart/form-data" and isinstance(case.body, dict):
        # Werkzeug's test client encodes an empty form field without its closing line
        # break, and the part is then lost: the server never sees the case as generated.
        assume("" not in case.body.values())
    case.call_and_validate(headers=auth_headers)
