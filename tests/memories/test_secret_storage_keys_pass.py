"""Issue 18: false refusals found by trying the detector on a data team's ordinary notes (SPEC
R-SAVE-2): a storage object's key whose file name holds an id (Spark's part files, under Hive
partition folders such as "dt=2024-11-03"). Beside them, the keys that are credentials, which
stay refused.

Not fixed (README of tests/data/outside/secrets): a key named in prose for its use with a hex
value ("the join key: <32 hex>"). A rule that read "the join key" as the name "join_key" cost two
of the held TruffleHog cases (counted, not read), so it was withdrawn.

Plain tests: no database, no Django (run with ``-p no:django``). Three of the cases that must
pass fail against the detector of commit 62c15a6.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402

HEX32 = "7f9a8c2e" + "1b3d4e5f" + "9a8b7c6d" + "5e4f3a2b"
SPARK_PART = "part-00017-" + "5c2b1f7e-3a4d-4f1e-9b2a-7c6d5e4f3a2b"


def flagged(text: str) -> bool:
    return bool(find_secrets(text))


@pytest.mark.parametrize("text", [
    f"object key raw/2024/11/03/{SPARK_PART}.snappy.parquet",
    f"the object key is exports/2024/11/{SPARK_PART}.parquet",
    f"s3 key: landing/orders/dt=2024-11-03/{SPARK_PART}.c000.csv.gz",
    f"s3://acme-lake/events/year=2024/month=11/{SPARK_PART}.json",
])
def test_storage_keys_and_keys_named_for_their_use_pass(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    f"the api key: {HEX32}",
    f"Mailgun key: {HEX32}",
    f"key: {HEX32}",
    f"api_key = {HEX32[:16]}Tq4Zm9LxB2vN/secret.json",
])
def test_keys_that_are_credentials_stay_refused(text):
    assert flagged(text)


EVENT_HEX = "3f2c1e9a" + "8b7d4c6e" + "5f1a2b3c" + "4d5e6f7a"


@pytest.mark.parametrize("text", [
    f"Sentry event {EVENT_HEX}",
    f"job {EVENT_HEX} failed twice overnight",
    f"Athena execution {EVENT_HEX} timed out",
])
def test_hex_ids_of_events_jobs_and_runs_pass(text):
    # "event", "job", "run", "execution", "task", "incident" name the hex after them as an id,
    # as "commit" and "trace" already did; each case fails on d5fb380.
    assert not flagged(text)


def test_a_hex_key_after_an_event_word_and_a_credential_word_stays_refused():
    assert flagged(f"the event webhook api key: {EVENT_HEX}")
