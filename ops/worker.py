"""The job worker: heartbeat, schedule tick, then the ready tasks, every ``APPENDA_JOBS_TICK_SECONDS``.

In a deployment it is its own process (``manage.py run_jobs``, the compose file's ``worker``);
on the embedded default the same loop runs in a thread of the dev server (``ops.apps``), so
``make run`` behaves like production.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker

from ops.models import WorkerHeartbeat
from ops.runner import QUEUE, schedule_tick

log = logging.getLogger("appenda.jobs")
_started_thread: threading.Thread | None = None
_stop = threading.Event()


def new_worker_id(*, in_process: bool) -> str:
    kind = "thread" if in_process else "worker"
    return f"{kind}-{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def heartbeat(worker_id: str, *, in_process: bool = False) -> None:
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(
        worker_id=worker_id,
        defaults={"seen_at": now, "host": socket.gethostname()[:255], "pid": os.getpid(), "in_process": in_process},
        create_defaults={"seen_at": now, "started_at": now, "host": socket.gethostname()[:255],
                         "pid": os.getpid(), "in_process": in_process},
    )


def work_once(worker_id: str, *, in_process: bool = False) -> list[str]:
    """One round: say the worker is alive, enqueue what is due, run every ready task."""
    close_old_connections()
    heartbeat(worker_id, in_process=in_process)
    due = schedule_tick()
    Worker(queue_names=[QUEUE], interval=0, batch=True, backend_name="default", startup_delay=False,
           max_tasks=None, worker_id=worker_id, excluded_queue_names=[]).run()
    return due


def tick_seconds() -> float:
    return float(getattr(settings, "APPENDA_JOBS_TICK_SECONDS", 30))


def _loop(stop: threading.Event, worker_id: str) -> None:
    while not stop.is_set():
        try:
            work_once(worker_id, in_process=True)
        except Exception:  # a database that is down now may be back at the next tick
            log.exception("The in-process job worker's round failed; it tries again in %.0f s.", tick_seconds())
        finally:
            connections.close_all()
        stop.wait(tick_seconds())


def start_in_process() -> threading.Thread:
    """Starts the jobs thread once per process (daemon: it ends with the server)."""
    global _started_thread
    if _started_thread is None or not _started_thread.is_alive():
        worker_id = new_worker_id(in_process=True)
        _stop.clear()
        _started_thread = threading.Thread(target=_loop, args=(_stop, worker_id),
                                           name="appenda-jobs", daemon=True)
        _started_thread.start()
        log.info("Scheduled jobs run in this process (worker %s, every %.0f s).", worker_id, tick_seconds())
    return _started_thread


def stop_in_process(timeout: float = 10.0) -> None:
    """Stops the jobs thread after its current round (tests; a server just exits)."""
    _stop.set()
    if _started_thread is not None:
        _started_thread.join(timeout)


def in_process_running() -> bool:
    return _started_thread is not None and _started_thread.is_alive()
