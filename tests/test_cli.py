"""`flask --app scorekeeper replay` and `import`, as the players run them: through Flask's
test runner, and once as a process of its own."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper import cli

ROOT = Path(__file__).resolve().parent.parent
FLASK = [sys.executable, "-m", "flask", "--app", "scorekeeper"]

HINTERSCHE_EXAMPLE = {
    "format": "scorekeeper-game/1", "game": "hintersche", "rules": {},
    "players": ["A", "B", "C", "D"], "first_dealer": "A",
    "hands": [
        {"points": {"A": 30, "B": 45, "C": 35, "D": 30}},
        {"points": {"A": 20, "B": 21, "C": 99, "D": 0}},
        {"points": {"A": 105, "B": 10, "C": 15, "D": 10}},
        {"points": {"B": 50, "C": 40, "D": 50}},
        {"points": {"B": 30, "C": 60, "D": 50}},
        {"points": {"B": 55, "C": 55, "D": 20}, "playoffs": [{"B": 40, "C": 30}]},
        {"points": {"B": 50, "C": 70}},
        {"points": {"B": 70, "C": 60}},
        {"points": {"B": 0, "C": 72}, "all_tricks": "C"},
    ],
}


class Ran:
    """What a command printed and how it ended, as a process's result reads."""

    def __init__(self, result):
        self.returncode, self.stdout, self.stderr = result.exit_code, result.stdout, result.stderr


def replay(record, tmp_path=None, stdin=None):
    if stdin is None:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record))
        args = [str(path)]
    else:
        args = ["-"]
    return Ran(CliRunner().invoke(cli.replay_command, args, input=stdin))


def test_replay_prints_the_worked_example_state(tmp_path):
    result = replay(HINTERSCHE_EXAMPLE, tmp_path)
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["game"] == "hintersche" and state["hands_played"] == 9
    lines = {p["name"]: p["lines"] for p in state["players"]}
    assert lines == {"A": 0, "B": 1, "C": 0, "D": 0}
    assert state["game_number"] == 2 and state["phase"] == "vier-strich"
    assert all(p["marks"] == 0 and p["in"] for p in state["players"])


def test_replay_reads_standard_input(tmp_path):
    record = {"format": "scorekeeper-game/1", "game": "hartenjagen",
              "players": ["A", "B", "C", "D"],
              "hands": [{"hearts": {"A": 3, "C": 10}, "queen": "B"}]}
    result = replay(record, tmp_path, stdin=json.dumps(record))
    assert result.returncode == 0, result.stderr
    scores = [p["score"] for p in json.loads(result.stdout)["players"]]
    assert scores == [3, 13, 10, 0]


@pytest.mark.slow  # two processes started: seconds of one worker
def test_replay_runs_as_a_process_of_its_own_and_needs_no_database(tmp_path):
    """The one real process: `flask --app scorekeeper replay` from an empty folder."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(HINTERSCHE_EXAMPLE))
    result = subprocess.run(FLASK + ["replay", str(path)], capture_output=True, text=True,
                            cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(replay(HINTERSCHE_EXAMPLE, tmp_path).stdout)
    assert not (tmp_path / "instance").exists()
    assert not any(tmp_path.rglob("*.sqlite"))
    broken = subprocess.run(FLASK + ["replay", "-"], input="{not json", capture_output=True,
                            text=True, cwd=tmp_path)
    assert broken.returncode != 0 and "JSON" in broken.stderr and "Traceback" not in broken.stderr


@pytest.mark.parametrize("hands,message", [
    ([{"hearts": {"A": 3, "C": 9}, "queen": "B"}], "hand 1: "),
    ([{"hearts": {"A": 3, "C": 10}, "queen": "B"}, {"hearts": {"A": 13}}], "hand 2: "),
    ([{"renege": "Z"}], "hand 1: Z"),
])
def test_replay_refuses_a_bad_record_with_the_hand_number(tmp_path, hands, message):
    record = {"format": "scorekeeper-game/1", "game": "hartenjagen",
              "players": ["A", "B", "C", "D"],
              "hands": hands}
    result = replay(record, tmp_path)
    assert result.returncode != 0
    assert result.stdout == ""
    assert result.stderr.startswith(message), result.stderr


def test_replay_refuses_unknown_options_and_broken_json(tmp_path):
    bad = dict(HINTERSCHE_EXAMPLE, rules={"march_at": 100, "bogus": 1})
    result = replay(bad, tmp_path)
    assert result.returncode != 0 and "bogus" in result.stderr and result.stdout == ""
    broken = replay(None, stdin="{not json")
    assert broken.returncode != 0 and "JSON" in broken.stderr and "Traceback" not in broken.stderr


def test_import_prints_the_game_path_and_refuses_bad_records(runner, app, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(HINTERSCHE_EXAMPLE))
    result = runner.invoke(args=["import", str(path), "--group", "stammtisch"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("/g/stammtisch/games/")
    bad = dict(HINTERSCHE_EXAMPLE, hands=[{"points": {"A": 1, "B": 139}}])
    path.write_text(json.dumps(bad))
    refused = runner.invoke(args=["import", str(path), "--group", "stammtisch"])
    assert refused.exit_code != 0 and "hand 1" in refused.output


def test_import_refuses_a_player_called_kasse(runner, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(HINTERSCHE_EXAMPLE, players=["A", "B", "C", "Kasse"],
                                    hands=[])))
    result = runner.invoke(args=["import", str(path), "--group", "stammtisch"])
    assert result.exit_code != 0 and "Kasse" in result.output
    assert "Traceback" not in result.output
