"""A hand's answer is only what the hand changed where the table's entry forms stay as they were
(views.games, templates/games/_change.html): for every game, the page a phone shows after
putting a change in place as static/js/live.js does is the page drawn anew for the new version."""

import re
from html.parser import HTMLParser

import generators
import pytest
from support import entry_fields, rule_fields, start_game

from scorekeeper import engine, games
from scorekeeper.views import games as views

HANDS = 12
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Span(HTMLParser):
    """Where the first element with `attribute` (="value", if given) starts and ends in `html`."""

    def __init__(self, html: str, attribute: str, value: str | None) -> None:
        super().__init__(convert_charrefs=False)
        self.html, self.attribute, self.value = html, attribute, value
        self.starts = [0]
        for line in html.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.depth, self.start, self.end = 0, None, None
        self.feed(html)

    def _at(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if self.end is not None or tag in VOID:
            return
        if self.start is not None:
            self.depth += 1
        elif (self.attribute, self.value) in attrs or \
                (self.value is None and self.attribute in dict(attrs)):
            self.start, self.depth = self._at(), 1

    def handle_endtag(self, tag):
        if self.start is None or self.end is not None or tag in VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            self.end = self.html.index(">", self._at()) + 1


def span(html: str, attribute: str, value: str | None = None) -> tuple[int, int] | None:
    found = _Span(html, attribute, value)
    return (found.start, found.end) if found.end is not None else None


def part(html: str, attribute: str, value: str | None = None) -> str:
    at = span(html, attribute, value)
    assert at is not None, f"no [{attribute}={value}] in {html[:300]}"
    return html[at[0]:at[1]]


def put(html: str, attribute: str, value: str | None, new: str) -> str:
    start, end = span(html, attribute, value)
    return html[:start] + new + html[end:]


def put_change(shown: str, change: str) -> str | None:
    """The table's content after `change` as the page's script puts it in place of `shown` (the
    content a phone shows, its forms as they came): None where it would ask for the page."""
    version = re.search(r'data-version="(\d+)"', shown).group(1)
    forms = part(shown, "data-entry-forms")
    if version != re.search(r'data-from="(\d+)"', change).group(1) or \
            re.search(r'data-drawn="(\w+)"', forms).group(1) != \
            re.search(r'data-forms="(\w+)"', change).group(1):
        return None
    # the list's rows left empty: the page's own, from the same part
    for name in ("state", "more"):
        new, old = part(change, "data-change", name), part(shown, "data-change", name)
        for number in re.findall(r'<tr data-row="(\d+)"></tr>', new):
            if span(old, "data-row", number) is None:
                return None
            new = new.replace(f'<tr data-row="{number}"></tr>', part(old, "data-row", number))
        change = put(change, "data-change", name, new)
    seq = re.search(r'data-seq="(\d+)"', change).group(1)
    forms = re.sub(r'(<input[^>]*name="seq"[^>]*value=")\d+', rf"\g<1>{seq}", forms)
    forms = put(forms, "data-change", "head", part(change, "data-change", "head"))
    shown = put(shown, "data-entry-forms", None, forms)
    for name in ("state", "more", "end", "actions"):
        shown = put(shown, "data-change", name, part(change, "data-change", name))
    return shown


def same(html: str) -> str:
    """What two drawings of one content may differ in: each form's key and CSRF token (an
    answer has none: each phone puts in its own), the hand just saved."""
    html = re.sub(r'(<input[^>]*name="(?:key|csrf_token)"[^>]*value=")[^"]*', r"\1", html)
    return re.sub(r'<small class="saved" role="status">[^<]*</small>', "", html)


@pytest.mark.parametrize("name", sorted(games.GAMES))
def test_a_change_put_in_place_is_the_page_drawn_anew(app, client, monkeypatch, name):
    """The page anew as the phone would be sent to it without its script: with what the hand's
    form keeps for the next one (Hartenjagen's way of entering a hand) in its address."""
    kept = {}

    def add_hand(*args):
        answer = add_hand.real(*args)
        kept.clear()
        kept.update(getattr(answer, "kept", {}))
        return answer

    add_hand.real = views.tables.add_hand
    monkeypatch.setattr(views.tables, "add_hand", add_hand)
    adapter = games.get(name)
    changes = kept_rows = 0
    for seed in (1, 2):
        record = generators.random_record(name, HANDS, seed)
        rules = rule_fields(adapter.engine, record.get("rules") or {})
        path = start_game(client, name, record["players"], record["first_dealer"], rules,
                          slug=f"tanne{seed}")
        shown = part(client.get(path).get_data(as_text=True), "data-table-part")
        table = engine.replay({**record, "hands": []})
        for seq, entry in enumerate(record["hands"], start=1):
            fields = entry_fields(app, adapter, entry, table.summary())
            answer = client.post(path + "/entries", data={"seq": seq, **fields},
                                 headers={"X-Part": "content"}).get_data(as_text=True)
            table = engine.replay({**record, "hands": record["hands"][:seq]})
            anew = part(client.get(path, query_string=kept).get_data(as_text=True),
                        "data-table-part")
            if "data-table-change" in answer:
                assert len(answer) < len(anew)
                put_in = put_change(shown, answer)
                # None: the page shows other forms (the hand before kept another way of
                # entering it): the phone asks for the page
                assert put_in is None or same(put_in) == same(anew), f"hand {seq}"
                changes += put_in is not None
                kept_rows += len(re.findall(r'<tr data-row="\d+"></tr>', answer))
            else:
                assert same(part(answer, "data-table-part")) == same(anew), f"hand {seq}"
            shown = anew
    # games whose forms stay the same from hand to hand answer most hands with a change
    if name in ("cego", "free-list", "hartenjagen"):
        assert changes >= HANDS
    # lists whose rows never change with a later hand leave them to the phone
    assert (kept_rows > HANDS) == (name in ("cego", "free-list", "hartenjagen")), kept_rows
