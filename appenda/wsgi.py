"""WSGI entry point (gunicorn appenda.wsgi -c infra/gunicorn.conf.py)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "appenda.settings.production")
application = get_wsgi_application()

from memories.search import vectors  # noqa: E402  (after the app registry is ready)

# The embedding model is loaded with the worker (preload_app is off: after the fork), not by
# the first search it serves, which would wait ~0.2 s for it (benchmarks/bench_core.py, HTTP).
vectors.warm_up()

# What start-up loaded (modules, settings, URLconf, models) lives as long as the worker: keep it
# out of the cyclic collector, whose full passes would otherwise rescan it on every request's
# allocations (measured in benchmarks/bench_core.py: about a quarter of a turn start's time).
gc.collect()
gc.freeze()
