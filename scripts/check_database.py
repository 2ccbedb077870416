"""Exit 0 if the PostgreSQL server of DATABASE_URL answers; else say how to start one."""

from __future__ import annotations

import os
import sys

import dj_database_url
import psycopg

HELP = """
Cannot reach PostgreSQL at {host}:{port} ({error}).

The test suite runs against PostgreSQL. Start one, then run `make test` again:
  * Debian/Ubuntu:  sudo apt-get install postgresql
                    sudo pg_ctlcluster $(ls /etc/postgresql) main start
  * macOS:          brew install postgresql@16 && brew services start postgresql@16
  * Docker:         docker compose up -d db
                    DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/umf_archive
or point DATABASE_URL at a server you have (user needs CREATEDB):
  DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/umf_archive make test
"""


def main() -> int:
    url = os.environ.get("DATABASE_URL", "")
    config = dj_database_url.parse(url)
    if "postgresql" not in config["ENGINE"]:
        print(f"DATABASE_URL must point at PostgreSQL for the tests, not {config['ENGINE']}")
        return 2
    host, port = config.get("HOST") or "127.0.0.1", config.get("PORT") or 5432
    try:
        psycopg.connect(
            host=host,
            port=port,
            user=config.get("USER") or None,
            password=config.get("PASSWORD") or None,
            dbname="postgres",
            connect_timeout=5,
        ).close()
    except psycopg.OperationalError as error:
        print(HELP.format(host=host, port=port, error=str(error).strip().splitlines()[0]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
