"""Migrates the control database and every region database.

A region's PostgreSQL database that does not exist yet is created first when the configured
role may (CREATEDB); otherwise the command says which database to create.
"""

from django.conf import settings
from django.core.management import BaseCommand, CommandError, call_command
from django.db import connections


def server_params(connection, dbname: str | None = None) -> dict:
    """psycopg's connection arguments for this alias, outside Django's pool (which would wait on a
    database that does not exist instead of saying so)."""
    params = connection.get_connection_params()
    return {**params, "dbname": dbname} if dbname else params


def database_missing(connection) -> bool:
    if connection.vendor != "postgresql":
        return False  # SQLite creates its file on first use
    import psycopg

    try:
        psycopg.connect(**server_params(connection)).close()
    except psycopg.OperationalError as exc:
        return "does not exist" in str(exc)
    return False


def database_create(connection) -> None:
    """CREATE DATABASE through the server's maintenance database, with the region's own role."""
    import psycopg

    name = connection.settings_dict["NAME"]
    try:
        with psycopg.connect(**server_params(connection, "postgres"), autocommit=True) as maintenance:
            maintenance.execute(f"CREATE DATABASE {connection.ops.quote_name(name)}")
    except psycopg.Error as exc:
        raise CommandError(
            f"The database {name!r} of {connection.alias!r} does not exist and could not be created ({exc}). "
            "Create it (createdb, or CREATE DATABASE as an admin), or give the role CREATEDB, then run "
            "migrate_all again."
        ) from exc


class Command(BaseCommand):
    help = "Apply migrations to the control database and to every region database (creating missing ones)."

    def handle(self, *args, **options):
        aliases = ["default", *settings.REGION_DB_ALIASES.values()]
        quiet = max(0, options["verbosity"] - 1)
        for alias in aliases:
            if database_missing(connections[alias]):
                self.stdout.write(f"Creating database {connections[alias].settings_dict['NAME']!r} ({alias})…")
                database_create(connections[alias])
            self.stdout.write(f"Migrating database {alias!r}…")
            call_command("migrate", database=alias, interactive=False, verbosity=quiet)
        self.stdout.write(self.style.SUCCESS(f"All {len(aliases)} databases are up to date."))
