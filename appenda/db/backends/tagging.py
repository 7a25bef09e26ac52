"""Database errors that say which database raised them.

Django turns a driver's error into its own (``OperationalError``…) in one place, the backend's
``wrap_database_errors``; ours also writes the alias on the error (``db_alias``), so the one
exception handler can tell a control database that is down (``control_unavailable``, every
workspace) from a region that is down (``region_unavailable``, that region only).
"""

from __future__ import annotations

from django.db import DatabaseError
from django.db.utils import DatabaseErrorWrapper
from django.utils.functional import cached_property


class AliasErrorWrapper(DatabaseErrorWrapper):
    def __exit__(self, exc_type, exc_value, traceback):
        try:
            return super().__exit__(exc_type, exc_value, traceback)
        except DatabaseError as error:
            if getattr(error, "db_alias", None) is None:
                error.db_alias = self.wrapper.alias
            raise


class AliasTaggedErrors:
    """Mixin for a Django ``DatabaseWrapper``."""

    @cached_property
    def wrap_database_errors(self):
        return AliasErrorWrapper(self)
