"""The job worker process: runs the scheduled jobs (``ops.jobs``) until stopped.

    python manage.py run_jobs            # every APPENDA_JOBS_TICK_SECONDS (30 s)
    python manage.py run_jobs --once     # one round: enqueue what is due, run it, exit
"""

import logging
import signal
import threading

from django.core.management import BaseCommand
from django.db import connections

from ops.worker import new_worker_id, tick_seconds, work_once

log = logging.getLogger("appenda.jobs")


class Command(BaseCommand):
    help = "Run the scheduled jobs (held expiry, purges, embeddings): a worker that ticks until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one round, then exit")
        parser.add_argument("--interval", type=float, default=None, help="seconds between rounds")

    def handle(self, *args, once=False, interval=None, **options):
        worker_id = new_worker_id(in_process=False)
        interval = tick_seconds() if interval is None else interval
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"Job worker {worker_id}: a round every {interval:.0f} s.")
        while not stop.is_set():
            try:
                due = work_once(worker_id)
            except Exception:
                if once:
                    raise
                log.exception("A round of the job worker failed; it tries again in %.0f s.", interval)
            else:
                if due:
                    self.stdout.write(f"Ran: {', '.join(due)}")
            finally:
                connections.close_all()
            if once:
                return
            stop.wait(interval)
