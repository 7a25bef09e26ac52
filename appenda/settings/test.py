"""Tests: always two regions on separate databases, so a wrong-region bug fails the build."""

from appenda.settings.base import *  # noqa: F401,F403
from appenda.settings.base import REGIONS

assert len(REGIONS) >= 2, "tests need at least two regions (REGIONS=eu,us)"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only; never in production
DEBUG = False
# Limits far above what a test makes; the tests of the limits lower them (tests/ops/).
APPENDA_API_RATES = {"token": "100000/min", "session": "100000/min", "anonymous": "100000/min"}
AXES_FAILURE_LIMIT = 1000
