"""The two abstract bases every model of this project derives from.

ControlModel rows live in the control database ("default"): users, the workspace directory,
memberships, bots, tokens, instance rules. RegionModel rows live in the database of their
workspace's region and carry the workspace id as a plain column: no foreign key ever crosses
databases (a region database must stand alone: it can be down, restored or moved on its own).

Region data is only ever reached through ``Model.objects.for_workspace(ws)`` (which routes the
query to ``ws.db_alias`` and filters by the workspace id) or ``save(using=ws.db_alias)``. The
router refuses any region query that did not say where it goes, so a forgotten ``.using()``
fails loudly in tests instead of silently reading the control database.
"""

from __future__ import annotations

import uuid

from django.db import models


class ControlModel(models.Model):
    """A row of the control database."""

    class Meta:
        abstract = True


class RegionQuerySet(models.QuerySet):
    def for_workspace(self, workspace) -> RegionQuerySet:
        return self.using(workspace.db_alias).filter(workspace_id=workspace.id)


class RegionManager(models.Manager.from_queryset(RegionQuerySet)):
    pass


class RegionModel(models.Model):
    """A row of a region database, owned by one workspace."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace_id = models.UUIDField(db_index=True)

    objects = RegionManager()

    class Meta:
        abstract = True
