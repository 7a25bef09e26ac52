"""Operations: health and readiness, metrics, structured logs, the scheduled jobs and their worker."""

import os
import sys

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.conf import settings

        # `make run` behaves like production: the same jobs run in a thread of the dev server
        # (its child process, not the autoreloader's parent). Tests and other commands start
        # nothing unless APPENDA_JOBS_IN_PROCESS says so.
        runserver_child = len(sys.argv) > 1 and sys.argv[1] == "runserver" and (
            os.environ.get("RUN_MAIN") == "true" or "--noreload" in sys.argv)
        if getattr(settings, "APPENDA_JOBS_IN_PROCESS", False) or (
                runserver_child and getattr(settings, "APPENDA_JOBS_WITH_RUNSERVER", False)):
            from ops.worker import start_in_process

            start_in_process()
