"""Fixtures of the region tests: object stores in a temporary folder unless a real S3 is configured.

With the harness (``python -m infra.testenv``) each region has its own SeaweedFS bucket; without
it, each region's "bucket" is a folder under the test's temporary directory, so runs never see
each other's objects.
"""

from __future__ import annotations

import dataclasses

import pytest


@pytest.fixture(autouse=True)
def region_stores(settings, tmp_path):
    from appenda.storage import store_for_region

    settings.APPENDA_DATA_DIR = tmp_path / "data"
    settings.REGION_STORAGE = {
        region: config if config.s3_endpoint else dataclasses.replace(config, local_root=tmp_path / "objects" / region)
        for region, config in settings.REGION_STORAGE.items()
    }
    store_for_region.cache_clear()
    yield settings.REGION_STORAGE
    store_for_region.cache_clear()


@pytest.fixture
def uses_s3(region_stores) -> bool:
    return any(config.s3_endpoint for config in region_stores.values())
