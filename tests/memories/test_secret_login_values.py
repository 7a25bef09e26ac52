"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session: a login handed over as people write it
(memories/refusals/secret_logins.py; from the tuning draws' misses, by form): an e-mail address
and a password side by side, a token given to curl as the user with an empty password, a password
written bare after ConvertTo-SecureString. Names of things beside an address pass.
Refused cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "ana@example.com / Verano2024!",
    "Verano2024! / ana@example.com",
    "zipbooks = SecureP@ss123 / admin@secure.com",
    'curl -u "d2LkV78zLx!t:" https://localhost:9200',
    "ConvertTo-SecureString -String -Force dsjUE#$gds8s",
])
def test_a_login_handed_over_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "ana@example.com / Sales-Team",
    "Q3/Q4 split: ana@example.com / 2024-Q3-Report",
    "ana@example.com / EMEA-West-2",
    "owner ana@example.com / backup jane@example.com",
    "ana@example.com / +1 415 555 0134",
    "curl -u admin: https://localhost:9200",
    "ConvertTo-SecureString $plain -AsPlainText -Force",
])
def test_addresses_beside_names_of_things_pass(text):
    assert find_secrets(text) == []
