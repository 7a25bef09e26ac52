"""Passwords written in prose (R-SAVE-2): "the password is hunter2", "Passwort lautet ...". A
login and its password together ("login admin / hunter2") are secret_pairs.py's, the same
without a label word ("reset the shared mailbox password to X") secret_bare.py's.

Each rule runs in two steps for speed: find the keyword in the lowercased note (a plain
alternation; case-insensitive alternations are several times slower in ``re``), widen it to the
identifier around it ("DB_PASSWORD_PROD"), then match what follows with an anchored pattern.
Filters let talk *about* passwords through ("password resets go through Okta").
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterator

from detect_secrets.plugins.keyword import DENYLIST as KEYWORD_DENYLIST

from memories.refusals.secret_formats import Candidate, Spans
from memories.refusals.secret_stand_ins import (
    _WORDS_WITH_HYPHENS_RE,
    _acceptable_password,
    _trim_value,
)
from memories.refusals.secret_values import (
    _compile,
    up_to_a_note,
)
from memories.refusals.wordlists import words

_IDENTIFIER_SUFFIX_RE = _compile(r"(?:[_\-.][A-Za-z0-9]+)*")
_IDENTIFIER_CHARS = frozenset(string.ascii_letters + string.digits + "_-.")


# Between a name and its "=" / ":" in code: the closing quote of a JSON / YAML key
# ('"password": …'), a C array size ("char password[25] = …"), a type ("password: str = …",
# Go's "var password string = …").
DECLARATOR = (
    r"(?:\\?[\"'](?=\s*[:=,])|\[\s*\d{0,4}\s*\]|\s*:\s*(?:str|string|String|bytes)(?=\s*=)"
    r"|\s+(?:string|String|\[\]byte)(?=\s*=))?"
)
# "secrete = …", "secretKey: …", "passwordSuper = …": a keyword with more letters is a name a
# programmer chose (detect-secrets reads ``secret\w*`` the same way) when an assignment follows,
# unless it is an English word of its own ("secretary: Ana", "secretion rate: …").
_SUFFIXABLE_KEYWORDS = frozenset({"secret", "password", "passwd"})
_KEYWORD_LOOKALIKES = words("secrets_keyword_lookalikes")  # data/secrets_keyword_lookalikes.txt
# After the name: an assignment (after a declarator, see above), or a literal.
_ASSIGNMENT_AHEAD_RE = _compile(DECLARATOR + r"\s*(?:[:=]|\?=|<-|\s[\"'`]|[\"'`]|@\")")


def _misspelt_password(word: str) -> bool:
    """"passworsd", "passwrod", "passowrd": "password" with one letter added, dropped, changed or
    two swapped (Damerau's typing errors; CredSweeper's samples spell it so). Words that
    drop letters are _PASSWORD_WORDS' ("pasword", "psswd")."""
    word = word.lower()
    target = "password"
    if not 7 <= len(word) <= 9 or not word.startswith("pa") or word == target:
        return False
    if len(word) == len(target):
        diffs = [i for i in range(len(word)) if word[i] != target[i]]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and word[diffs[0]] == target[diffs[1]] and word[diffs[1]] == target[diffs[0]])
    longer, shorter = (word, target) if len(word) > len(target) else (target, word)
    if len(longer) - len(shorter) != 1:
        return False
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def _suffixed_keyword_end(text: str, start: int, end: int) -> int | None:
    """Where the name "secrete…" / "secretKey…" ends, or None when it is another word."""
    word_end = end
    while word_end < len(text) and text[word_end].isalnum():
        word_end += 1
    if text[start:end].lower() not in _SUFFIXABLE_KEYWORDS and not _misspelt_password(text[start:word_end]):
        return None
    if text[start:word_end].lower() in _KEYWORD_LOOKALIKES or not text[start:word_end].isascii():
        return None
    name_end = _IDENTIFIER_SUFFIX_RE.match(text, word_end).end()
    if name_end < len(text) and text[name_end].isalnum():
        return None
    return word_end if _ASSIGNMENT_AHEAD_RE.match(text, name_end) else None


