"""WSGI entry point (gunicorn appenda.wsgi -c infra/gunicorn.conf.py)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "appenda.settings.production")
application = get_wsgi_application()
# What start-up loaded (modules, settings, URLconf, models) lives as long as the worker: keep it
# out of the cyclic collector, whose full passes would otherwise rescan it on every request's
# allocations (measured in benchmarks/bench_core.py: about a quarter of a turn start's time).
gc.collect()
gc.freeze()
