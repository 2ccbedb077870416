"""Bulk inserts at the speed of the database: COPY on PostgreSQL, bulk_create elsewhere.

Rows come as plain dicts keyed by field ``attname`` (``conversation_id``, not
``conversation``): a 10,000-message conversation is ~35,000 rows, and building that many
model instances, then one huge parameterised INSERT per batch, costs more than the
database's own work. COPY streams the rows inside the caller's transaction, so
atomicity is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson
from django.db import connections, models
from psycopg.types.json import Jsonb


def _jsonb(value: Any) -> Any:
    return None if value is None else Jsonb(value, dumps=_dumps)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _identity(value: Any) -> Any:
    return value


def _adapter(field: models.Field[Any, Any]) -> Callable[[Any], Any]:
    return _jsonb if isinstance(field, models.JSONField) else _identity


def bulk_insert(model: type[models.Model], rows: Sequence[dict[str, Any]]) -> None:
    """Insert new rows (dicts by attname, primary keys included; missing fields take
    their defaults). No ids come back: callers make them (uuid7) beforehand."""
    if not rows:
        return
    # An auto-increment primary key is left to the database's sequence, a generated
    # column (``Message.search_vector``) to the database itself.
    fields = [
        field
        for field in model._meta.concrete_fields
        if not field.generated
        and not (isinstance(field, models.AutoField) and field.attname not in rows[0])
    ]
    defaults = {f.attname: f.get_default() for f in fields if f.has_default() or f.null}
    connection = connections["default"]
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**{**defaults, **row}) for row in rows], batch_size=500
        )
        return
    columns = ", ".join(connection.ops.quote_name(str(field.column)) for field in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    plan = [(field.attname, _adapter(field), defaults.get(field.attname)) for field in fields]
    with connection.cursor() as cursor:
        raw_cursor = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw_cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([adapt(row.get(name, default)) for name, adapt, default in plan])
