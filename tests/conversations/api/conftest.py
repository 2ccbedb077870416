"""What the API's tests share: an archive of three conversations of alice's."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.conftest import load_fixture
from tests.conversations.helpers import imported


@pytest.fixture
def archive(api: APIClient) -> dict[str, str]:
    """Three conversations imported through the API, by name: ``weather`` (tool calls,
    found by "umbrella"), ``rust`` and ``search``."""
    return {
        "weather": imported(api, load_fixture("umf/weather-tools.json")),
        "rust": imported(api, load_fixture("umf/seed-internal-message.json"), title="Rust"),
        "search": imported(api, load_fixture("umf/seed-openai-tools.json"), title="Search"),
    }
