"""Skill ratings (OpenSkill, Plackett-Luce) from the stored results, and head to head on a
player's page: both read a game's result as a ranking through its adapter."""

import datetime as dt

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.models import Evening, Game, Group, Player, Result
from scorekeeper.season import headtohead, ratings


def group_():
    group = db.session.scalar(select(Group).where(Group.slug == "tanne"))
    if group is None:
        group = Group(slug="tanne", name="Tanne")
        db.session.add(group)
        db.session.flush()
    return group


def played(day, kind, results):
    """An ended game on `day` with these results: player -> (figures, money in cents), stored
    as the standings store them (the ratings read nothing else)."""
    group = group_()
    evening = db.session.scalar(select(Evening).where(Evening.group_id == group.id,
                                                      Evening.date == day))
    if evening is None:
        evening = Evening(group_id=group.id, date=day, place="")
        db.session.add(evening)
        db.session.flush()
    for name in results:
        if db.session.scalar(select(Player).where(Player.name == name)) is None:
            db.session.add(Player(group_id=group.id, name=name))
    game = Game(group_id=group.id, evening_id=evening.id, kind=kind, rules={},
                seating=list(results), first_dealer=next(iter(results)), status="closed",
                state={"players": []})
    db.session.add(game)
    db.session.flush()
    for name, (figures, cents) in results.items():
        db.session.add(Result(game_id=game.id, group_id=group.id, evening_id=evening.id,
                              season=day.year, kind=kind, player=name, figures=figures,
                              money_cents=cents))
    db.session.flush()
    return game


def hearts(**points):
    """A Hartenjagen game: fewer points finish ahead; at a cent a point each pays the winner
    (the one with the fewest) the difference."""
    best = min(points.values())
    money = {name: best - p for name, p in points.items()}
    winner = min(points, key=points.get)
    money[winner] = -sum(cents for name, cents in money.items() if name != winner)
    return {name: ({"points": p, "wins": int(name == winner)}, money[name])
            for name, p in points.items()}


def lines(**counts):
    """A Hintersche rubber: fewer lines finish ahead; each line costs 1 euro to each
    opponent."""
    total = sum(counts.values())
    return {name: ({"lines": n}, 100 * (total - len(counts) * n)) for name, n in counts.items()}


def money(**cents):  # Vier-Anderle: by balance
    return {name: ({}, c) for name, c in cents.items()}


DAY = dt.date(2026, 3, 5)


def test_each_game_reads_its_result_as_a_ranking():
    assert ratings.ranks({n: games.get("hartenjagen").ranking_key(f, c)
                          for n, (f, c) in hearts(A=20, B=5, C=61, D=34).items()}) == \
        {"B": 1, "A": 2, "D": 3, "C": 4}
    assert ratings.ranks({n: games.get("hintersche").ranking_key(f, c)
                          for n, (f, c) in lines(A=2, B=0, C=1, D=1).items()}) == \
        {"B": 1, "C": 2, "D": 2, "A": 4}
    assert ratings.ranks({n: games.get("vier-anderle").ranking_key(f, c)
                          for n, (f, c) in money(A=-50, B=120, C=-70).items()}) == \
        {"B": 1, "A": 2, "C": 3}
    # a Hintersche rubber without a tariff: the lines alone decide
    assert games.get("hintersche").ranking_key({"lines": 1}, 0) > \
        games.get("hintersche").ranking_key({"lines": 2}, 0)


