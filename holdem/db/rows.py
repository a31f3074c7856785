"""Rows of the hot path (a table action) read and written with SQL built once per shape.

The ORM compiles every query again each time it runs; on the table action path that compiling
was the largest single cost of the server (docs/performance.md). These functions do
what `select_for_update().get()`, `select_related("user")`, `save(update_fields=...)` and
`objects.create()` do for the few shapes the hot path uses, with the same SQL semantics (the same
rows locked, the same values written through each field's own conversions), and cache the SQL.
Everything else keeps using the ORM.

On PostgreSQL these statements are also prepared once per connection (`_cursor`): the ORM binds
parameters on the client, so the server parsed and planned every one of them again, which was
about half of PostgreSQL's CPU per action (docs/performance.md). psycopg prepares them with
protocol messages, never SQL PREPARE, which is what lets PgBouncer 1.21 or later keep them in
transaction mode; behind an older pooler they are off (`CASINO_PREPARED_STATEMENTS`).
"""

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Literal, cast, overload

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model
from django.db.models.expressions import Col

from holdem.models import Seat, Table

# The user columns the table needs (the seat's player); the others load on first use.
USER_FIELDS = ("id", "username", "card_back", "auto_muck")

# A column and the database converters its values go through on the way in.
type Converters = tuple[tuple[Col, tuple[Callable[..., Any], ...]], ...]
type Reader = tuple[str, tuple[str, ...], Converters]


@cache
def _reader(model: type[Model], names: tuple[str, ...] | None = None) -> Reader:
    """The (select list, field names, per-column converters) of `model`'s concrete fields."""
    opts = model._meta
    fields = [f for f in opts.concrete_fields if names is None or f.name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(opts.db_table)}.{quote(f.column)}" for f in fields)
    converters = []
    for f in fields:
        col = f.get_col(opts.db_table)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        converters.append((col, tuple(found)))
    return columns, tuple(f.attname for f in fields), tuple(converters)


def _build[M: Model](
    model: type[M], names: tuple[str, ...], converters: Converters, values: Iterable[Any]
) -> M:
    converted = []
    for value, (col, found) in zip(values, converters):
        for convert in found:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, names, converted)


def _for_update(*, no_key: bool) -> str:
    """Row locks where the database has them (PostgreSQL; SQLite, the embedded default, locks
    the whole database for a write transaction and has no FOR UPDATE, as the ORM knows).

    `no_key`: FOR NO KEY UPDATE, for rows whose key the transaction leaves alone (no delete, no
    change of a primary or unique key): it still excludes every other writer and locker, but not
    the FOR KEY SHARE a foreign key check takes, so rows referencing the locked one (a hand's
    actions, a chat line, a connection) go in without waiting for the lock."""
    if not connection.features.has_select_for_update:
        return ""
    return " FOR NO KEY UPDATE" if no_key else " FOR UPDATE"


class PreparingCursor(psycopg.Cursor):
    """psycopg's server-binding cursor, keeping the statement it ran where Django's query log
    reads it (`last_executed_query`: the text with $n placeholders)."""

    def _convert_query(self, query: Any, params: Any = None) -> Any:
        self._query = converted = super()._convert_query(query, params)
        return converted


def _cursor() -> CursorWrapper:
    """A cursor for the statements below. On PostgreSQL a server-binding psycopg cursor whose
    statements the connection prepares the first time it sees them (the ORM's own cursors bind on
    the client and never prepare), wrapped like any Django cursor: errors are Django's, and the
    statements are counted and logged like the ORM's (the query budgets see them)."""
    if connection.vendor != "postgresql" or not settings.CASINO_PREPARED_STATEMENTS:
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = 0  # only server-binding cursors prepare: these
    with connection.wrap_database_errors:
        return cast(CursorWrapper, connection._prepare_cursor(PreparingCursor(raw)))  # type: ignore[attr-defined]


@cache
def _table_lock_sql(skip_locked: bool = False) -> str:
    columns, _, _ = _reader(Table)
    lock = _for_update(no_key=True)  # a table row is never deleted nor re-keyed under its lock
    if skip_locked and lock and connection.features.has_select_for_update_skip_locked:
        lock += " SKIP LOCKED"
    return f"SELECT {columns} FROM holdem_table WHERE holdem_table.id = %s{lock}"


