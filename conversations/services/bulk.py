"""Bulk inserts at the speed of the database: COPY on PostgreSQL, bulk_create elsewhere.

Rows come as plain dicts keyed by field ``attname`` (``conversation_id``, not
``conversation``): a 10,000-message conversation is ~35,000 rows, and building that many
model instances, then one huge parameterised INSERT per batch, costs more than the
database's own work. COPY streams the rows inside the caller's transaction, so
atomicity is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections, models

from conversations import pgsql

# Below this many rows in all, :func:`insert_tables` sends prepared INSERTs, all in one
# round trip; a COPY costs two round trips per table and more Python to set up.
SMALL = 100


def bulk_insert(model: type[models.Model], rows: Sequence[dict[str, Any]]) -> None:
    """Insert new rows (dicts by attname, primary keys included; missing fields take
    their defaults). No ids come back: callers make them (uuid7) beforehand."""
    if not rows:
        return
    plan = _plan(model, rows)
    connection = connections["default"]
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**{**plan.defaults, **row}) for row in rows], batch_size=500
        )
        return
    with connection.cursor() as cursor:
        raw_cursor = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw_cursor.copy(f"COPY {plan.table} ({plan.columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(plan.values(row))


Tables = Sequence[tuple[type[models.Model], Sequence[dict[str, Any]]]]


def _insert_tables_sql(tables: Tables) -> None:
    """A few rows in all (a replay's answer: a message, its blocks, its provenance) as one
    prepared INSERT per table, run for each row, all sent together in one round trip;
    more by COPY."""
    if sum(len(rows) for _, rows in tables) > SMALL:
        _insert_each_table(tables)
        return
    statements = insert_statements(tables)
    if statements:
        pgsql.execute_many(statements)


@pgsql.sql_twin(_insert_tables_sql)
def insert_tables(tables: Tables) -> None:
    """:func:`bulk_insert` into several tables, in order."""
    _insert_each_table(tables)


def _insert_each_table(tables: Tables) -> None:
    for model, rows in tables:
        bulk_insert(model, rows)


def insert_statements(tables: Tables) -> list[tuple[str, list[list[Any]]]]:
    """The prepared INSERT of each table with rows, and its parameters, row by row, for
    :func:`~conversations.pgsql.execute_many` (PostgreSQL)."""
    statements = []
    for model, rows in tables:
        if rows:
            plan = _plan(model, rows)
            placeholders = ", ".join(["%s"] * len(plan.steps))
            sql = f"INSERT INTO {plan.table} ({plan.columns}) VALUES ({placeholders})"
            statements.append((sql, [plan.values(row) for row in rows]))
    return statements


def rows_of(objs: Iterable[models.Model]) -> list[dict[str, Any]]:
    """New model instances as rows for :func:`bulk_insert`,
    their fields' ``pre_save`` applied as ``save`` would (``auto_now_add`` included)."""
    rows = []
    for obj in objs:
        fields = pgsql.fields_of(type(obj))
        rows.append(
            {
                field.attname: field.pre_save(obj, True)
                for field in fields
                if not (isinstance(field, models.AutoField) and getattr(obj, field.attname) is None)
            }
        )
    return rows


@dataclass
class _Plan:
    table: str
    columns: str
    # Per column: the row key, how its value is sent, its value when the row has none.
    steps: list[tuple[str, Callable[[Any], Any], Any]]
    defaults: dict[str, Any]

    def values(self, row: dict[str, Any]) -> list[Any]:
        return [adapt(row.get(name, default)) for name, adapt, default in self.steps]


def _plan(model: type[models.Model], rows: Sequence[dict[str, Any]]) -> _Plan:
    # An auto-increment primary key is left to the database's sequence, a generated
    # column (``Message.search_vector``) to the database itself.
    fields = [
        field
        for field in pgsql.fields_of(model)
        if not (isinstance(field, models.AutoField) and field.attname not in rows[0])
    ]
    defaults = {f.attname: f.get_default() for f in fields if f.has_default() or f.null}
    quote = connections["default"].ops.quote_name
    return _Plan(
        table=quote(model._meta.db_table),
        columns=", ".join(quote(str(field.column)) for field in fields),
        steps=[(f.attname, pgsql.adapter(f), defaults.get(f.attname)) for f in fields],
        defaults=defaults,
    )
