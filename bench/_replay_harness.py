"""What the replay benchmarks share: a PostgreSQL database of their own, made afresh, and
the URL a worker process reaches it by. Import it before Django: it sets the settings
module up (and the rate limit out of the way).

    from _replay_harness import setup_database
    url = setup_database("umf_bench_soak")      # dropped, created, migrated; Django ready
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
os.environ.setdefault("UMF_RATE_REPLAYS", "1000000/min")
os.environ.setdefault("UMF_RATE_IMPORTS", "1000000/min")


def setup_database(name: str) -> str:
    """Point Django at a new, migrated database ``name`` on the DATABASE_URL server;
    return its URL. Exits when DATABASE_URL is not PostgreSQL."""
    import django
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        sys.exit("set DATABASE_URL to a PostgreSQL server")
    _recreate(name)
    database["NAME"] = name
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return database_url()


def database_url() -> str:
    """The URL of Django's database, for a worker or server process."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    password = f":{database['PASSWORD']}" if database["PASSWORD"] else ""
    return (
        f"postgres://{database['USER']}{password}@{database['HOST']}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )


def _recreate(name: str) -> None:
    import psycopg
    from django.conf import settings
    from psycopg import sql

    database = settings.DATABASES["default"]
    with psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as connection:
        identifier = sql.Identifier(name)
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(identifier))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(identifier))
