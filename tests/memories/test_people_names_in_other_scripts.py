"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: names written in scripts without capital
letters were never held (rule 2 reads capitalised words): Faker's names of the ja, zh, ko, th,
ar, he, fa and hi locales in an English note were held 0 of 240 (seed 4242). A given name and a
surname side by side from Faker's lists of that script, or a Han/Hangul surname and given name
written together, alone in their word or between a word that addresses someone and an honorific
(memories/refusals/people_scripts.py): 193 of 240 after (ja 23, zh 13, ko 30, th 30, ar 20, he 26,
fa 30, hi 21 of 30 each); 217 once a given name of one Han letter counts with a word on neither
side or a cue on both ("梁鑫", "请联系李伟经理"; ja 30, zh 30). Found by probing; no outside case read;
tuning and held sets unchanged; Faker's Chinese and Japanese sentences: 0 of 200 held each.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text, name", [
    ("The renewal notes are with 홍정훈 now.", "홍정훈"),
    ("김민준님께 보고서를 보내 주세요.", "김민준"),
    ("请把报告发给王秀英女士。", "王秀英"),
    ("木村 陽一さんに連絡してください。", "木村 陽一"),
    ("请联系李伟经理。", "李伟"),
    ("The renewal notes are with 梁鑫 now.", "梁鑫"),
])
def test_a_han_or_hangul_name_is_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]


@pytest.mark.parametrize("text", [
    "王国的历史很长。",
    "数据仓库每天晚上更新。",
    "本月销售额增长了百分之五。",
    "이 보고서는 매주 월요일에 갱신됩니다.",
    "김치찌개가 맛있어요.",
    "東京のオフィスは来月開業します。",
    "李明天来",
    "王强调了这个问题",
    "黄金价格上涨",
])
def test_ordinary_han_and_hangul_text_is_not_held(text):
    assert find_person_mentions(text) == []


def test_names_of_scripts_without_case_are_held():
    from faker import Faker

    held = 0
    for locale in ("th_TH", "he_IL", "fa_IR", "hi_IN", "ar_AA"):
        fake = Faker(locale)
        fake.seed_instance(4242)
        held += sum(bool(find_person_mentions(f"The renewal notes are with {fake.name()} now.")) for _ in range(30))
    assert held >= 120  # 127 of 150 when written (th 30, he 26, fa 30, hi 21, ar 20); 0 before
