"""Issue 18, person detector, from the tuning half of a third outside source, WNUT 2017 (tweets,
Reddit and YouTube comments, Stack Overflow answers; tests/data/outside/people/build_wnut.py):
casual text names people by handle and by pronoun more than by title or role.

* a handle written in CamelCase reads as its words ("@JacobRhines"), and a handle that opens a
  line and speaks to someone is a person's ("@skooba you're glossing over …"), unless it is a
  word, a team, a bot, a service or an annotation before code;
* (withdrawn after measuring: a name referred to by "he", "she", "his", "her" or "him" a few
  words on in the same clause, "Lelouch in his answer"; it raised the false holds of both held
  halves. Its benign cases stay here.)
* false holds: "I'm", "I'd" and other contractions are no names; "January is 25% off" is no
  "Grant is off" (a number between).

The names are made up here or taken from no source. Every positive case fails against the
detector of commit 7541ebb, and so do the contractions and the discount (held there); the other
benign cases pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held(text: str) -> bool:
    return bool(find_person_mentions(text))


@pytest.mark.parametrize("text", [
    "@ZelwickQuarnby that works for me",
    "@JacobRhines that or the other export",
    "@skooba you're glossing over the complexities",
    "@Thelwick: do you want the rest of the rows?",
    "@marrowgate added a sketch of the pipeline",
], ids=["camel-two-names", "camel-first-name", "addressed", "addressed-colon", "addressed-verb"])
def test_a_persons_handle_is_held(text):
    assert held(text)


@pytest.mark.parametrize("text", [
    "@dependabot rebase",
    "@here deploy done",
    "@data-team please check the load",
    "@mlops: retrain is done",
    "@qa-bot rerun the suite",
    "@dataclass\nclass Row:",
    "@Transactional public void save()",
    "@Inject private Foo foo;",
    "@app.route('/')\ndef index():",
], ids=["bot", "here", "team", "ops-team", "bot-suffix", "decorator", "annotation", "annotation-private",
        "route"])
def test_bots_teams_and_annotations_are_not_held(text):
    assert not held(text)


@pytest.mark.parametrize("text", [
    "January was when she joined",
    "Berlin is where she lives",
    "A Centrelink recipient kills himself in the film",
    "Snowflake gave him access yesterday",
    "Support gave her a refund",
    "Ha I'm lucky, the job finished before the outage.",
    "Maybe if I'd told you the right words at the right time",
    "January is 25% off and almost over",
], ids=["month", "place", "reflexive", "tool", "team", "im", "id", "number-between"])
def test_months_places_tools_contractions_and_discounts_are_not_held(text):
    assert not held(text)


@pytest.mark.parametrize("text", [
    "Check out the video Zelwick and I posted!!",
    "Quarnby & I work at 2 but Thursday is our last day",
    "me and Thelwick went to the meetup",
    "Thank you Marrowgate for what you did",
    "Happy birthday Quarnby, have a great one",
], ids=["and-i", "ampersand-i", "me-and", "thank-you", "happy-birthday"])
def test_a_name_beside_i_or_me_or_thanked_is_held(text):
    assert held(text)


@pytest.mark.parametrize("text", [
    "Python and I are not friends today",
    "Finance and I agreed on the budget",
    "Thank you Jenkins for the green build",
    "Excel and I'm done with pivots",
], ids=["tool-and-i", "team-and-i", "thank-you-tool", "contraction-after"])
def test_tools_and_teams_beside_i_are_not_held(text):
    assert not held(text)


@pytest.mark.parametrize("text", [
    "totoong may feelings siya sayo, hindi na siya magtatanong kung may chance pa.",
    "comme celle a ma soeur ou celle comme mon beau frere",
    "Las contraseñas caducan cada 90 días según la política.",
], ids=["tagalog", "french", "spanish"])
def test_lower_case_words_of_another_language_are_no_names(text):
    # Their common words are names in some list ("siya sayo", "beau frere"): lower-case names
    # are read only in English text.
    assert not held(text)


@pytest.mark.parametrize("text", [
    "joke's on you, i love chidi okonkwo",
    "ask wang zihan about the march numbers",
], ids=["casual", "cue"])
def test_lower_case_names_in_english_text_are_still_held(text):
    assert held(text)