def _keyword_identifier(
    text: str, start: int, end: int, *, glue_ok: bool
) -> tuple[int, int] | None:
    """Widen a keyword hit to the identifier it belongs to, or None if it is inside a word.

    "DB_PASSWORD_PROD", "db.password" and "token2" widen to the whole name; "passwords", "bypass",
    "1Password" and "passport" are other words and give None. ``glue_ok``: letters may run
    straight into the keyword ("PGPASSWORD").
    """
    if not text[start].isascii():
        return start, end  # non-Latin scripts have no identifier syntax around the word
    numbered = end
    while numbered < len(text) and text[numbered].isdigit():
        numbered += 1
    if numbered > end and not (numbered < len(text) and text[numbered].isalpha()):
        end = numbered  # a numbered name: "token1", "API_KEY2", "password_2" is a suffix already
    if end < len(text) and text[end].isalnum():
        end = _suffixed_keyword_end(text, start, end)
        if end is None:
            return None
    end = _IDENTIFIER_SUFFIX_RE.match(text, end).end()
    if end < len(text) and text[end].isalnum():
        return None
    left = start
    # A camelCase hump is a word boundary: "bitbucketToken", "settlemintApiKey".
    # After capitals, the hump is the last capital before lower case: "ETSYToken".
    hump = start and text[start].isupper() and (
        text[start - 1].islower()  # not after a digit: "1Password" is a product
        or (text[start - 1].isupper() and text[start + 1: start + 2].islower()))
    if start and text[start - 1].isalnum() and not hump:
        if not glue_ok:
            return None
        while left and text[left - 1].isalpha() and start - left < 12:
            left -= 1
        if left and text[left - 1].isalnum():
            return None
    while left and text[left - 1] in _IDENTIFIER_CHARS:
        left -= 1
    while left < start and text[left] in "_-.":
        left += 1
    return left, end


# --- "password: hunter2", "the password for prod is hunter2", "Passwort lautet ..." ---------

_PASSWORD_WORDS = (
    # Definite forms first: an alternation takes the first that matches ("lösenordet är …").
    r"l(?:ö|o)senordet|passordet|adgangskoden|"
    # A Wi-Fi network's or a VPN's pre-shared key is its password: "psk=…" (wpa_supplicant,
    # hostapd's "wpa_psk="), only where it is assigned ("PSK-RC4-SHA" is a cipher).
    r"password|passwd|pwd|passphrase|passcode|psk(?=[ \t]*[=:])|passwort|kennwort|contrase(?:ñ|n)a|senha|"
    r"mot\s+de\s+passe|wachtwoord|has(?:ł|l)o|parola|l(?:ö|o)senord|adgangskode|salasana|"
    r"heslo|jelsz(?:ó|o)|mdp|"
    # Seventeenth session: Norwegian, Greek, Thai, Persian, Bengali, Tamil, Slovene, Croatian and
    # Serbian, Lithuanian, Estonian, Catalan, Basque, Bulgarian, Malay, Swahili (not Latvian's
    # "parole": an English word, "Parole: granted").
    r"passord|κωδικός(?:\s+πρόσβασης)?|συνθηματικό|รหัสผ่าน|رمز\s+عبور|پسورد|পাসওয়ার্ড|கடவுச்சொல்|geslo|"
    r"lozinka|лозинка|slapta(?:ž|z)odis|salas(?:õ|o)na|contrasenya|pasahitza|парола|kata\s+laluan|"
    r"neno\s+la\s+siri|"
    # Spelt to slip past a word list: "p@ssw0rd", "passw0rd", "p a s s w o r d", "pass word",
    # and short forms ("pword", "pswd", "psw", "p/w", any of "password"'s letters but p, s, w, d
    # dropped: "psswd", "pswrd", "paswrd", "pasword"), "code word"; before "pass" and "pw".
    r"p[a@4][s$5][s$5]w[o0]rd|p[a@4]?[s$5]{1,2}w[o0]?r?d|p ?[a@4] ?[s$5] ?[s$5] ?w ?[o0] ?r ?d|pass\s+word|"
    r"pword|pswd|psw|p/w|code\s?word|pass|pw|"
    # Answers that stand for a password: a security question's, a bank's memorable word.
    r"security\s+(?:question\s+)?answer|secret\s+answer|memorable\s+(?:word|information|info)|"
    r"пароль|パスワード|密码|密碼|口令|كلمة\s+(?:ال)?(?:مرور|سر)|비밀번호|הסיסמה|סיסמה|şifresi|şifre|"
    # Hindi, Vietnamese, Indonesian; a key's emoji as its label ("🔑 hunter2", a strong value only).
    r"पासवर्ड|m(?:ậ|a)t\s+kh(?:ẩ|a)u|kata\s+sandi(?:nya)?|🔑|🔐|🗝️?|"
    # detect-secrets' KeywordDetector password words (db_?pass, key_?pass, ...)
    + "|".join(k for k in KEYWORD_DENYLIST if "pass" in k or "pwd" in k)
)
_PASSWORD_CORE_RE = _compile(_PASSWORD_WORDS)
_GLUABLE_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase"})
_FILE_NAME_KEYWORD_RE = re.compile(
    r"\.(?:\d\.)?(?:c|h|cc|cpp|py|xml|txt|md|rst|sh|in|am|ac|js|json|ya?ml|conf|cfg|ini|log|pl|rb|go|rs|patch|diff|exp|\d)$")
