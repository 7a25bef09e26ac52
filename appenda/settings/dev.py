"""Local development: the embedded default (SQLite files + local folders) unless env says otherwise.

Django's debug pages (tracebacks, settings) only when asked for with ``DJANGO_DEBUG=1``: a
server on a laptop is still reachable, and an error there must look as it does in production.
Static files are served by WhiteNoise straight from the apps' folders, without DEBUG and without
``collectstatic``, and picked up again when they change.
"""

import os

from appenda.settings.base import *  # noqa: F401,F403
from ops.logs import logging_config

DEBUG = os.environ.get("DJANGO_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# A terminal reads text; APPENDA_LOG_FORMAT=json gives production's lines.
LOGGING = logging_config(level=os.environ.get("LOG_LEVEL", "INFO"), fmt=os.environ.get("APPENDA_LOG_FORMAT", "plain"))
