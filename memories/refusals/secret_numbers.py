"""Payment card numbers and PINs (R-SAVE-2).

A card number is 13-19 digits (ISO/IEC 7812), written straight or in groups with spaces or
dashes (or dots, with a card word near), whose last digit is the Luhn check digit of the others, and whose first digits are an
issuer range of a card network (2 and 5 Mastercard, 3 Amex / JCB / Diners, 4 Visa, 6 Discover /
UnionPay / Maestro). One in ten random numbers passes the Luhn check, so a number written in one
piece also needs a card word near it, and a number named as an order, invoice, tracking or
other id is not a card number.

A PIN is 4-8 digits written after the word PIN ("PIN 4821", "the pin code is 4821", "PIN für
die Tür: 4821"), or after another name for a code that lets someone in: one that opens something
("door code 4821", "the code for the gate is 4821"), a passcode, an unlock, access, login or
verification code, a one-time code ("the otp was 552190"); a card's security code is 3-4 digits
("CVV 123"), a SIM's PUK, a lock's combination ("the safe combination is 12-34-56"). Backup
and recovery codes are the codes after those words ("recovery codes:
4k7m-9p2q 8812-1190").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps

__all__ = ["find_cards_and_pins", "luhn_valid"]

_CARD_RE = re.compile(r"(?=\d)(?<![\d\-./,])\d(?:[ \-]?\d){12,18}(?![\d\-]|[.,]\d)")
_DOTTED_CARD_RE = re.compile(r"(?<![\d\-./,])\d{4}(?:\.\d{4}){3}(?![\d\-]|[.,]\d)")  # "4539.1488.0343.6467"
# Issuer ranges of the card networks (first digits).
_FOUR_DIGITS_DOT_RE = re.compile(r"\d{4}\.\d")
_ISSUER_RE = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|3[5689]|30|6(?:011|4[4-9]|5|2)|5[06-9]|6)")
_GROUPED_RE = re.compile(r"^\d{4}(?:[ \-]\d{4}){2,3}(?:[ \-]\d{1,3})?$|^\d{4}[ \-]\d{6}[ \-]\d{4,5}$")
_CARD_WORDS = re.compile(
    r"card|visa|mastercard|master card|amex|american express|discover|maestro|unionpay|jcb|"
    r"diners|kreditkarte|karte|carte|tarjeta|cartão|carta|kart|卡|カード|cc\b|cvv|cvc|expir|"
    r"exp\b|valid thru|pan\b|credit|debit|payment|pay with|charged to"
)
_ID_WORDS = re.compile(
    r"order|invoice|tracking|shipment|parcel|barcode|ean|isbn|gtin|upc|iban|account number|"
    r"phone|tel\b|fax|imei|serial|ticket|booking|reference|ref\b|id\b|ids\b|#"
)
_CONTEXT = 48
_PIN_NOUN_RE = re.compile(r"(?i)code|number|nummer")

# A code that opens something is a PIN by another name: "door code 4821", "the code for the
# gate is 4821", "alarm code: 4821".
_LOCKS = r"(?:door|alarm|gate|keypad|safe|lock|entry|building|garage|locker)"
# Other names of a code that lets someone in.
_ACCESS_CODES = (r"(?:pass[ \-]?code|(?:unlock|access|security|verification|login|sign[ \-]?in|"
                 r"one[ \-]time|otp|2fa|mfa|sms|totp|auth(?:entication)?|zugangs)[ \-]?code|otp|totp|"
                 r"cvv2?|cvc2?|csc|puk2?)")  # a SIM's PUK unblocks its PIN
_PIN_RE = re.compile(
    r"(?<![A-Za-z])(?:(?:pin|PIN)(?:[ \-]?(?:code|number|nummer|no\.?|#))?"
    r"|" + _ACCESS_CODES +
    r"|" + _LOCKS + r"[ \-]?code"
    r"|code(?=\s+(?:for|to|of)\s+(?:the\s+|our\s+)?(?:front\s+|back\s+|side\s+|main\s+)?" + _LOCKS + r")"
    # French, German, Spanish, Portuguese and Italian: "digicode", "code de la porte", "Türcode",
    # "código de la puerta", "código PIN", "codice PIN".
    r"|digicode|t(?:ü|ue)rcode|code\s+(?:de\s+)?(?:la\s+|l')?(?:porte|portail|entr[ée]e)"
    r"|c[oó]digo\s+(?:pin|de\s+(?:la\s+)?puerta|da\s+porta|de\s+acesso|de\s+acceso)|codice\s+pin)"
    r"(?P<about>\s+(?:for|of|to|on|at|für|de|du|pour|para)(?:\s+[\w.'\-]{1,30}){1,4}?)?"
    r"(?P<sep>\s*[:=：]\s*|\s+(?:is|was|is\s+now|ist|lautet|est|es|é|è)\s+|(?(about)(?!)|\s+))"
    r"(?P<value>\d{3,8})(?![\d\w.,:/\-]|[.,]\d)",
    re.IGNORECASE,
)
# A lock's combination, in its groups of numbers: "the safe combination is 12-34-56".
_COMBINATION_RE = re.compile(
    r"(?i)\b(?:safe|lock|locker|padlock|vault|bike[ \-]lock)(?:'s)?\s+combination(?:\s+(?:is|was)\s+|\s*[:=]\s*|\s+)"
    r"(?P<value>\d{1,3}(?:[\-\s]\d{1,3}){2,3}|\d{3,8})(?![\d\w.,:/\-]|[.,]\d)")
_CARD_CODE_RE = re.compile(r"(?i)cvv2?|cvc2?|csc|security[ \-]?code")
# "pin 4829" alone may be the verb ("pin 2024 as the baseline"); after a word that owns it, not.
_PIN_OWNER_RE = re.compile(
    r"(?i)\b(?:my|your|his|her|our|their|the|voicemail|sim|card|bank|debit|atm|phone|laptop|"
    r"device|router|wifi|door|alarm|safe)\s+$"
)
_RECOVERY_WORDS = ("backup", "recovery", "2fa", "mfa", "emergency", "scratch")
_RECOVERY_CODES_RE = re.compile(
    r"(?i)\b(?:backup|recovery|2fa|mfa|emergency|scratch)[ \-]codes?\b[^\d]{0,12}?"
    r"(?P<codes>(?:[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6}|\d{6,10})(?:[\s,;]+(?:[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6}|\d{6,10}))*)"
)


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check over a string of digits."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _find_cards(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    dotted = _DOTTED_CARD_RE.finditer(text) if "." in text and _FOUR_DIGITS_DOT_RE.search(text) else ()
    for match in [*_CARD_RE.finditer(text), *dotted]:
        written = match.group()
        digits = written.replace(" ", "").replace("-", "").replace(".", "")
        if not 13 <= len(digits) <= 19 or not _ISSUER_RE.match(digits) or not luhn_valid(digits):
            continue
        start, end = match.span()
        if _overlaps(taken, start, end):
            continue
        before = lowered[max(0, start - _CONTEXT): start]
        after = lowered[end: end + _CONTEXT // 2]
        named_card = bool(_CARD_WORDS.search(before) or _CARD_WORDS.search(after))
        if not named_card and _ID_WORDS.search(before):
            continue
        if named_card or ("." not in written and _GROUPED_RE.match(written)):
            yield "card_number", start, end, 74


# Where a PIN's words are; ``_PIN_RE`` is tried only around them (it is slow on a whole note).
_PIN_WORD_RE = re.compile(r"(?i)pin|code|otp|cv[vc]|csc|puk")
_SPACE_RE = re.compile(r"\s|$")


def _pin_matches(text: str) -> Iterator[re.Match]:
    """``_PIN_RE.finditer(text)``, tried from a little before each PIN word (the longest words
    before "code": "authentication ") to a space well after it, so no number is cut."""
    searched_to = 0
    for word in _PIN_WORD_RE.finditer(text):
        start = max(word.start() - 24, searched_to)
        if start >= word.end():
            continue
        end = _SPACE_RE.search(text, min(len(text), word.end() + 120)).start()
        for match in _PIN_RE.finditer(text, start, end):
            if match.start() >= searched_to:
                yield match
        searched_to = end


def _find_pins(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for match in _pin_matches(text):
        word = match.group()[:3]
        sep = match.group("sep").strip()
        if (not sep and word.lower() == "pin" and word != "PIN" and not _PIN_NOUN_RE.search(match.group())
                and not _PIN_OWNER_RE.search(text, max(0, match.start() - 12), match.start())):
            continue  # a bare "pin 2024" is the verb; "PIN 4821" and "pin code 4821" are not
        value = match.group("value")
        card_code = _CARD_CODE_RE.match(match.group()) is not None
        if len(value) < (3 if card_code else 4) or (card_code and len(value) > 4):
            continue
        if word.lower() in ("otp", "tot") and len(value) < 6:
            continue  # one-time codes are 6-8 digits; "otp 5000 requests a day" is a count
        if len(set(value)) == 1 and value == "0" * len(value):
            continue
        start, end = match.span("value")
        if not _overlaps(taken, start, end):
            yield "pin", start, end, 66


def _find_recovery_codes(text: str, taken: Spans) -> Iterator[Candidate]:
    for match in _RECOVERY_CODES_RE.finditer(text):
        start, end = match.span("codes")
        if any(c.isdigit() for c in match.group("codes")) and not _overlaps(taken, start, end):
            yield "recovery_codes", start, end, 66


def find_cards_and_pins(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    yield from _find_cards(text, lowered, taken)
    if ("pin" in lowered or "code" in lowered or "otp" in lowered or "cv" in lowered or "csc" in lowered
            or "puk" in lowered):
        yield from _find_pins(text, lowered, taken)
    if "combination" in lowered:
        for match in _COMBINATION_RE.finditer(text):
            start, end = match.span("value")
            if not _overlaps(taken, start, end):
                yield "pin", start, end, 72
    if "code" in lowered and any(word in lowered for word in _RECOVERY_WORDS):
        yield from _find_recovery_codes(text, taken)
