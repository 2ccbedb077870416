"""Hand-written SQL for the hottest statements, on PostgreSQL.

A replay worker runs about a dozen statements per provider call. Through the ORM each
one costs 0.3 to 0.5 ms of Python to build and compile (filters resolved, joins set up,
orderings looked at), several times what PostgreSQL spends on it; written out once it costs
what psycopg needs to send it. Those few statements are written here, from the models'
own metadata (table and column names are never typed twice), and run through Django's
connection, so they take part in its transactions.

Other databases (the embedded SQLite of ``make run``) keep the ORM version of the same
read or write. Each such statement is one function, the ORM version decorated with
:func:`sql_twin`: callers never choose, and :func:`enabled` is asked nowhere else. Tests
run both.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ParamSpec, TypeVar

import orjson
import psycopg
from django.conf import settings
from django.db import connection, models
from django.db.models import F
from psycopg.types.json import Jsonb

from conversations import jsonb_text

# Flipped off by tests to run the ORM fallback on PostgreSQL too.
USE_SQL = True


def enabled() -> bool:
    """Whether the hand-written statements apply (PostgreSQL, and not switched off)."""
    return USE_SQL and connection.vendor == "postgresql"


Arguments = ParamSpec("Arguments")
Result = TypeVar("Result")


def sql_twin(
    hand_written: Callable[Arguments, Result],
) -> Callable[[Callable[Arguments, Result]], Callable[Arguments, Result]]:
    """Decorate the ORM version of a statement with its hand-written twin (same
    arguments, same result): the one function callers call runs the twin where the
    statements apply (:func:`enabled`), the ORM version elsewhere."""

    def decorate(orm_version: Callable[Arguments, Result]) -> Callable[Arguments, Result]:
        @functools.wraps(orm_version)
        def statement(*args: Arguments.args, **kwargs: Arguments.kwargs) -> Result:
            run = hand_written if enabled() else orm_version
            return run(*args, **kwargs)

        return statement

    return decorate


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[models.Model]) -> str:
    return quote(model._meta.db_table)


@cache
def fields_of(model: type[models.Model], exclude: frozenset[str] = frozenset()) -> tuple[Any, ...]:
    """The concrete, stored fields of ``model`` (a generated column is left out), but
    those named in ``exclude``."""
    return tuple(
        field
        for field in model._meta.concrete_fields
        if not field.generated and field.name not in exclude
    )


def select_list(fields: Sequence[Any], alias: str) -> str:
    """``alias."col", ...`` for ``fields``."""
    return ", ".join(f"{alias}.{quote(field.column)}" for field in fields)


def decode(field: Any, value: Any) -> Any:
    """A column value as the model holds it: JSON columns come back as text (Django's
    PostgreSQL backend loads ``jsonb`` as text and decodes it in the field)."""
    if isinstance(value, str) and isinstance(field, models.JSONField):
        return orjson.loads(value)
    return value


def instance(model: type[models.Model], fields: Sequence[Any], values: Sequence[Any]) -> Any:
    """A model instance from ``values`` of ``fields`` (the others deferred), as the ORM
    would have loaded it."""
    decoded = [decode(field, value) for field, value in zip(fields, values, strict=True)]
    return model.from_db(connection.alias, [field.attname for field in fields], decoded)


Params = Sequence[Any] | dict[str, Any]


def fetch(sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
    with _prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def fetch_many(statements: Sequence[tuple[str, Params]]) -> list[list[tuple[Any, ...]]]:
    """The rows of each of several statements, sent together: one round trip instead of
    one per statement."""
    cursors = _pipelined([(sql, [params]) for sql, params in statements])
    return [rows for rows, _ in cursors]


def execute(sql: str, params: Params = ()) -> int:
    """Run a write; the number of rows it touched."""
    with _prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def execute_many(statements: Sequence[tuple[str, Sequence[Params]]]) -> list[int]:
    """Run each statement once per parameter set, all sent together in one round trip;
    the rows each statement touched."""
    return [rowcount for _, rowcount in _pipelined(statements)]


def _pipelined(
    statements: Sequence[tuple[str, Sequence[Params]]],
) -> list[tuple[list[tuple[Any, ...]], int]]:
    """Each statement run once per parameter set, prepared, all sent in psycopg's pipeline
    mode; per statement, the rows it returned (if any) and the rows it touched."""
    with contextlib.ExitStack() as stack:
        cursors = [stack.enter_context(_prepared_cursor()) for _ in statements]
        with connection.connection.pipeline():
            for cursor, (sql, param_sets) in zip(cursors, statements, strict=True):
                if len(param_sets) == 1:
                    cursor.execute(sql, param_sets[0])
                else:
                    cursor.executemany(sql, param_sets)
        return [
            (list(cursor.fetchall()) if cursor.description else [], int(cursor.rowcount))
            for cursor in cursors
        ]


class _PreparingCursor(psycopg.Cursor[Any]):
    """Parameters bound by the server, and the statement prepared on its first run on a
    connection: PostgreSQL then skips planning it again (planning was most of the server's
    time for these statements: ~0.2 ms each, against ~0.02 ms to execute them). Django
    turns automatic preparing off for connection poolers; psycopg forgets what it prepared
    when a pooler-style ``DISCARD ALL`` runs. ``UMF_PREPARED_STATEMENTS=false`` (settings)
    turns it off, for a pooler that does not keep sessions (PgBouncer in transaction mode
    before 1.21)."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        kwargs["prepare"] = settings.UMF_PREPARED_STATEMENTS
        return super().execute(query, params, **kwargs)


