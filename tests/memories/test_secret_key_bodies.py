"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session, found probing eighteen ways a private
key is written (no outside case read): an OpenSSH private key's body without its armour (base64 of
"openssh-key-v1\\0" always starts "b3BlbnNzaC1rZXktdjEA") and a Nostr private key ("nsec1…",
NIP-19). Their public counterparts pass. Refused cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "id_ed25519 contents: b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB",
    "my nostr key nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",
])
def test_a_private_key_body_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "deploy key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci@appenda",
    "follow us on nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
])
def test_public_keys_pass(text):
    assert find_secrets(text) == []
