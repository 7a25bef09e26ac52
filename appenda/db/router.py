"""Routes control models to "default" and refuses region queries that were not routed.

Like Sentry's silo router, it fails closed: a region model queried without ``.using(alias)``
(or an instance loaded from a region) raises ``UnroutedRegionQuery`` rather than falling back
to the control database, which is how a residency bug would otherwise slip through.
"""

from __future__ import annotations

from django.conf import settings

REGION_APPS = frozenset({"tables", "memories"})


class UnroutedRegionQuery(RuntimeError):
    pass


def is_region_alias(alias: str) -> bool:
    return alias in settings.REGION_DB_ALIASES.values() or alias.startswith("local_")


def _is_region_model(model) -> bool:
    return model._meta.app_label in REGION_APPS


class RegionRouter:
    def _route(self, model, hints):
        if not _is_region_model(model):
            return "default"
        instance = hints.get("instance")
        if instance is not None and instance._state.db:
            return instance._state.db
        raise UnroutedRegionQuery(
            f"{model.__name__} lives in a region database; reach it through "
            f"{model.__name__}.objects.for_workspace(ws) or save(using=ws.db_alias)."
        )

    def db_for_read(self, model, **hints):
        return self._route(model, hints)

    def db_for_write(self, model, **hints):
        return self._route(model, hints)

    def allow_relation(self, obj1, obj2, **hints):
        return obj1._state.db == obj2._state.db

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        if app_label in REGION_APPS:
            return is_region_alias(db)
        return db == "default"