@contextlib.contextmanager
def _prepared_cursor() -> Iterator[Any]:
    """A cursor of Django's connection (its transaction, its query log) that prepares."""
    connection.ensure_connection()
    if settings.UMF_PREPARED_STATEMENTS and connection.connection.prepare_threshold is None:
        # Django turns psycopg's preparing off (None); with a threshold no statement
        # reaches, only those that ask for it (prepare=True: these) are prepared. Django's
        # own cursors bind on the client and never prepare.
        connection.connection.prepare_threshold = sys.maxsize
    raw = _PreparingCursor(connection.connection)
    # Django's wrapper, as connection.cursor() gives: it logs and counts the statements.
    wrapped = (
        connection.make_debug_cursor(raw)  # type: ignore[arg-type]
        if connection.queries_logged
        else connection.make_cursor(raw)  # type: ignore[arg-type]
    )
    with wrapped as cursor:
        yield cursor


@dataclass(frozen=True)
class Add:
    """In :func:`update`'s values: ``column = column + amount``."""

    amount: int = 1


def _update_sql(model: type[models.Model], where: dict[str, Any], values: dict[str, Any]) -> int:
    return execute(*update_statement(model, where, values))


@sql_twin(_update_sql)
def update(model: type[models.Model], where: dict[str, Any], values: dict[str, Any]) -> int:
    """``UPDATE model SET values WHERE where`` (equalities, by field name or attname);
    the number of rows updated. The ORM's ``filter(**where).update(**values)``."""
    assignments = {
        name: F(name) + value.amount if isinstance(value, Add) else value
        for name, value in values.items()
    }
    return model._default_manager.filter(**where).update(**assignments)


def update_statement(
    model: type[models.Model], where: dict[str, Any], values: dict[str, Any]
) -> tuple[str, list[Any]]:
    """The SQL and parameters of :func:`update` (hand-written statements only)."""
    sets, params = [], []
    for name, value in values.items():
        field = _field(model, name)
        column = quote(field.column)
        if isinstance(value, Add):
            sets.append(f"{column} = {column} + %s")
            params.append(value.amount)
        else:
            sets.append(f"{column} = %s")
            params.append(param(field, value))
    conditions = []
    for name, value in where.items():
        field = _field(model, name)
        conditions.append(f"{quote(field.column)} = %s")
        params.append(param(field, value))
    sql = f"UPDATE {table(model)} SET {', '.join(sets)} WHERE {' AND '.join(conditions)}"
    return sql, params


def jsonb(value: Any) -> Any:
    """A JSON value for a ``jsonb`` parameter (None: SQL NULL), written so that it reads
    back as it was (:mod:`conversations.jsonb_text`)."""
    return None if value is None else Jsonb(value, dumps=jsonb_text.dumps)


def adapter(field: Any) -> Any:
    """How a value is sent for ``field``'s column: JSON as ``jsonb``, the rest as it is."""
    return jsonb if isinstance(field, models.JSONField) else _as_is


def param(field: Any, value: Any) -> Any:
    """A value as psycopg should send it for ``field``'s column."""
    return adapter(field)(value)


def _as_is(value: Any) -> Any:
    return value


def _field(model: type[models.Model], name: str) -> Any:
    return model._meta.pk if name == "pk" else model._meta.get_field(name)