@overload
def table_locked(table_id: int) -> Table: ...
@overload
def table_locked(table_id: int, *, skip_locked: Literal[False]) -> Table: ...
@overload
def table_locked(table_id: int, *, skip_locked: bool) -> Table | None: ...
def table_locked(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """`Table.objects.select_for_update(no_key=True).get(pk=table_id)`; with `skip_locked`,
    `select_for_update(no_key=True, skip_locked=True)`: None at once when another transaction
    holds the row's lock (or the table is gone) instead of waiting for it."""
    _, names, converters = _reader(Table)
    with _cursor() as cursor:
        cursor.execute(_table_lock_sql(skip_locked), [table_id])
        row = cursor.fetchone()
    if row is None:
        if skip_locked:
            return None
        raise Table.DoesNotExist(f"no table {table_id}")
    return _build(Table, names, converters, row)


@cache
def _seats_sql(lock: bool) -> str:
    user = get_user_model()
    seat_columns, _, _ = _reader(Seat)
    user_columns, _, _ = _reader(user, USER_FIELDS)
    users = connection.ops.quote_name(user._meta.db_table)
    locks = ""
    if lock and connection.features.has_select_for_update:
        # A seat may be deleted under this lock (a bust, a player leaving): FOR UPDATE, taken at
        # once rather than upgraded at the DELETE. A user row only has columns changed.
        locks = f"{_for_update(no_key=False)} OF holdem_seat{_for_update(no_key=True)} OF {users}"
    return (
        f"SELECT {seat_columns}, {user_columns} FROM holdem_seat"
        f" INNER JOIN {users} ON {users}.id = holdem_seat.user_id"
        " WHERE holdem_seat.table_id = %s ORDER BY holdem_seat.id" + locks
    )


def seats_with_users(table_id: int, lock: bool = False) -> list[Seat]:
    """The table's seats in primary-key order, each with its user, as
    `Seat.objects.filter(table=...).select_related("user").order_by("pk")` (and if `lock`, the
    seat rows locked FOR UPDATE and the user rows FOR NO KEY UPDATE)."""
    user_model = get_user_model()
    _, seat_names, seat_converters = _reader(Seat)
    _, user_names, user_converters = _reader(user_model, USER_FIELDS)
    split = len(seat_names)
    with _cursor() as cursor:
        cursor.execute(_seats_sql(lock), [table_id])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = _build(Seat, seat_names, seat_converters, row[:split])
        user = _build(user_model, user_names, user_converters, row[split:])
        Seat.user.field.set_cached_value(seat, user)
        seats.append(seat)
    return seats


type Fields = tuple[Field[Any, Any], ...]


def _fields(model: type[Model], names: tuple[str, ...]) -> Fields:
    """The concrete fields `names` of `model` (what `update_fields` may name)."""
    return tuple(cast("Field[Any, Any]", model._meta.get_field(name)) for name in names)


@cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> tuple[str, Fields]:
    opts = model._meta
    fields = _fields(model, names)
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(opts.db_table)} SET {assignments} WHERE {quote(opts.pk.column)} = %s"
    return sql, fields


def save_fields(instance: Model, names: Iterable[str]) -> None:
    """`instance.save(update_fields=names)` for a row that exists (no signals: the models written
    here have none)."""
    sql, fields = _update_sql(type(instance), tuple(names))
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    params.append(instance.pk)
    with _cursor() as cursor:
        cursor.execute(sql, params)


@cache
def _update_many_sql(model: type[Model], names: tuple[str, ...], count: int) -> tuple[str, Fields]:
    opts = model._meta
    fields = _fields(model, names)
    quote = connection.ops.quote_name
    table, pk = quote(opts.db_table), opts.pk
    columns = (pk, *fields)
    # Typed placeholders: a VALUES list takes the type of its first row, and a NULL there has none.
    # (`Field.cast_db_type` is Django's, missing from its stubs.)
    casts = [f.cast_db_type(connection) for f in columns]  # type: ignore[attr-defined]
    row = "(" + ", ".join(f"CAST(%s AS {db_type})" for db_type in casts) + ")"
    assignments = ", ".join(f"{quote(f.column)} = v.{quote(f.column)}" for f in fields)
    sql = (
        f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * count)})"
        f" AS v({', '.join(quote(f.column) for f in columns)})"
        f" WHERE {table}.{quote(pk.column)} = v.{quote(pk.column)}"
    )
    return sql, fields


def save_many(instances: Iterable[Model], names: Iterable[str]) -> None:
    """`save_fields(instance, names)` for each of `instances` (rows of one model that exist, and
    that the caller has locked), in one statement on PostgreSQL."""
    rows = list(instances)
    if len(rows) < 2 or connection.vendor != "postgresql":
        for instance in rows:
            save_fields(instance, names)
        return
    sql, fields = _update_many_sql(type(rows[0]), tuple(names), len(rows))
    params: list[Any] = []
    for instance in rows:
        params.append(instance.pk)
        params.extend(f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields)
    with _cursor() as cursor:
        cursor.execute(sql, params)


@cache
def _insert_sql(model: type[Model]) -> tuple[str, Fields]:
    opts = model._meta
    fields = tuple(f for f in opts.concrete_fields if not f.primary_key)
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(opts.db_table)} ({', '.join(quote(f.column) for f in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(opts.pk.column)}"
    )
    return sql, fields


def insert[M: Model](instance: M) -> M:
    """`instance.save()` for a new row (`Model.objects.create`), without signals."""
    sql, fields = _insert_sql(type(instance))
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with _cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def table_seqs(table_ids: Iterable[int]) -> dict[int, int]:
    """`dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "seq"))`. On PostgreSQL one
    prepared statement whatever the number of tables (the ids are one array parameter; the ORM
    writes a placeholder per id, so each beat's statement was new text, parsed by psycopg and by
    the server again: 5% of a busy server's CPU at 250 tables, docs/performance.md)."""
    ids = list(table_ids)
    if not ids:
        return {}
    if connection.vendor != "postgresql":
        return dict(Table.objects.filter(pk__in=ids).values_list("pk", "seq"))
    with _cursor() as cursor:
        cursor.execute("SELECT id, seq FROM holdem_table WHERE id = ANY(%s)", [ids])
        return dict(cursor.fetchall())
