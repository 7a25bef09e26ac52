"""Issue 18, secrets (SPEC R-SAVE-2), fourteenth session: a password in more languages and under
more letters, found probing fifty-five ways a note can hold one (no outside case read):

* "password is …" in Hindi, Polish ("hasło to …"), Vietnamese, Indonesian, Hebrew with its
  article ("הסיסמה היא …") and Turkish's possessive ("wifi şifresi: …"); a key's emoji as its
  label ("🔑 …", a strong value only);
* a PIN read out in French, German, Spanish, Italian, Portuguese or Dutch ("le code PIN est
  quatre huit deux un"; data/spoken_digits.txt);
* a Wi-Fi network's QR code text ("WIFI:T:WPA;S:office;P:…;;");
* a token in small capitals or in regional indicator letters (data/secrets_confusables.txt).

The same words in ordinary notes pass: a password policy, counting, a heading with an emoji,
a network's name. Every refused case fails against the detector of commit 8269590.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

PASSWORD = "Vq7#mZ2!pL9x"
AWS = "AKIA" + "Q7XR2MZ5K3LP9WTN"
GITHUB = "ghp_" + "R8x2Kq9LmZ4vT7wN3pY6sB1cF5hJ0dG2aE8u"
_SMALL_CAPITALS = dict(zip("abcdefghijklmnoprtuwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀᴛᴜᴡʏᴢ"))


@pytest.mark.parametrize("text", [
    f"पासवर्ड {PASSWORD} है",
    f"hasło to {PASSWORD}",
    f"mật khẩu là {PASSWORD}",
    f"kata sandinya {PASSWORD}",
    f"הסיסמה היא {PASSWORD}",
    f"wifi şifresi: {PASSWORD}",
    f"🔑 {PASSWORD}",
], ids=["hindi", "polish", "vietnamese", "indonesian", "hebrew", "turkish", "key-emoji"])
def test_a_password_in_more_languages_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "le code PIN est quatre huit deux un",
    "die PIN ist vier acht zwei eins",
    "el PIN es cuatro ocho dos uno",
    "il PIN è quattro otto due uno",
    "o PIN é quatro oito dois um",
    "de pincode is vier acht twee een",
], ids=["french", "german", "spanish", "italian", "portuguese", "dutch"])
def test_a_pin_read_out_in_other_languages_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    f"WIFI:T:WPA;S:office-5G;P:{PASSWORD};;",
    "scan this: WIFI:S:guest;T:WPA;P:summer2024;H:false;;",
    "key " + "".join(chr(0x1F1E6 + ord(c) - 65) if c.isupper() else c for c in AWS),
    "token " + "".join(_SMALL_CAPITALS.get(c, c) for c in GITHUB),
], ids=["wifi-qr", "wifi-qr-weak-password", "regional-indicators", "small-capitals"])
def test_a_wifi_code_and_letters_drawn_otherwise_are_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "🔑 takeaways: churn is up 3% in Q3",
    "🔐 Security review done, no findings",
    "mật khẩu là bắt buộc cho mọi tài khoản",
    "hasło to tajemnica",
    "kata sandi harus diganti setiap bulan",
    "הסיסמה היא חובה",
    "un deux trois quatre, on compte les lignes",
    "die PIN ist vier Stellen lang",
    "due tre quattro cinque sei sono i passi",
    "WIFI network is office-5G, ask IT for access",
    "🇺🇸 and 🇩🇪 revenue are in separate tables",
], ids=["emoji-heading", "emoji-review", "vietnamese-policy", "polish-word", "indonesian-policy",
        "hebrew-policy", "counting", "pin-length", "steps", "network-name", "flags"])
def test_ordinary_notes_with_the_same_words_pass(text):
    assert find_secrets(text) == []
