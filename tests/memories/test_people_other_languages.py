"""Issue 18, people (SPEC R-SAVE-3b), seventeenth session: notes written in other languages.

The name lists hold the names of many countries, and a name of one is often a common word of
another ("Bir" a surname and Turkish for "one", "Musi" a surname and Polish for "must"), so notes
in those languages were held for names they do not hold. Scanned as notes, Django's and the man
pages' translations on this machine (text nobody here wrote): Turkish 201 of 1,139 held at
e99780c, 108 now; Polish 117 of 2,058 → 96; Russian 39 of 1,965 → 33; Ukrainian 35 of 2,905 → 33
(most of the rest name their translators and authors). A note's language is told by its
commonest lower-case words (people_languages.py, data/people_function_words_other_languages.txt);
there, a capitalised word that is one of the language's common words and no name is a word, and
lower-case words are not read as names. Each passing line here was held at e99780c; the names
beside them are held on both.

A Russian given name alone, or in one of its cases, was held by no rule ("Иван сказал …",
"спроси Наташу"): only a given name and a surname side by side were. A capitalised Cyrillic word
is now read through its transliteration, and without its case's ending where that gives one of
Faker's Cyrillic names (people_cyrillic.py); Russian words that read as another country's name
("Строка" as "Stroka", "Сервер" as "Server") are not. Of ``_CYRILLIC_NAMES``, the given name,
the genitive and the Ukrainian line passed at e99780c (the other two were held there only as two
unknown capitalised words in a row, the verb and the name); the translations above held 39 / 35
notes then and 34 / 33 with this rule.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions

_WORDS_NOT_NAMES = {
    "turkish-more": "Daha fazla bilgi için belgelere bakın.",
    "turkish-lower-case": "Geçerli bir tarih girin.",
    "polish-must": "Musi być liczbą całkowitą.",
    "polish-there": "Tam jest plik konfiguracyjny.",
    "russian-if": "Если Vim был собран с поддержкой арабского языка",
    "russian-version": "Версия Vim с графическим интерфейсом не будет",
    "french-monday": "Le client préfère recevoir le rapport hebdomadaire le lundi matin.",
}

_NAMES = {
    "turkish-given-name": ("Ayşe raporu hazırladı ve bu sabah gönderdi.", "Ayşe"),
    "turkish-full-name": ("Mehmet Yılmaz için yeni bir hesap açın.", "Mehmet Yılmaz"),
    "polish-full-name": ("Przemek Borys przetłumaczył tę stronę dla projektu.", "Przemek Borys"),
    "polish-given-name": ("Agnieszka przygotowała raport dla zespołu.", "Agnieszka"),
    "russian-full-name": ("Герасименко Олеся перевела эту страницу.", "Герасименко Олеся"),
    "english-name-in-turkish": ("John Smith ile bu raporu konuştuk.", "John Smith"),
    "names-that-are-function-words": ("2017-11-16  Dan Yang  <dan.yang@example.com>", "Dan Yang"),
    "an-address-in-spain": ("2015-05-12  Ander Juaristi  <ajuaristi@gmx.es>", "Ander Juaristi"),
}


_CYRILLIC_NAMES = {
    "given-name": ("Иван сказал, что отчёт готов.", "Иван"),
    "accusative": ("Спроси Наташу про отчёт.", "Наташу"),
    "genitive": ("Отчёт для Ивана готов.", "Ивана"),
    "dative-surname": ("Напиши Петрову про отчёт.", "Петрову"),
    "ukrainian": ("Олена підготувала звіт.", "Олена"),
    # Short forms Faker's full names leave out (data/people_russian_short_names.txt).
    "short-form": ("Коля сказал, что отчёт готов.", "Коля"),
    "short-form-accusative": ("спроси Сашу про отчёт", "Сашу"),
    "short-form-dative": ("Насте нужен отчёт.", "Насте"),
    # Greek, read through Faker's Greek names.
    "greek-given-name": ("Γιώργος είπε ότι η αναφορά είναι έτοιμη.", "Γιώργος"),
    "greek-after-article": ("Η Μαρία έστειλε την αναφορά.", "Μαρία"),
}

# A name in a case outside Cyrillic: Turkish writes a proper noun's suffix after an apostrophe,
# Polish declines a name in "-a" to "-ę" and "-ą"; each passed at e99780c but the instrumental
# (its key, without the ogonek, was the name's already).
_DECLINED_NAMES = {
    "turkish-dative": ("Ayşe'ye raporu sor.", "Ayşe'ye"),
    "turkish-genitive": ("Mehmet'in raporu hazır.", "Mehmet'in"),
    "turkish-ablative": ("Ali'den haber var mı?", "Ali'den"),
    "polish-accusative": ("zapytaj Agnieszkę o raport", "Agnieszkę"),
    "polish-instrumental": ("porozmawiaj z Agnieszką o raporcie", "Agnieszką"),
}

_DECLINED_WORDS = {
    "turkish-tool": "Python'da yazıldı.",
    "turkish-place": "Ankara'da toplantı var.",
    "turkish-acronym": "SQL'in sonucu yanlış.",
    "english-contraction": "Ana'll fix it tomorrow.",
}

# A surname alone with an honorific, in the scripts that write names without spaces; each passed
# at e99780c (a surname was read only with a given name).
_SURNAMES_WITH_HONORIFICS = {
    "japanese-san": ("田中さんに聞いてください", "田中"),
    "japanese-after-a-word": ("昨日佐藤さんがレポートを作りました", "佐藤"),
    "chinese-xiansheng": ("王先生说报表已经好了", "王"),
    "chinese-nushi": ("请联系张女士", "张"),
    "korean-ssi": ("김 씨에게 보고서를 보내세요", "김"),
}

# A given name alone in a script without case, with a word that says it is a person's; each
# passed at e99780c (a given name was read only beside a surname).
_NATIVE_NAMES_WITH_CUES = {
    "arabic-said": ("محمد قال إن التقرير جاهز", "محمد"),
    "arabic-title": ("أرسل التقرير إلى السيد أحمد", "أحمد"),
    "hindi-ergative": ("राहुल ने कहा कि रिपोर्ट तैयार है", "राहुल"),
    "hindi-honorific": ("राहुल जी को रिपोर्ट भेजो", "राहुल"),
}

_NATIVE_LOOK_ALIKES = {
    "arabic-please-send": "رجاءً أرسل ملف",  # "Rajaa" is a name and "please"; "أرسل" also "send!"
    "arabic-light": "نور الشمس قوي",
}

_HONORIFIC_LOOK_ALIKES = {
    "chinese-teacher-of-a-subject": "这是中文老师的课表",
    "japanese-teacher": "先生が来ました",
    "japanese-city": "田中市の人口",
}

_CYRILLIC_WORDS = {
    "line": "Строка 5 содержит ошибку.",
    "server": "Сервер перезагружается в полночь.",
    "data": "Данные из CRM приходят с опозданием.",
    "label": "Дата",
    "fields": "Поля таблицы пустые.",  # "Поля" is a short name and "fields"
    "of-light": "Света нет в серверной.",
    "you": "Вы получили отчёт?",
    "greek-month": "Ο Αύγουστος έχει 31 ημέρες.",  # August, and a name
    "greek-day": "Η αναφορά στέλνεται κάθε Παρασκευή.",  # Friday, and a name
    "greek-table": "Ο πίνακας παραγγελιών ενημερώνεται κάθε βράδυ.",
}


@pytest.mark.parametrize(("text", "name"), list(_CYRILLIC_NAMES.values()), ids=list(_CYRILLIC_NAMES))
def test_a_cyrillic_or_greek_name_alone_or_in_its_case_is_held(text, name):
    # The mention may take the capitalised verb before it with it ("Спроси Наташу"): the note is held.
    assert any(name in m.text for m in find_person_mentions(text))


@pytest.mark.parametrize("text", list(_CYRILLIC_WORDS.values()), ids=list(_CYRILLIC_WORDS))
def test_cyrillic_words_that_read_as_names_elsewhere_pass(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize(("text", "name"), list(_DECLINED_NAMES.values()), ids=list(_DECLINED_NAMES))
def test_a_name_in_its_case_is_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]


@pytest.mark.parametrize("text", list(_DECLINED_WORDS.values()), ids=list(_DECLINED_WORDS))
def test_a_tool_a_place_or_a_contraction_in_a_case_passes(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize(("text", "name"), list(_SURNAMES_WITH_HONORIFICS.values()),
                         ids=list(_SURNAMES_WITH_HONORIFICS))
def test_a_surname_with_an_honorific_is_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]


@pytest.mark.parametrize("text", list(_HONORIFIC_LOOK_ALIKES.values()), ids=list(_HONORIFIC_LOOK_ALIKES))
def test_an_honorific_without_a_surname_passes(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize(("text", "name"), list(_NATIVE_NAMES_WITH_CUES.values()), ids=list(_NATIVE_NAMES_WITH_CUES))
def test_a_given_name_said_to_be_a_persons_is_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]


@pytest.mark.parametrize("text", list(_NATIVE_LOOK_ALIKES.values()), ids=list(_NATIVE_LOOK_ALIKES))
def test_a_given_name_that_is_a_word_passes_without_a_cue(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize("text", list(_WORDS_NOT_NAMES.values()), ids=list(_WORDS_NOT_NAMES))
def test_a_languages_common_words_are_no_names(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize(("text", "name"), list(_NAMES.values()), ids=list(_NAMES))
def test_names_in_those_languages_are_still_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]
