"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): a password written before the words that say so ("Tr0ub4dor&3 is the root
password"), "the new one" after a password word, a passphrase of plain words ("keystore
passphrase: correct horse battery staple"), a wallet's recovery phrase (twelve or more words of
the BIP-39 list, from the ``mnemonic`` package), and a 2FA seed ("2FA seed: JBSWY3DP…").
Talk about passwords, ordinary prose and a random seed of digits pass.

Every positive case but the quoted one fails against the detector of commit 2f54a2e.
"""

from __future__ import annotations

import pytest

from memories.refusals.across_notes import find_split_secrets
from memories.refusals.secrets import find_secrets


def found(text: str) -> list[str]:
    return [text[f.start:f.end] for f in find_secrets(text)]


@pytest.mark.parametrize("text, secret", [
    ("Tr0ub4dor&3 is the root password", "Tr0ub4dor&3"),
    ("Zq8!rT2w was our admin pw until Friday", "Zq8!rT2w"),
    ('"Kettle-Moss-92" is the shared mailbox password', "Kettle-Moss-92"),
    ("my password expired, the new one is Zq8!rT2w", "Zq8!rT2w"),
    ("password rotated; new one: Hx7#pLm2Qa", "Hx7#pLm2Qa"),
], ids=["value-first", "was-our", "quoted", "new-one-is", "new-one-colon"])
def test_a_password_named_after_it_or_as_the_new_one_is_refused(text, secret):
    assert found(text) == [secret]


@pytest.mark.parametrize("text, secret", [
    ("keystore passphrase: correct horse battery staple", "correct horse battery staple"),
    ("the gpg pass phrase is lunar-otter-fabric-window", "lunar-otter-fabric-window"),
], ids=["colon", "pass-phrase-is"])
def test_a_passphrase_of_plain_words_is_refused(text, secret):
    assert found(text) == [secret]


@pytest.mark.parametrize("text", [
    "recovery phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
    "seed words\n1. legal 2. winner 3. thank 4. year 5. wave 6. sausage\n7. worth 8. useful 9. legal "
    "10. winner 11. thank 12. yellow",
    "army van defense carry jealous true garbage claim echo media make crunch",
], ids=["labelled", "numbered-over-lines", "bare"])
def test_a_wallet_recovery_phrase_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "2FA seed: JBSWY3DPEHPK3PXQ",
    "the 2fa backup seed is KRSXG5CTMVRXEZLU",
    "TOTP_SEED=KRSXG5CTMVRXEZLUKN2XAZLSMVXQ",
], ids=["2fa-seed", "backup-seed-is", "env"])
def test_a_2fa_seed_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "This is the root password policy",
    "v2.3 is the password policy version",
    "Okta is the password manager we use",
    "orders-v2 is the password reset flow",
    "the new one is faster (password hashing)",
    "my password expired, the new one is in 1Password",
    "passphrase: see the vault entry",
    "passphrase: same as the wifi one",
    "the passphrase: use a diceware one",
    "ssh key passphrase: none, agent forwarding only",
    "eleven words only: army van defense carry jealous true garbage claim echo media make",
    "The quarterly report shows revenue above target across every region except the north.",
    "random seed: 42",
    "np.random.seed(20240611)",
    "the dbt seed is country_codes",
    "seed data: orders_fixture.csv",
], ids=lambda text: text[:30])
def test_talk_about_passwords_prose_and_random_seeds_are_not_refused(text):
    assert find_secrets(text) == []


WORDS = "army van defense carry jealous true garbage claim echo media make crunch".split()


def test_a_recovery_phrase_split_over_two_notes_is_found_in_either_order():
    first = "wallet words part one: " + " ".join(WORDS[:6])
    second = " ".join(WORDS[6:]) + " (part two)"
    assert not find_secrets(first) and not find_secrets(second)  # each half alone holds nothing
    [found] = find_split_secrets([first], second)
    assert found.kind == "seed_phrase" and second[found.start:found.end] == " ".join(WORDS[6:])
    [found] = find_split_secrets([second], first)
    assert first[found.start:found.end] == " ".join(WORDS[:6])


def test_six_such_words_beside_an_unrelated_note_are_no_phrase():
    assert find_split_secrets(["the quarterly report is ready"], " ".join(WORDS[:6])) == []
