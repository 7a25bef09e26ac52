"""WSGI entry point (gunicorn appenda.wsgi -c infra/gunicorn.conf.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "appenda.settings.production")
application = get_wsgi_application()
