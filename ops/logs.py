"""Log configuration: JSON lines (or plain text on a laptop) carrying the request id.

Every record of the standard ``logging`` module goes through structlog's formatter, which adds
what the request middleware bound (``request_id``), the level, the logger's name, an ISO time
and the record's ``extra`` fields. Imported by the settings: nothing here touches Django.
"""

from __future__ import annotations

import structlog


def _pre_chain() -> list:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.stdlib.ExtraAdder(),
    ]


def logging_config(*, level: str = "INFO", fmt: str = "json") -> dict:
    """The LOGGING setting. ``fmt``: ``json`` (one object per line, for a log collector) or ``plain``."""
    renderer = structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                               structlog.processors.format_exc_info, renderer],
                "foreign_pre_chain": _pre_chain(),
            },
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            "django.server": {"level": "WARNING"},  # the request middleware logs each request once
            # The job runner's own lines (a task starting, finishing): appenda.jobs logs each run once.
            "django_tasks_db": {"level": "WARNING"},
            "django_tasks": {"level": "WARNING"},
            # faiss says which CPU build it tried and loaded: eight lines per process, none to act on.
            "faiss.loader": {"level": "WARNING"},
        },
    }
