"""Issue 18, secrets (SPEC R-SAVE-2), twelfth session: forms Kingfisher's tuning draw still missed
(tests/data/secret_tuning_from_kingfisher.jsonl), and the false refusals probing their rules found.

* A credential's name glued to its value by a dash or a dot, as one word ("…-token-<hex>",
  "…PRIVATE.<hex>"; memories/refusals/secret_glued.py).
* A value a person typed after a credential word, mixed case and digits, 20+ characters: its
  entropy is lower than a generator's ("dkHL49…"), and the word before it says what it is.
* Kept: PowerShell's ``$env:NAME``, a reference as ``$NAME`` is, and a command's option after a
  password's name ("$env:PASSWORD -AsPlainText"); generated resource names
  ("app-token-7f9c8b6d5e", "private-subnet-0a1b…"); "key" or "token" after a word that says what
  kind ("cache key …", "sort key …", "next page token …"), as the same words joined ("cache_key",
  "nextPageToken") already were; ids a data team's notes name by what they are ("dashboard slug
  …", "Figma file key …", "Cloudflare zone …", "idempotency key …"), from a probe of 80 such
  notes written here; a word that ends a sentence after "password" ("a password manager!"), as
  the same word without its "!" already was.

The values are made up. Every refused case but the PowerShell one (found before; it guards the
new keep of ``$env:``) fails against the detector of commit e206548, and every kept case that an earlier
detector refused is marked with its commit.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

HEX = "c4e19b7a2f5d83e06a1b9c4d7e2f5a38"


@pytest.mark.parametrize("text, value", [
    (f"acmecrm-token-{HEX}", HEX),
    (f"export ACME=acmecrm-secret-{HEX}", HEX),
    (f"formsPRIVATE.{HEX}", HEX),
    ("acme-api-key-Tq8Lm2Zx7RvW4nKp9BsY", "Tq8Lm2Zx7RvW4nKp9BsY"),
    ("acme SECRET tnGR58tLn3rpWtnbnr426QXrtnrpnt87", "tnGR58tLn3rpWtnbnr426QXrtnrpnt87"),
    ("acme access key tnGR58tLn3rpWtnbnr426QXrtnrpnt87", "tnGR58tLn3rpWtnbnr426QXrtnrpnt87"),
    ("client_secret=tnGR58tLn3rpWtnbnr426QXrtnrpnt87", "tnGR58tLn3rpWtnbnr426QXrtnrpnt87"),
    ('$pw = ConvertTo-SecureString "Zk8#qLm2Wx" -AsPlainText -Force', "Zk8#qLm2Wx"),
], ids=["dash-token-hex", "dash-secret-hex", "dot-private-hex", "dash-api-key", "typed-after-secret",
        "typed-after-access-key", "typed-assigned",
        "powershell-secure-string"])
def test_a_value_joined_to_its_name_or_typed_after_it_is_refused(text, value):
    found = find_secrets(text)
    assert found and value in [text[f.start:f.end] for f in found]


@pytest.mark.parametrize("text", [
    "kubectl get secret app-token-7f9c8b6d5e",  # refused by e206548
    "the route table for private-subnet-0a1b2c3d4e5f6a7b8 is wrong",
    "secret-manager-projects-123456789012 holds the prod keys",
    "moved to private-bucket-2024-11-03-backups",
    "gke node pool private-pool-n2d4k7x9m2q8",
    "the secret-3f2c9a1e-7b4d-4c5f-9a8b-1e2d3c4b5a6f was deleted",
    "download private-files-7c2f9a1e3b4d5c6f7a8b.parquet",
    "pipeline cache key deps-9a8b7c6d5e4f3a2b1c0d9e8f",  # refused by e206548
    "the cache key is deps-9a8b7c6d5e4f3a2b1c0d9e8f",  # refused by e206548
    "sort key a8f9c7d6e5b4a3f2e1d0c9b8a7f6",  # refused by e206548
    "the partition key: 9a8b7c6d5e4f3a2b1c0d9e8f",  # refused by e206548
    "next page token eyJvZmZzZXQiOjEwMDAsInNvcnQiOiJ1cGRhdGVkX2F0In0",  # refused by e206548
    "$pw = ConvertTo-SecureString $env:DB_PASSWORD -AsPlainText -Force",  # refused by e206548
    "password: $env:DB_PASSWORD",  # refused by e206548
    "Looker dashboard slug 4fKq9ZxT2mWp7LbN3vRs is the churn one",  # refused by 8e8b08f
    "Figma file key 3xK9mQ2vL7pR4tW8zB6nY1 has the mockups",  # refused by 8e8b08f
    "the Cloudflare zone 023e105f4ecef8ad9ca31a8372d0c353 is prod",  # refused by 8e8b08f
    "the idempotency key 4fKq9ZxT2mWp7LbN3vRs8cD2 was reused",  # refused by 8e8b08f
    "use a password manager!",  # refused by d75f5be
    "when developing a random password generator?",  # refused by d75f5be (WNUT tuning half)
])
def test_names_of_things_and_keys_of_data_are_kept(text):
    assert find_secrets(text) == []
