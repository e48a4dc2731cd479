"""Template helpers of scorekeeper/web/display.py that need no app."""

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.group.names import NAME
from scorekeeper.web.display import breakable

NAMES = st.text(st.characters(blacklist_characters="<>/\\", blacklist_categories=("Cc", "Cs")),
                min_size=1, max_size=40).filter(NAME.fullmatch)


@given(NAMES)
def test_a_long_word_of_a_name_may_break_and_the_name_reads_the_same(name):
    shown = str(breakable(name))
    assert html.unescape(shown.replace("<wbr>", "")) == name  # nothing of its text changed
    for word in re.split(r"[\s-]", html.unescape(shown)):
        assert all(len(piece) <= 14 for piece in word.split("<wbr>"))


def test_only_a_word_of_15_letters_or_more_gets_places_to_break():
    assert breakable("Dieter Schwarzwälder") == "Dieter Schwarzwälder"
    assert breakable("Hansjürgenmaximilian Kienzle") == "Hansjürgen<wbr>maximilian Kienzle"
    assert breakable("O'Brien & Söhne") == "O&#39;Brien &amp; Söhne"
