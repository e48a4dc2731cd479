"""The view link opened by a phone that is a member already: it stays a member (the view link
lets phones read, it never takes away what a phone may do). test_joining.py and
test_private_groups.py have the links otherwise."""

from flask import session
from sqlalchemy import select
from support import enter, start_game

from scorekeeper.db import db
from scorekeeper.group import access
from scorekeeper.models import Group, Membership

HAND = {"hearts-A": "13", "queen": "B"}


def view_link(app):
    with app.app_context():
        return "/join/" + db.session.scalar(select(Group.view_token))


def roles(app):
    with app.app_context():
        return db.session.scalars(select(Membership.role)).all()


def test_a_member_who_opens_the_view_link_stays_a_member(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])  # its group's first member
    link = view_link(app)
    opened = client.get(link)
    assert opened.status_code == 302 and opened.location == "/g/tanne"  # in already: no tap
    assert client.post(link).status_code == 302  # a tap on a page opened before it joined
    assert roles(app) == ["member"]
    # what only a member may do: enter a hand, see the invitation with the join link
    assert enter(client, table, HAND).status_code == 302
    assert len(client.get(table + "/record.json").get_json()["hands"]) == 1
    assert client.get("/g/tanne/invite").status_code == 200


def test_granting_the_view_link_to_a_member_keeps_the_member(app, client):
    # the rule itself, whoever grants: a member's phone given the view link stays a member
    client.post("/groups", data={"name": "Tanne"})
    with client.session_transaction() as cookie:
        device = cookie["device"]
    with app.test_request_context():
        session["device"] = device
        group = db.session.scalar(select(Group))
        assert access.role(group) == access.MEMBER
        access.grant(group, access.VIEW)
        db.session.commit()
        assert access.role(group) == access.MEMBER
    assert roles(app) == ["member"]
    assert client.get("/g/tanne/invite").status_code == 200  # a member's page
