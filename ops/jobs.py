"""The scheduled jobs, in code (R-OPS-2): what each does and how often.

Each job calls the same service functions as its management command (``expire_held``,
``purge_trash``, ``purge_exports``, ``embed_notes``) and returns counts. A region that cannot be
reached does not stop the others: its failure is collected and the job raises ``JobFailed``
at the end with the counts of what it did, so the run is recorded as failed, retried
(``ops.runner``) and shown in ``/readyz`` and ``/metrics``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings

from appenda.db.outage import is_region_outage


class JobFailed(Exception):
    def __init__(self, message: str, counts: dict):
        super().__init__(message)
        self.counts = counts


@dataclass(frozen=True)
class Job:
    name: str
    every: timedelta
    run: Callable[[], dict]
    max_attempts: int = 3


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _per_region(work: Callable[[str], dict]) -> dict:
    """Runs ``work(alias)`` in every region; sums its counts; raises JobFailed naming the regions
    that could not be reached once all the others are done."""
    counts: dict[str, int] = {}
    failed: dict[str, str] = {}
    for region, alias in settings.REGION_DB_ALIASES.items():
        try:
            for key, value in work(alias).items():
                counts[key] = counts.get(key, 0) + value
        except Exception as exc:
            if not is_region_outage(exc):
                raise
            failed[region] = _first_line(exc)
    if failed:
        raise JobFailed("Region(s) not reached: " + "; ".join(f"{r} ({e})" for r, e in sorted(failed.items())),
                        counts)
    return counts


def expire_held() -> dict:
    from memories.idempotency import idempotent_answers_purge
    from memories.trash import held_expire

    return _per_region(lambda alias: {"held_expired": held_expire(alias=alias),
                                      "idempotent_answers_purged": idempotent_answers_purge(alias=alias)})


def purge_trash() -> dict:
    from memories.trash import trash_purge

    return _per_region(lambda alias: {"trash_purged": trash_purge(alias=alias)})


def purge_exports() -> dict:
    from appenda.db.local import local_database_available, local_database_register
    from appenda.db.outage import region_label
    from appenda.errors import DomainError
    from memories.export import exports_purge_expired
    from workspaces.models import Workspace

    counts = {"exports_purged": 0, "orphans_purged": 0}
    failed: dict[str, str] = {}
    for workspace in Workspace.objects.order_by("region", "created_at").iterator():
        local = workspace.kind == Workspace.Kind.LOCAL
        where = f"local workspace {workspace.id}" if local else region_label(workspace)
        if where in failed or (local and not local_database_available(workspace)):
            continue  # a region is skipped whole once it failed; a local file lives on another computer
        try:
            if local:
                local_database_register(workspace)
            outcome = exports_purge_expired(workspace=workspace, orphan_age=timedelta(hours=1))
        except Exception as exc:
            if not is_region_outage(exc) and not isinstance(exc, DomainError):
                raise
            failed[where] = _first_line(exc)
            continue
        counts["exports_purged"] += outcome.rows
        counts["orphans_purged"] += outcome.orphans
    if failed:
        raise JobFailed("Not reached: " + "; ".join(f"{w} ({e})" for w, e in sorted(failed.items())), counts)
    return counts


def embed_notes() -> dict:
    from memories.search.backfill import notes_embed_missing
    from memories.search.vectors import embedder

    model = embedder()
    if model is None:  # not a failure to retry: search ranks by words until the model is prepared
        return {"notes_embedded": 0, "model_missing": 1}
    return _per_region(lambda alias: {"notes_embedded": notes_embed_missing(alias=alias, model=model)})


JOB_HISTORY_DAYS = 30


def prune_job_history() -> dict:
    """Deletes the job runs and finished queue rows older than JOB_HISTORY_DAYS (control database)."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from ops.models import JobRun

    cutoff = timezone.now() - timedelta(days=JOB_HISTORY_DAYS)
    runs, _ = JobRun.objects.filter(started_at__lt=cutoff).delete()
    tasks, _ = DBTaskResult.objects.filter(finished_at__lt=cutoff).delete()
    return {"job_runs_pruned": runs, "queue_rows_pruned": tasks}


def _minutes(setting: str, default: int) -> timedelta:
    return timedelta(minutes=getattr(settings, "APPENDA_JOB_MINUTES", {}).get(setting, default))


def schedule() -> dict[str, Job]:
    """The jobs and their periods (``APPENDA_JOB_MINUTES`` overrides a period, in minutes)."""
    return {job.name: job for job in (
        Job("expire_held", _minutes("expire_held", 15), expire_held),
        Job("purge_trash", _minutes("purge_trash", 60), purge_trash),
        Job("purge_exports", _minutes("purge_exports", 30), purge_exports),
        Job("embed_notes", _minutes("embed_notes", 10), embed_notes),
        Job("prune_job_history", _minutes("prune_job_history", 24 * 60), prune_job_history),
    )}