# "mdp" is French: its words are no English list's; an emoji may stand for a key of any kind.
_AMBIGUOUS_PASSWORD_WORDS = frozenset({"pass", "pw", "mdp", "🔑", "🔐", "🗝", "🗝️"})
_GREEK_OR_CYRILLIC_RE = re.compile("[\u0370-\u03ff\u0400-\u04ff]")
# After the verb "pass", what code or a build passes: a variable ("$(LDFLAGS)", "${x}", "$CC"),
# a Texinfo or autoconf macro ("@samp{…}", "@stage2_werror_flag@"), a setting ("CFLAGS=…"), a
# word cut by a hyphen or a bracket ("color- and pair-values").
_CODE_OBJECT_RE = re.compile(r"\$[({]|\$[A-Za-z_]\w*$|@\w+[@{]|[A-Z][A-Z0-9_]*=|[a-z]+[^\w\s]+$")
# "multi-pass", "two-pass": how many passes, not a password.
_PASSES_COUNTED_RE = re.compile(
    r"(?i)(?:multi|single|one|two|three|four|dual|double|first|second|third|final|last|\d)-pass")
# After "pass X": where X is passed ("to the pool", "into the job", "as an argument").
_VERB_OBJECT_AFTER_RE = re.compile(r"[`'\"]?,?\s+(?:to|into|through|along|as|for|from|on to|onto|and/or)\s", re.IGNORECASE)

