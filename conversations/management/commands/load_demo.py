"""Create the demo user and import the demo conversations (safe to run again).

The demo user is a superuser with a published password: this is for ``make run`` (DEBUG on)
only, and the command refuses to run with DEBUG off unless told ``--allow-production``.
Its API token goes to a terminal only, never to a log or a pipe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations import services
from conversations.selectors.demo import DEMO_PASSWORD, DEMO_USERNAME
from conversations.services.demo import demo_user_ensure

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
USERNAME, PASSWORD = DEMO_USERNAME, DEMO_PASSWORD


class Command(BaseCommand):
    help = "Create the demo user (demo / demo-password) and import conversations/demo/*.json"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="create the demo superuser even with DEBUG off (anyone who reads the "
            "README can then log in as it)",
        )
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="where the server will answer, for the banner (make run passes its port)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                f"load_demo creates the superuser {USERNAME} / {PASSWORD}, whose password is "
                "public: it runs only with DJANGO_DEBUG on (make run). Pass "
                "--allow-production to create it anyway."
            )
        user, token = demo_user_ensure(username=USERNAME, password=PASSWORD)
        imported = total = 0
        for path in sorted(DEMO_DIR.glob("*.json")):
            # Files are named <format id>.<anything>.json.
            format_id = path.name.split(".", 1)[0]
            _, results = services.conversation_import(
                owner=user, format_id=format_id, payload=orjson.loads(path.read_bytes())
            )
            imported += sum(result.created for result in results)
            total += len(results)
        # A token is a password: shown to the person at the terminal, never written where
        # output is collected (docker logs, journald, a CI log).
        if self.stdout.isatty():
            token_line = token
        else:
            token_line = f"(not shown in a log: `python manage.py drf_create_token {USERNAME}`)"
        url = options["url"]
        rule = "─" * 72
        self.stdout.write(
            "\n".join(
                [
                    rule,
                    self.style.SUCCESS(f"  UMF Archive (demo mode) is starting at {url}"),
                    f"  Log in as   {USERNAME} / {PASSWORD}",
                    f"  API token   {token_line}",
                    f"  API docs    {url}api/docs/",
                    f"  Demo data   {total} conversation(s), {imported} new",
                    rule,
                ]
            )
        )
