"""Joining is a tap, a phone's groups are kept on the server, PIN attempts are counted in the
database, and the instance folder keeps its secrets to itself."""

import re
import stat

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from support import enter, join, make_app, phone, start_game

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.group import access, attempts, pins
from scorekeeper.models import Attempt, Group, Membership
from scorekeeper.web import security

FOUR = ["Anna", "Berti", "Carl", "Kurt"]
pytestmark = pytest.mark.usefixtures("one_pin_window")


def _token(app, column=Group.token):
    with app.app_context():
        return db.session.scalar(select(column))


def _pin_group(client):
    client.post("/groups", data={"name": "Tanne"})
    assert client.post("/g/tanne/invite/pin", data={"pin": "4711"}).status_code == 302


def test_a_join_link_opened_by_another_page_does_not_join_until_the_phone_taps_join(app, client):
    client.post("/groups", data={"name": "Stammtisch Tanne"})
    link = f"/join/{_token(app)}"
    stranger = app.test_client()
    page = stranger.get(link)  # a page elsewhere sent the phone here
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Stammtisch Tanne" in text and 'method="post"' in text
    manifest = re.search(r'<link rel="manifest" href="([^"]+)"', text).group(1)
    assert stranger.get(manifest).status_code == 200  # the app's: the group's is not open yet
    assert stranger.get("/g/stammtisch-tanne").status_code == 404  # not in yet
    assert stranger.post(link).status_code == 302  # the tap
    assert stranger.get("/g/stammtisch-tanne").status_code == 200
    assert stranger.get(link).location == "/g/stammtisch-tanne"  # in already: straight there


def test_the_join_tap_needs_the_forms_csrf_token(tmp_path):
    app = make_app("sqlite", tmp_path)  # CSRF on, as served
    host = app.test_client()
    start = host.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', start).group(1)
    assert host.post("/groups", data={"name": "Tanne", "csrf_token": csrf}).status_code == 302
    link = f"/join/{_token(app)}"
    other = app.test_client()
    assert other.post(link).status_code == 400  # a form posted from elsewhere carries no token
    assert other.get("/g/tanne").status_code == 404
    assert join(other, link).status_code == 302
    assert other.get("/g/tanne").status_code == 200


def test_the_cookie_stays_the_same_size_however_many_groups_a_phone_joins(app, client):
    sizes = []
    for number in range(150):  # past the 127 groups at which the old cookie was refused
        host = app.test_client()
        host.post("/groups", data={"name": f"Runde {number}"},
                  environ_base={"REMOTE_ADDR": f"10.1.{number}.1"})
        with app.app_context():
            token = db.session.scalar(select(Group.token).where(Group.slug == f"runde-{number}"))
        join(client, f"/join/{token}")
        sizes.append(len(client.get_cookie("session").value))
    assert len(set(sizes)) == 1 and sizes[0] < 200
    assert client.get("/g/runde-0").status_code == 200
    assert client.get("/g/runde-149").status_code == 200


def test_a_phone_can_leave_a_group_and_join_again(app, client):
    client.post("/groups", data={"name": "Tanne"})
    friend = phone(app)
    assert friend.post("/g/tanne/leave").status_code == 302
    assert friend.get("/g/tanne").status_code == 404
    assert client.get("/g/tanne").status_code == 200  # the others stay
    assert join(friend, f"/join/{_token(app)}").status_code == 302
    assert friend.get("/g/tanne").status_code == 200


def test_renewing_the_link_shuts_out_the_phones_that_joined_with_the_old_one(app, client):
    client.post("/groups", data={"name": "Tanne"})
    friend, tv = phone(app), app.test_client()
    join(tv, f"/join/{_token(app, Group.view_token)}")
    assert client.post("/g/tanne/invite/renew").status_code == 302
    assert friend.get("/g/tanne").status_code == 404 and tv.get("/g/tanne").status_code == 404
    assert client.get("/g/tanne").status_code == 200
    told = friend.get("/g/tanne").get_data(as_text=True)  # in words, not "is it called otherwise?"
    assert "Tanne hat einen neuen Einladungslink" in told and "QR-Code" in told
    stranger = app.test_client().get("/g/tanne").get_data(as_text=True)
    assert "Einladungslink" not in stranger  # a phone that never joined learns nothing


