"""Long operator work shows counts and rate as it goes (issue 22): a bar on a terminal, lines in
a log; embed_notes, load_demo and a CSV import say how many and how fast."""

from __future__ import annotations

import io
import logging
import re

import pytest
from django.core.management import call_command

from ops import progress as progress_module
from ops.progress import LogLines, Progress
from tests.factories import ALL_DATABASES, make_table, token_client, url
from tests.memories.helpers import person_save


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_one_line_is_redrawn_with_a_bar_counts_and_rate():
    screen = Terminal()
    bar = Progress(screen, "notes", total=4, unit="note")
    for _ in range(4):
        bar.advance()
    summary = bar.finish()
    frames = screen.getvalue().split("\r")[1:]
    assert len(frames) == 5 and frames[0].startswith("[######..................] notes: 1/4 note(s), ")
    assert frames[-1].startswith("[########################] notes: 4/4") and frames[-1].endswith("/s\n")
    assert re.fullmatch(r"notes: 4 note\(s\) in \d+\.\d s", summary)


def test_in_a_log_a_line_is_written_every_few_seconds_not_every_item(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(progress_module.time, "perf_counter", lambda: now[0])
    log = io.StringIO()
    lines = Progress(log, "rows", unit="row", every_seconds=5)  # started at t=0
    for _ in range(12):  # one row per second
        now[0] += 1
        lines.advance()
    written = log.getvalue().splitlines()
    assert written == ["rows: 5 row(s), 1.0/s", "rows: 10 row(s), 1.0/s"]


@pytest.mark.django_db(databases=ALL_DATABASES)
def test_embed_notes_and_load_demo_print_counts_and_rate(owner, eu_ws):
    client = token_client(owner)
    for n in range(3):
        person_save(client, eu_ws, key=f"fact.{n}", value=f"A plain fact number {n}")
    out = io.StringIO()
    call_command("embed_notes", "--all", stdout=out)
    text = out.getvalue()
    assert re.search(r"^eu: notes read: 3 note\(s\) in \d+\.\d s$", text, flags=re.M), text
    assert "eu: 3 note(s) embedded" in text and "Embedded 3 note(s) in" in text
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert re.search(r"^demo workspaces: 2/2 workspace\(s\), [\d.]+/s$", out.getvalue(), flags=re.M)


@pytest.mark.django_db(databases=ALL_DATABASES)
def test_a_csv_import_logs_its_rows_and_rate(owner, eu_ws, caplog):
    table = make_table(eu_ws, owner, name="Seats")
    rows = "".join(f"Person {n},p{n}@example.com,active\n" for n in range(40))
    with caplog.at_level(logging.INFO, logger="appenda.tables"):
        response = token_client(owner).post(url(eu_ws, f"tables/{table.id}/records/import/"),
                                            data="name,email,status\n" + rows, content_type="text/csv")
    assert response.status_code == 201, response.content
    messages = [r.getMessage() for r in caplog.records if r.name == "appenda.tables"]
    assert any(re.fullmatch(rf"CSV import into table {table.id}: 40 row\(s\) in \d+\.\d s; 40 record\(s\) added", m)
               for m in messages), messages


def test_log_lines_go_to_a_logger(caplog):
    with caplog.at_level(logging.INFO, logger="appenda.test"):
        Progress(LogLines(logging.getLogger("appenda.test")), "items", every_seconds=0).advance()
    assert [r.getMessage() for r in caplog.records] == ["items: 1 item(s), " + caplog.records[0].getMessage()
                                                       .rsplit(", ", 1)[1]]
