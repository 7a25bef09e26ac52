"""Local development: the embedded default (SQLite files + local folders) unless env says otherwise.

Django's debug pages (tracebacks, settings) only when asked for with ``DJANGO_DEBUG=1``: a
server on a laptop is still reachable, and an error there must look as it does in production.
Static files are served by WhiteNoise straight from the apps' folders, without DEBUG and without
``collectstatic``, and picked up again when they change.
"""

import os

from appenda.settings.base import *  # noqa: F401,F403

DEBUG = os.environ.get("DJANGO_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