def test_a_phone_that_says_whose_it_is_is_named_in_the_history(app, client):
    path = start_game(client, "hartenjagen", FOUR)
    home = client.get("/g/tanne").get_data(as_text=True)
    kurt = re.search(r'<option value="(\d+)">Kurt</option>', home).group(1)
    assert client.post("/g/tanne/owner", data={"player": kurt}).status_code == 302
    assert enter(client, path, {"hearts-Anna": 13, "queen": "Berti"}).status_code == 302
    friend = phone(app)
    assert enter(friend, path, {"hearts-Berti": 13, "queen": "Carl"}).status_code == 302
    history = client.get(path + "/history").get_data(as_text=True)
    assert "· Kurt</small>" in history  # the phone's owner, where the kind of phone stood
    with app.app_context():
        from scorekeeper.models import Revision

        devices = db.session.scalars(select(Revision.device).order_by(Revision.id)).all()
    assert devices[-2:] == ["Kurt", "–"]  # the friend's test client says nothing of its kind
    assert client.post("/g/tanne/owner", data={"player": "999"}).status_code == 400
    assert client.post("/g/tanne/owner", data={"player": "0"}).status_code == 302
    assert "(Kurt)" not in client.get("/g/tanne").get_data(as_text=True)


def test_a_phone_with_its_groups_in_the_old_cookie_keeps_them(app, client):
    client.post("/groups", data={"name": "Tanne"})
    old = app.test_client()
    with old.session_transaction() as session:  # as a phone from before memberships had it
        session["groups"] = {"1": ["member", access._fingerprint(_token(app))],
                             "77": ["member", "x"]}
    assert old.get("/g/tanne").status_code == 200
    with old.session_transaction() as session:
        assert "groups" not in session and "device" in session
    with app.app_context():
        assert db.session.scalar(select(Membership.group_id).where(
            Membership.device == access.hashlib.sha256(
                session["device"].encode()).hexdigest())) == 1


def test_pin_attempts_are_counted_across_a_restart(app, client):
    _pin_group(client)
    guesser = app.test_client()
    for _ in range(3):
        assert guesser.post("/join", data={"name": "Tanne", "pin": "0000"}).status_code == 400
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    restarted = create_app({key: app.config[key] for key in (  # the same database, anew
        "TESTING", "SECRET_KEY", "SQLALCHEMY_DATABASE_URI", "WTF_CSRF_ENABLED")})
    again = restarted.test_client()
    for _ in range(2):
        assert again.post("/join", data={"name": "Tanne", "pin": "0000"}).status_code == 400
    refused = again.post("/join", data={"name": "Tanne", "pin": "4711"})
    assert refused.status_code == 429
    assert "Zu viele PIN-Versuche" in refused.get_data(as_text=True)
    with restarted.app_context():
        db.engine.dispose()


def test_pin_attempts_need_no_redis_and_a_dead_redis_is_no_500(tmp_path):
    app = make_app("sqlite", tmp_path, WTF_CSRF_ENABLED=False,
                   RATELIMIT_STORAGE_URI="redis://127.0.0.1:1")  # nothing listens there
    client = app.test_client()
    _pin_group(client)  # creating a group counts in memory while Redis is away
    for _ in range(5):
        assert app.test_client().post("/join", data={"name": "Tanne", "pin": "0000"}) \
            .status_code == 400
    assert app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"}) \
        .status_code == 429
    # the limiter (one for the process's apps) counts in memory meanwhile; the next test's app
    # counts in its own storage from its first request (support.make_app)
    assert security.limiter._storage_dead
    (tmp_path / "next").mkdir()
    make_app("sqlite", tmp_path / "next")
    assert not security.limiter._storage_dead