def test_the_ratings_are_what_openskill_gives_for_the_same_games(app):
    with app.test_request_context():
        played(DAY, "hartenjagen", hearts(A=20, B=5, C=61, D=34))
        played(DAY, "hartenjagen", hearts(A=3, B=40, C=12, D=100))
        played(DAY + dt.timedelta(days=7), "hartenjagen", hearts(A=50, C=7, E=30))
        played(DAY, "vier-anderle", money(A=-50, B=120, C=-70))
        db.session.commit()
        rated = ratings.rate(group_().id)
    model = PlackettLuce()
    r = {n: model.rating() for n in "ABCDE"}

    def rate(order):
        names = list(order)
        new = model.rate([[r[n]] for n in names], ranks=[order[n] for n in names])
        for name, (team,) in zip(names, new, strict=True):
            r[name] = team

    rate({"A": 2, "B": 1, "C": 4, "D": 3})
    rate({"A": 1, "B": 3, "C": 2, "D": 4})
    rate({"A": 3, "C": 1, "E": 2})
    for name in "ABCDE":
        assert rated["hartenjagen"][name].mu == pytest.approx(r[name].mu, abs=1e-9)
        assert rated["hartenjagen"][name].sigma == pytest.approx(r[name].sigma, abs=1e-9)
    va = {n: model.rating() for n in "ABC"}
    new = model.rate([[va["A"]], [va["B"]], [va["C"]]], ranks=[2, 1, 3])
    for name, (team,) in zip("ABC", new, strict=True):
        assert rated["vier-anderle"][name].mu == pytest.approx(team.mu, abs=1e-9)
        assert rated["vier-anderle"][name].sigma == pytest.approx(team.sigma, abs=1e-9)
    # each game is rated on its own: Vier-Anderle knows nothing of D and E
    assert set(rated["vier-anderle"]) == {"A", "B", "C"}
    shown = rated["hartenjagen"]["C"]
    assert shown.number == round(1000 + 40 * (r["C"].mu - 3 * r["C"].sigma))
    assert shown.plus_minus == round(40 * r["C"].sigma)
    assert shown.games == 3 and shown.provisional


def test_a_tie_is_a_tie():
    """Equal points are equal ranks: two players level from the same rating stay level, and
    OpenSkill was told so (not "1, 2" in seating order)."""
    assert ratings.ranks({"A": (-10,), "B": (-10,), "C": (-3,), "D": (-20,)}) == \
        {"C": 1, "A": 2, "B": 2, "D": 4}


def test_tied_players_get_the_same_rating(app):
    with app.test_request_context():
        played(DAY, "hartenjagen", hearts(A=10, B=10, C=3, D=20))
        db.session.commit()
        rated = ratings.rate(group_().id)["hartenjagen"]
    assert rated["A"].mu == rated["B"].mu and rated["A"].sigma == rated["B"].sigma
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(4)], ranks=[2, 2, 1, 4])
    assert rated["A"].mu == pytest.approx(new[0][0].mu)
    assert rated["C"].mu > rated["A"].mu > rated["D"].mu


