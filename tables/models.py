"""Region database: tables, columns and records of a workspace."""

from __future__ import annotations

from django.db import models

from appenda.db.models import RegionModel


class Table(RegionModel):
    name = models.CharField(max_length=100)
    created_by_user_id = models.BigIntegerField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace_id", "name"], name="table_name_unique_in_workspace")]
        ordering = ["name"]


class Column(RegionModel):
    class Kind(models.TextChoices):
        TEXT = "text"
        NUMBER = "number"
        DATE = "date"
        PERSON = "person"
        EMAIL = "email"
        PHONE = "phone"
        ID = "id"
        URL = "url"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="columns")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    position = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "name"], name="column_name_unique_in_table")]
        ordering = ["position"]


class Record(RegionModel):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="records")
    values = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "created_at"])]
