"""Local development: the embedded default (SQLite files + local folders) unless env says otherwise."""

from appenda.settings.base import *  # noqa: F401,F403

DEBUG = True
