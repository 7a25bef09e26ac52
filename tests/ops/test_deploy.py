"""The deploy kit (issue 22): the image runs the commands the tests and `make` run, the compose
file has the app, worker, databases and buckets with the README's variables, and `migrate_all`
creates a region database that does not exist yet."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest
import yaml
from django.conf import settings
from django.core.management import get_commands
from django.db import connections

from workspaces.management.commands.migrate_all import (
    database_create,
    database_missing,
    server_params,
)

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"app", "worker", "migrate", "postgres", "seaweedfs"}


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """[(INSTRUCTION, arguments)] per stage, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    stages: list[list[tuple[str, str]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instruction, _, arguments = line.partition(" ")
        if instruction.upper() == "FROM":
            stages.append([])
        stages[-1].append((instruction.upper(), arguments.strip()))
    return stages


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def readme_variables() -> list[re.Pattern]:
    """The README's environment table, `REGION_<NAME>_…` as a pattern."""
    names = re.findall(r"^\| `([A-Z0-9_<>]+)`(?:, `([A-Z0-9_]+)`)?(?:, `([A-Z0-9_]+)`)?",
                       (ROOT / "README.md").read_text(), flags=re.M)
    flat = {name for row in names for name in row if name}
    return [re.compile("^" + re.escape(name).replace(re.escape("<NAME>"), "[A-Z0-9]+") + "$") for name in flat]


def manage_commands(text: str) -> set[str]:
    return set(re.findall(r"manage\.py[\"',\s]+([a-z_]+)", text))


def test_the_image_is_multi_stage_non_root_and_prepares_model_and_static_files():
    stages = dockerfile_stages()
    assert len(stages) >= 2
    build, runtime = " ".join(a for _, a in stages[0]), stages[-1]
    assert "manage.py prepare_search_model" in build and "manage.py collectstatic --noinput" in build
    users = [arguments for instruction, arguments in runtime if instruction == "USER"]
    assert users and users[-1] not in ("root", "0")
    entry = " ".join(a for i, a in runtime if i in ("CMD", "ENTRYPOINT"))
    assert '"gunicorn", "-c", "infra/gunicorn.conf.py", "appenda.wsgi:application"' in entry
    assert (ROOT / "infra" / "gunicorn.conf.py").is_file()
    assert ("EXPOSE", "8000") in runtime
    assert any(i == "HEALTHCHECK" and "/healthz" in a for i, a in runtime)
    env = " ".join(a for i, a in runtime if i == "ENV")
    assert "DJANGO_SETTINGS_MODULE=appenda.settings.production" in env and "PROMETHEUS_MULTIPROC_DIR=" in env


def test_the_image_and_compose_run_only_commands_that_exist():
    used = manage_commands((ROOT / "Dockerfile").read_text()) | manage_commands((ROOT / "compose.yaml").read_text())
    assert {"prepare_search_model", "collectstatic", "migrate_all", "region_check", "run_jobs"} <= used
    assert used <= set(get_commands())


def test_compose_has_the_app_worker_databases_and_buckets_with_the_readme_variables():
    services = compose()["services"]
    assert set(services) == SERVICES
    assert services["app"]["ports"] == ["8000:8000"]
    assert not any("ports" in services[name] for name in SERVICES - {"app"})  # internal only
    assert services["worker"]["command"] == ["python", "manage.py", "run_jobs"]
    assert services["app"]["environment"] == services["worker"]["environment"] == services["migrate"]["environment"]
    for name in ("app", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    env = services["app"]["environment"]
    known = readme_variables()
    undocumented = sorted(name for name in env if not any(p.match(name) for p in known))
    assert undocumented == [], "variables the README's table does not list"
    regions = env["REGIONS"].split(",")
    for region in regions:
        assert env[f"REGION_{region.upper()}_S3_ENDPOINT"] == "http://seaweedfs:8333"
        assert env[f"REGION_{region.upper()}_S3_BUCKET"] == f"appenda-{region}"
        assert env[f"REGION_{region.upper()}_DATABASE_URL"].endswith(f"@postgres:5432/appenda_region_{region}")
    assert env["DATABASE_URL"].endswith("@postgres:5432/appenda")
    assert "${DJANGO_SECRET_KEY:?" in env["DJANGO_SECRET_KEY"]  # no default secret


def test_the_readme_documents_the_operations_variables():
    known = readme_variables()
    for name in ("APPENDA_METRICS_TOKEN", "APPENDA_LOCAL_PASSPHRASE", "APPENDA_API_RATE", "APPENDA_JOBS_TICK_SECONDS",
                 "APPENDA_LOGIN_FAILURE_LIMIT", "APPENDA_LOG_FORMAT", "APPENDA_STATIC_ROOT", "APPENDA_MODEL_DIR"):
        assert any(p.match(name) for p in known), name


def test_compose_validates_with_the_compose_tool_or_refers_only_to_what_it_declares(monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", "test-only")
    tool = next((command for command in (["docker", "compose"], ["docker-compose"])
                 if shutil.which(command[0]) and subprocess.run([*command, "version"], capture_output=True,
                                                                timeout=30).returncode == 0), None)
    if tool is not None:
        result = subprocess.run([*tool, "-f", str(ROOT / "compose.yaml"), "config", "-q"],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
    document = compose()
    services = document["services"]
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        assert set(service.get("depends_on", {})) <= set(services), name
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in document["volumes"], volume


def test_migrate_all_creates_a_region_database_that_does_not_exist(db):
    base = connections[settings.REGION_DB_ALIASES["eu"]]
    if base.vendor != "postgresql":
        pytest.fail("the tests run on PostgreSQL (infra.testenv)")
    name = f"appenda_ops_probe_{uuid.uuid4().hex[:8]}"
    probe = base.__class__({**copy.deepcopy(base.settings_dict), "NAME": name}, alias="region_probe")
    assert database_missing(probe)
    database_create(probe)
    try:
        assert not database_missing(probe)
        assert not database_missing(base)
    finally:
        with psycopg.connect(**server_params(probe, "postgres"), autocommit=True) as maintenance:
            maintenance.execute(f'DROP DATABASE "{name}"')