# Printable ASCII (no quotes or backtick) plus Latin letters with accents ("Frühling2024!"),
# Greek and Cyrillic ("Лето2024!"); not CJK, so "パスワードはabc123です" stops before "です".
_VALUE = r"[\x21\x23-\x26\x28-\x5f\x61-\x7e\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]" + up_to_a_note(1) + r""
# A double-quoted value may have its quotes escaped, as in code that builds code
# ($password = \"goodspec\";) or JSON inside a JSON string.
_QUOTED_VALUE = (
    r"(?P<esc>\\)?\"(?P<dq>(?(esc)[^\"\\\n]|[^\"\n])" + up_to_a_note(1) + r")(?(esc)\\)\""
    r"|'(?P<sq>[^'\n]" + up_to_a_note(1) + r")'|`(?P<bq>[^`\n]" + up_to_a_note(1) + r")`"
    r"|“(?P<cq>[^”\n]" + up_to_a_note(1) + r")”"
)
_PASSWORD_TAIL_RE = _compile(
    DECLARATOR +
    # "the password for the staging box is ..." / "Passwort für den Router: ..."
    r"(?P<about>\s+(?:for|of|on|to|at|in|für|fur|pour|para|de|del|du|do|da|dos|das|von|van|"
    r"voor|di|della|dla|для|от|на|від|до|của|untuk|של)(?:\s+[\w.@'\"\-]{1,80}){1,4}?"
    # "the password we gave them is ...": a relative clause, then "is" / "was"
    r"|\s+(?:that|which|we|i|you|they|he|she|someone|it)(?:\s+[\w'\-]{1,30}){1,5}?(?=\s+(?:is|was)\s)"
    # "mot de passe wifi est ...", "contraseña wifi: ...": the qualifier follows the word
    r"|(?:(?<=passe)|(?<=aña)|(?<=ana)|(?<=nha)|(?<=wort))\s+[\w\-]{2,20})?"
    # YAML's block scalars put the value on the next, indented line: "password: >\n  …".
    r"(?P<sep>\s*:[ \t]*[>|][-+]?[ \t]*\r?\n[ \t]+|\s*(?:===|!==|==|!=|:=|\?=|=>|->|<-|[:=：→⇒➜⟶])\s*"
    r"|\s+(?:(?:has\s+been|have\s+been|got|gets|was|is|were)\s+(?:changed|set|reset|updated|rotated)\s+to|"
    r"is\s+now|is\s+still|set\s+to|"
    r"changed\s+to|became|is|was|ist|lautet|est|es|é|è|são|som|er|jest|är|je|on|là|adalah|היא|הוא|है|—|-"
    r"|(?:(?<=hasło\s)|(?<=haslo\s))to)(?:\s*[:：]\s*|\s+)"
    r"|\s*(?:は|是|为|為|это|—|–|هي|هو|는|은)\s*"
    # Asked and answered: "wifi password?\nTom: …", "Q: admin password? A: …", "the password? it's …"
    r"|\?[ \t]*(?:\r?\n[ \t]*(?:[\w .'\-]{1,30}:[ \t]*)?|(?:A:|it'?s|it\s+is)[ \t]*)"
    # "she told me her password, it's …"
    r"|,[ \t]*(?:it['’]?s|it\s+is)[ \t]+"
    # "use password hunter2": a bare space only right after the keyword, never after "for ..."
    r"|(?(about)(?!)|\s+))"
    r"(?:@?(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r"))",  # @"…": an Objective-C literal
    re.IGNORECASE,
)
# Suffixes and prefixes that make "password_*" a column, setting or rule, not the password.
_NOT_A_PASSWORD_SUFFIX_RE = _compile(
    r"(?i)[_\-.](?:hash|hashed|digest|salt|policy|policies|reset|resets|length|len|min|max|"
    r"field|column|col|expiry|expires|expiration|age|rules?|strength|changed|updated|required|"
    r"confirmation|confirm|regex|pattern|hint|manager|file|path|env|var|ref|id|auth|login|"
    r"enabled|disabled|less|protected|grant|flow|type|mode|store|vault|history|attempts|"
    r"complexity|prompt|label|placeholder|input|widget|validator|validation|encoder|hasher|"
    r"normalize|normalise|check|checker|verify|verifier)"
    r"(?:[_\-.]|$)"
)
_NOT_A_PASSWORD_PREFIX_RE = _compile(
    r"(?i)(?:^|[_\-.])(?:reset|change|forgot|forgotten|new_user|require|requires|min|max|"
    r"hashed|hash|check|verify|validate|old|confirm|show|hide|toggle|one[_\-]?time|"
    r"no|has|is|use|allow|enforce|disable|enable)[_\-.]"
)
def separator(match: re.Match) -> str:
    """The assignment operator a match's ``sep`` group holds, spaces and YAML's block scalar
    indicator left out (": >\n  " is ":")."""
    sep = match.group("sep").strip()
    return ":" if sep[:1] == ":" and sep[-1:] in (">", "|", "-", "+") else sep


_ASSIGNMENT_SEPARATORS = frozenset(
    {":", "=", ":=", "?=", "<-", "=>", "->", "：", "—", "–", "==", "!=", "===", "!==", "→", "⇒", "➜",
     "⟶"}
)


def _tail_value(match: re.Match) -> tuple[str, int, int, bool]:
    for name in ("dq", "sq", "bq", "cq"):
        if match.group(name) is not None:
            return match.group(name), match.start(name), match.end(name), True
    value = _trim_value(match.group("val"))
    start = match.start("val")
    return value, start, start + len(value), False


# A PowerShell cmdlet (Verb-Noun) called with arguments: the value is the command's result.
_CMDLET_CALL_RE = _compile(r"[A-Z][a-z]+(?:To|From)?-[A-Z][A-Za-z]+")
_ARGUMENTS_AFTER_RE = _compile(r"[ \t]+(?:-[A-Za-z]|\$|\|)")


# A credential's name as the last part of a file's path ("/etc/passwd", "~/.pgpass").
_PATH_BEFORE_RE = _compile(r"(?:^|(?<=[\s<'\"(=]))[~.]?(?:/[\w.\-]+)*/\.?$")
_HEADER_NAME_RE = _compile(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)+")


