"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session, found probing thirty structured notes
(no outside case read): a password in a table's credential column (Markdown, CSV, TSV, ";"), a
Terraform variable's default when its name names a password, and a password as a command's
positional argument ("htpasswd -b file user PASSWORD", "net use Z: \\\\srv\\share PASSWORD
/user:ana"). Hashes, placeholders, references and column docs pass. Refused cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "| user | password |\n|---|---|\n| admin | Xk9#mP2qLr |",
    "ops.note: | user | password |\n|---|---|\n| admin | Xk9#mP2qLr |",  # as the gate reads key and value
    "user | password\n--- | ---\nadmin | Xk9#mP2qLr",
    "env\tsecret\nprod\tXk9#mP2qLr",
    'variable "db_password" {\n  default = "Xk9#mP2qLr"\n}',
    "htpasswd -b .htpasswd ana Xk9#mP2qLr",
    "net use Z: \\\\srv\\share Xk9#mP2qLr /user:ana",
])
def test_a_password_in_a_table_a_variable_or_an_argument_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "| user | password |\n|---|---|\n| admin | hashed |\n| ana | n/a |",
    "user,password_hash\nana,$2b$12$abc",
    "column,type\npassword,varchar(64)\ntoken,text",
    "| column | description |\n|---|---|\n| password | bcrypt hash of the password |",
    "| env | token |\n|---|---|\n| prod | `${PROD_TOKEN}` |",
    'variable "db_password" {\n  type = string\n  sensitive = true\n}',
    "htpasswd -b .htpasswd ana $PW",
    "net use Z: \\\\srv\\share * /user:ana",
])
def test_hashes_placeholders_and_column_docs_pass(text):
    assert find_secrets(text) == []