def test_provisional_below_ten_games_and_the_change_per_evening(app):
    with app.test_request_context():
        for week in range(10):
            day = DAY + dt.timedelta(days=7 * (week // 2))  # two games an evening
            played(day, "hintersche", lines(A=0, B=1, C=1, D=2))
            if week < 9:
                played(day, "vier-anderle", money(A=100, B=-100))
        db.session.commit()
        shown = ratings.season(group_(), 2026)
        va = {r.player: r for r in ratings.season(group_(), 2026)["vier-anderle"]}
    hintersche = {r.player: r for r in shown["hintersche"]}
    assert not hintersche["A"].provisional and hintersche["A"].games == 10
    assert va["A"].provisional and va["A"].games == 9
    assert [r.player for r in shown["hintersche"]][0] == "A"  # never behind: the best
    a = hintersche["A"]
    assert len(a.evenings) == 5  # one change per evening, both games of it together
    numbers = [1000] + [e.number for e in a.evenings]
    assert [e.change for e in a.evenings] == [b - x for x, b in zip(numbers, numbers[1:],
                                                                    strict=False)]
    assert a.change == a.evenings[-1].change and a.evenings_change == a.number - 1000
    assert hintersche["D"].change < 0 < a.change


def test_a_season_rates_the_history_up_to_its_end(app):
    with app.test_request_context():
        played(dt.date(2025, 5, 1), "hartenjagen", hearts(A=1, B=50, C=60, D=70))
        played(dt.date(2026, 5, 1), "hartenjagen", hearts(A=70, B=1, C=60, E=70))
        db.session.commit()
        before = {r.player: r for r in ratings.season(group_(), 2025)["hartenjagen"]}
        now = {r.player: r for r in ratings.season(group_(), 2026)["hartenjagen"]}
        every = {r.player: r for r in ratings.season(group_())["hartenjagen"]}
    assert set(before) == {"A", "B", "C", "D"} and set(now) == {"A", "B", "C", "E"}
    assert now["A"].games == 2 and now["A"].number == every["A"].number
    assert now["A"].evenings_change == now["A"].number - before["A"].number


def test_switched_off_the_ratings_are_shown_nowhere(app, client):
    with app.test_request_context():
        played(DAY, "hartenjagen", hearts(A=10, B=5, C=3, D=20))
        db.session.commit()
    from support import phone

    client = phone(app)
    with app.test_request_context():
        a = db.session.scalar(select(Player.id).where(Player.name == "A"))
    assert "Spielstärke" in client.get("/g/tanne/standings").get_data(as_text=True)
    mine = client.get(f"/g/tanne/players/{a}").get_data(as_text=True)
    assert 'class="card player-ratings"' in mine and "Spielstärke nach jedem Abend" in mine
    assert client.post("/g/tanne/ratings", data={}).status_code == 302  # the box not ticked
    with app.test_request_context():
        assert not group_().ratings and ratings.season(group_(), 2026) == {}
    page = client.get("/g/tanne/standings").get_data(as_text=True)
    assert "Spielstärke" not in page and "vorläufig" not in page
    assert "player-ratings" not in client.get(f"/g/tanne/players/{a}").get_data(as_text=True)
    assert client.get("/g/tanne/export.json").get_json()["ratings"] is False
    assert client.post("/g/tanne/ratings", data={"ratings": "y"}).status_code == 302
    assert "vorläufig" in client.get("/g/tanne/standings").get_data(as_text=True)


# --- head to head ------------------------------------------------------------------------------

def test_head_to_head_counts_games_places_and_money_between_two_players(app):
    with app.test_request_context():
        played(DAY, "hartenjagen", hearts(A=20, B=5, C=61, D=34))      # B ahead of A
        played(DAY, "hartenjagen", hearts(A=10, B=10, C=3, D=20))      # A level with B
        played(DAY, "vier-anderle", money(A=90, B=-30, C=-60))         # A ahead of B
        played(dt.date(2025, 1, 9), "hintersche", lines(A=0, B=1, C=1, D=2))
        played(DAY, "vier-anderle", money(B=10, C=-10))                # without A
        db.session.commit()
        every = {o.player: o for o in headtohead.table(group_(), "A")}
        season = {o.player: o for o in headtohead.table(group_(), "A", 2026)}
        assert headtohead.years(group_(), "A") == [2026, 2025]
    b = every["B"]
    assert (b.games, b.ahead, b.level, b.behind) == (4, 2, 1, 1)
    # money: what one paid the other. A paid the winner B 15 points' difference; both paid
    # the winner C; B paid A 30 of what A won alone; B's line cost B a euro to A
    assert b.money == -15 + 0 + 30 + 100 and b.money_cents == 115
    assert (season["B"].games, season["B"].money_cents) == (3, 15)
    assert "D" in every and every["D"].games == 3 and every["D"].ahead == 3
    # over one game, a player's money against the others (and the Kasse) adds up to their
    # result: here the Kasse's carried-in pot of 40 was won too
    with app.test_request_context():
        group = group_()
        group.slug = "alt"
        db.session.flush()
        played(DAY, "vier-anderle", money(A=90, B=-30, C=-20))
        found = {o.player: o for o in headtohead.table(group_(), "A")}
        assert sum(o.money for o in found.values()) == 90
        assert (found["Kasse"].money, found["B"].money, found["C"].money) == (40, 30, 20)


def test_the_players_page_shows_head_to_head_with_a_year_filter(app):
    from support import phone

    with app.test_request_context():
        played(DAY, "hartenjagen", hearts(A=20, B=5, C=61, D=34))
        played(dt.date(2025, 1, 9), "hintersche", lines(A=0, B=1, C=1, D=2))
        db.session.commit()
        a = db.session.scalar(select(Player.id).where(Player.name == "A"))
    client = phone(app)
    page = client.get(f"/g/tanne/players/{a}").get_data(as_text=True)
    section = page.split('id="head-to-head"', 1)[1].split("</section>", 1)[0]
    assert "Direkter Vergleich" in page and ">2026<" in section and ">2025<" in section
    row = section.split(">B</a>", 1)[1].split("</tr>", 1)[0]
    assert "<td>2</td>" in row and "1 · 0 · 1" in row
    page = client.get(f"/g/tanne/players/{a}?year=2025").get_data(as_text=True)
    row = page.split('id="head-to-head"', 1)[1].split(">B</a>", 1)[1].split("</tr>", 1)[0]
    assert "<td>1</td>" in row and "1 · 0 · 0" in row and "1,00" in row  # B's line to A