def test_when_the_count_cannot_be_kept_the_pin_is_not_checked(app, client, monkeypatch):
    _pin_group(client)

    def broken(key, window):
        raise OperationalError("UPDATE attempts", {}, Exception("database is locked"))

    monkeypatch.setattr(attempts, "count", broken)
    answer = app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"})
    assert answer.status_code == 503
    assert "Bitte gleich noch einmal versuchen" in answer.get_data(as_text=True)
    monkeypatch.undo()
    assert app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"}) \
        .status_code == 302


@pytest.mark.real_pins
@pytest.mark.parametrize("name", ["Tanne", "Linde"])  # a made-up name: no hash (test_attacker)
def test_the_pin_check_does_the_same_work_whether_a_group_has_a_pin_or_not(
        app, client, monkeypatch, name):
    _pin_group(client)  # Tanne has a PIN
    client.post("/groups", data={"name": "Linde"})  # Linde has none
    checked = []
    real = pins.check_password_hash
    monkeypatch.setattr(pins, "check_password_hash",
                        lambda stored, pin: checked.append(stored.split("$")[0]) or real(stored,
                                                                                          pin))
    assert app.test_client().post("/join", data={"name": name, "pin": "0000"}).status_code == 400
    assert checked == ["scrypt:32768:8:1"]  # one hash of the same kind, as slow, every time


def test_old_counts_are_removed(app, client):
    _pin_group(client)
    with app.app_context():
        import datetime as dt

        db.session.add(Attempt(key="pin:old@0", count=5, expires=dt.datetime(2020, 1, 1)))
        db.session.commit()
    app.test_client().post("/join", data={"name": "Tanne", "pin": "0000"})
    with app.app_context():
        keys = db.session.scalars(select(Attempt.key)).all()
    assert "pin:old@0" not in keys and len(keys) == 3  # the address; the group's quarter, day


def test_creating_groups_is_limited_per_address(app):
    codes = [app.test_client().post("/groups", data={"name": f"Runde {n}"}).status_code
             for n in range(11)]
    assert codes == [302] * 10 + [429]
    page = app.test_client().post("/groups", data={"name": "Noch eine"})
    assert page.status_code == 429 and "Zu viele neue Gruppen" in page.get_data(as_text=True)
    elsewhere = app.test_client().post("/groups", data={"name": "Anderswo"},
                                       environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert elsewhere.status_code == 302


def test_a_missing_secret_key_is_made_once_in_the_instance_folder(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    first = create_app()
    second = create_app()  # the next start, or another worker
    key = (folder / "secret_key").read_text()
    assert first.secret_key == second.secret_key == key and len(key) == 64
    assert first.secret_key != "dev"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("secret_key", "scorekeeper.sqlite"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name


def test_the_instance_files_made_by_make_are_private(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    folder.mkdir(mode=0o755)
    (folder / "config.py").write_text("SECRET_KEY = 'abc'\n")
    (folder / "config.py").chmod(0o644)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    app = create_app()
    assert app.secret_key == "abc" and not (folder / "secret_key").exists()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "config.py").stat().st_mode) == 0o600


def test_creating_groups_is_limited_to_thirty_a_day_per_address(app, monkeypatch):
    """Ten an hour, and thirty a day however the hours are spread: the hours move on (the
    limits' clock, in memory here), the day's count does not start again."""
    import limits.storage.memory

    clock = [1_800_000_000.0]
    monkeypatch.setattr(limits.storage.memory.time, "time", lambda: clock[0])
    codes = []
    for hour in range(4):
        clock[0] += 3601 * (hour > 0)
        codes += [app.test_client().post("/groups", data={"name": f"Runde {hour}-{n}"})
                  .status_code for n in range(10)]
    assert codes == [302] * 30 + [429] * 10
    clock[0] += 24 * 3600  # the next day
    assert app.test_client().post("/groups", data={"name": "Morgen"}).status_code == 302
