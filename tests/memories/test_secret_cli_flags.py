"""Passwords given to command-line tools as a flag's value (issue 18; SPEC R-SAVE-2): the tools
and flags of memories/refusals/data/secrets_cli_password_flags.txt, from each tool's manual,
and the commands where the same flag is not a password.

Plain tests: no database, no Django (run with ``-p no:django``). The cases that are refused
fail against the detector of commit f78c6bb (before the rule), except mysql's bare ``-p``
value, which a vendor rule found before and this rule now finds in its place. The passwords are
made up here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402

PASSWORD = "Wq7" + "!zR2p9"


def covered(text: str) -> bool:
    """Some finding covers the password (which rule finds it is the detector's business)."""
    start = text.index(PASSWORD)
    return any(f.start <= start and start + len(PASSWORD) <= f.end for f in find_secrets(text))


@pytest.mark.parametrize("text", [
    f"sshpass -p '{PASSWORD}' ssh deploy@10.0.0.4",
    f"psexec \\\\web01 -u CORP\\svc_backup -p {PASSWORD} cmd",
    f"C:\\Tools\\PsExec.exe \\\\web01 -u admin -p {PASSWORD} cmd",
    f"smbclient //fs01/share -U jdoe%{PASSWORD}",
    f"ldapsearch -x -D cn=admin,dc=example,dc=org -w {PASSWORD} -b dc=example,dc=org",
    f"zip -P {PASSWORD} notes.zip notes.txt",
    f"xfreerdp /v:10.0.0.9 /u:ops /p:{PASSWORD}",
    f"plink -ssh ops@10.0.0.9 -pw {PASSWORD}",
    f"docker login -u ci -p {PASSWORD} registry.example.com",
    f"mysql -u admin -p'{PASSWORD}' -h db.internal",
    f"mysql -u root -p{PASSWORD} shop",
    f"redis-cli -h cache -a {PASSWORD} ping",
])
def test_a_password_given_to_a_tools_password_flag_is_refused(text):
    assert covered(text)


@pytest.mark.parametrize("text", [
    "docker run -p 8080:80 nginx",
    "redis-cli -h cache -p 6379 ping",
    "mysql -h db -P 3306 -u root -p",
    "sshpass -p \"$SSHPASS\" ssh host",
    "psexec \\\\web01 -u admin -p <password> cmd",
    "mysqldump -uroot -p$MYSQL_PWD shop > shop.sql",
    "use zip -P to protect the export",
    "sqlcmd -S db01 -U sa -p",
])
def test_the_same_flags_without_a_password_are_not_refused(text):
    assert not find_secrets(text)


# Fifteenth session: a secret given to a command that stores it ("gh secret set … --body", "az
# keyvault secret set … --value") or piped into one that reads it from its input; each fails
# against eee87b7. Variables, files and other pipes pass.
SECRET = "Qm7vX2" + "pLk9Zt4WbR"


@pytest.mark.parametrize("text", [
    f"gh secret set TOKEN --body {SECRET}",
    f"az keyvault secret set --name db --vault-name kv --value {SECRET}",
    f'gcloud secrets create db --data-file=- <<< "{SECRET}"',
    f'echo "{SECRET}" | docker login -u ci --password-stdin',
    f'printf "%s" "{SECRET}" | gh auth login --with-token',
    f"echo -n '{SECRET}' | podman login --password-stdin quay.io",
], ids=["gh-secret-set", "az-keyvault", "gcloud-here-string", "docker-login-stdin", "gh-auth-token", "podman"])
def test_a_secret_stored_by_a_command_or_piped_into_it_is_refused(text):
    assert [text[f.start:f.end] for f in find_secrets(text)] == [SECRET]


@pytest.mark.parametrize("text", [
    'echo "$CR_PAT" | docker login ghcr.io -u ci --password-stdin',
    "echo $TOKEN | gh auth login --with-token",
    "cat token.txt | docker login --password-stdin",
    'gh secret set TOKEN --body "$TOKEN"',
    'echo "hello" | wc -l',
    "az keyvault secret set --name db --value @secret.txt",
], ids=["variable-piped", "bare-variable", "file-piped", "variable-body", "other-pipe", "file-argument"])
def test_variables_files_and_other_pipes_pass(text):
    assert find_secrets(text) == []
