"""Create the demo user and import the demo conversations (safe to run again)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token

from conversations import services

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
USERNAME = "demo"
PASSWORD = "demo-password"


class Command(BaseCommand):
    help = "Create the demo user (demo / demo-password) and import conversations/demo/*.json"

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(PASSWORD)
            user.save()
        token, _ = Token.objects.get_or_create(user=user)
        imported = 0
        for path in sorted(DEMO_DIR.glob("*.json")):
            # Files are named <format id>.<anything>.json.
            format_id = path.name.split(".", 1)[0]
            _, results = services.conversation_import(
                owner=user, format_id=format_id, payload=orjson.loads(path.read_bytes())
            )
            imported += sum(result.created for result in results)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: log in at /accounts/login/ as {USERNAME} / {PASSWORD} "
                f"(API token: {token.key}); {imported} new demo conversation(s)."
            )
        )
