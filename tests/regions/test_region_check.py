"""``manage.py region_check``: each region's database and bucket, with status and latency (R-REGION-3)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ALL_DATABASES
from tests.regions.test_region_down import region_bucket_down

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)


def test_region_check_lists_every_region_with_its_latency():
    out = io.StringIO()
    call_command("region_check", stdout=out)
    lines = out.getvalue().splitlines()
    for region in ("control", "eu", "us"):
        assert any(line.startswith(region) and " ok " in line and " ms " in line for line in lines), lines
    assert sum(" bucket " in line for line in lines) == 2


def test_region_check_names_what_is_down_and_exits_non_zero(settings, tmp_path):
    out = io.StringIO()
    with region_bucket_down(settings, "us", tmp_path), pytest.raises(CommandError, match="us bucket"):
        call_command("region_check", stdout=out)
    assert any(line.startswith("us") and "DOWN" in line for line in out.getvalue().splitlines())
