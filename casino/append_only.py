"""Append-only tables in the database itself: on PostgreSQL a trigger refuses UPDATE and DELETE of
their rows, so history stays history even for raw SQL or a manage.py shell. Used by migrations.

Row triggers do not fire on TRUNCATE, which is what Django's test flush runs between tests.
"""

from django.db import migrations


def append_only(app_label: str, model_name: str, refusal: str) -> migrations.RunPython:
    """A migration operation: rows of the model's table can be inserted and never changed again.
    `refusal` opens the error message ("ledger entries are append-only"). A no-op off PostgreSQL
    (SQLite in local development keeps the ORM guards only)."""
    if "'" in refusal or "%" in refusal:
        raise ValueError("the refusal is written into SQL as it is: no quotes or percent signs")

    def names(apps, schema_editor):
        table = apps.get_model(app_label, model_name)._meta.db_table
        quote = schema_editor.quote_name
        return quote(table), quote(f"{table}_append_only")

    def install(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table, trigger = names(apps, schema_editor)
        # restrict_violation (SQLSTATE 23001) is what a RESTRICT foreign key raises: Django turns
        # it into an IntegrityError, the error it already uses for rows the database refuses.
        schema_editor.execute(
            f"""CREATE FUNCTION {trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING
        ERRCODE = 'restrict_violation',
        MESSAGE = TG_ARGV[0] || ': ' || TG_OP || ' of ' || TG_TABLE_NAME || ' row ' || OLD.id || ' refused',
        HINT = 'History is corrected by writing a new row, never by changing an old one.';
END
$$""",
            params=None,
        )
        schema_editor.execute(
            f"CREATE TRIGGER {trigger} BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {trigger}('{refusal}')",
            params=None,
        )

    def remove(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table, trigger = names(apps, schema_editor)
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table}", params=None)
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {trigger}()", params=None)

    return migrations.RunPython(install, remove)
