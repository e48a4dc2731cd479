"""docs/architecture.md, the house's map, stays true: every room it names is a package of the
app with a docstring, every module its table of rooms names is in that room, every file it names
exists, and every room of the app is on the map."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
MAP = (ROOT / "docs" / "architecture.md").read_text()
NOT_MODULES = {"create_app", "replay"}  # named in the table, and not modules


def rooms_table() -> dict[str, list[str]]:
    """The table of rooms: each room (a folder, or "top level") with the names it lists."""
    rows = re.findall(r"^\| `?([a-z_ ]+/?)`? \| (.+) \|$", MAP, re.M)
    return {room: re.findall(r"`([a-z_]+)`", text) for room, text in rows}


def test_every_room_on_the_map_is_a_package_with_a_docstring():
    rooms = [room for room in rooms_table() if room.endswith("/")]
    assert len(rooms) >= 10
    for room in rooms:
        init = PACKAGE / room / "__init__.py"
        assert init.is_file(), room
        assert init.read_text().lstrip().startswith('"""'), f"{room} says what lives there"


def test_every_module_the_map_names_is_in_its_room():
    for room, names in rooms_table().items():
        folder = PACKAGE / (room if room.endswith("/") else "")
        for name in set(names) - NOT_MODULES:
            assert (folder / f"{name}.py").is_file() or (folder / name).is_dir(), \
                f"the map puts {name} in {room}"


def test_every_file_the_map_names_exists():
    paths = set(re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.py)`", MAP))
    assert paths
    for path in paths:
        assert (PACKAGE / path).is_file() or (ROOT / path).is_file(), path


def test_every_room_of_the_app_is_on_the_map():
    on_map = {room.rstrip("/") for room in rooms_table() if room.endswith("/")}
    rooms = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert rooms - on_map == set()