def _find_prose_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    position = 0
    while True:
        core = _PASSWORD_CORE_RE.search(lowered, position)
        if core is None:
            return
        position = core.start() + 1  # on a miss, a shorter word may still start further on
        span = _keyword_identifier(
            text, core.start(), core.end(), glue_ok=core.group() in _GLUABLE_PASSWORD_WORDS
        )
        if span is None:
            continue
        keyword = text[span[0]: span[1]]
        if _FILE_NAME_KEYWORD_RE.search(keyword):
            continue  # "src/passwd.c: Avoid …", "man/gpasswd.1.xml: Ease …": a file's name in a changelog
        # A suffix after the password word says what the name is about ("password_login");
        # before it, a word says whose password it is ("administrator_login_password").
        if (_NOT_A_PASSWORD_SUFFIX_RE.search(text, core.end(), span[1])
                or _NOT_A_PASSWORD_PREFIX_RE.search(keyword)):
            continue
        variable = bool(span[0]) and text[span[0] - 1] in "${%"
        if variable and (text[span[0] - 1] != "$" or text[span[0] - 2: span[0]] == "{$"):
            continue  # "${DB_PASSWORD:-x}", "%DB_PASSWORD%": a reference to a variable
        match = _PASSWORD_TAIL_RE.match(text, span[1])
        if match is None:
            continue
        value, start, end, quoted = _tail_value(match)
        assignment = separator(match) in _ASSIGNMENT_SEPARATORS
        if variable and not assignment:
            continue  # "$DB_PASSWORD" used, not set ("$password = '…'" sets it)
        if _PATH_BEFORE_RE.search(text, max(0, span[0] - 80), span[0]):
            continue  # "awk -F: </etc/passwd '…'", "cat ~/.pgpass": the file, read or written
        if not quoted and value and value[0] in "<[" and text[end:end + 1] == {"<": ">", "[": "]"}[value[0]]:
            continue  # "NEED_PASSPHRASE_SYM <cipher_algo> …", "pwd [OPTION]…": a placeholder cut at its end
        if text[max(0, span[0] - 7):span[0]] == "struct " and not assignment:
            continue  # "struct passwd *restrict pwbuf": C's type
        if not separator(match) and not quoted and text[end:end + 2] == ": " and _HEADER_NAME_RE.fullmatch(value):
            continue  # "base-passwd Multi-Arch: foreign": the next field's name
        # A bare "pass" / "pw" is often not about passwords ("tests pass: 42"); "db_pass" is.
        ambiguous = keyword.lower() in _AMBIGUOUS_PASSWORD_WORDS or bool(_PASSES_COUNTED_RE.fullmatch(keyword))
        strength = "weak" if assignment and not ambiguous else "strong"
        if not quoted and _CMDLET_CALL_RE.fullmatch(value) and _ARGUMENTS_AFTER_RE.match(text, end):
            continue  # "$password = Read-Host -AsSecureString": a PowerShell command's result
        if ambiguous and not separator(match) and (value[:1] in "?&<[*_(-" or _CODE_OBJECT_RE.match(value)
                                                    or (quoted and " " in value)):
            continue  # "pass ?token=…", "pass *attrs* instances", "does not pass [ci]", "pass --flag",
            # "Pass $(LDFLAGS) to …", "pass @samp{BZ_RUN}", "Pass CFLAGS=… on", "Pass "server behavior"":
            # the verb, then a query string, a template, emphasis, a link, a build variable or a phrase
        if ambiguous and not separator(match) and (match.group("bq") is not None or _VERB_OBJECT_AFTER_RE.match(text, end)
                                                    or (_WORDS_WITH_HYPHENS_RE.match(value) and value.islower())):  # "pass provider-specific …"
            continue  # "Pass `retries` to the pool", "pass the_flag to the job": the verb and its object
        if _GREEK_OR_CYRILLIC_RE.search(value) and value.isalpha():
            continue  # "пароль: сменить завтра": a word of a language the word lists do not hold
        if _acceptable_password(value, strength=strength, quoted=quoted):
            position = max(position, end)
            yield "password_in_prose", start, end, 70

