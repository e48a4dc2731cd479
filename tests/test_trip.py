"""A hand's trip through the package (bench/trip.py): how many files it passes, how often it
comes back into a file it had left, and how many calls climb back up into a module above. The
figures are held where they stand, so the trip can only get shorter; docs/architecture.md walks
it file by file."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import trip  # noqa: E402

FILES, REENTRIES, CLIMBS = 14, 15, 0


@pytest.fixture(scope="module")
def trips():
    return trip.trips()


def test_every_game_has_a_trip(trips):
    assert set(trips) >= {"hintersche", "vier-anderle", "hartenjagen"}


@pytest.mark.parametrize("measure", ["files", "re-entries", "calls back up"])
def test_a_hands_trip_is_no_longer_than_it_was(trips, measure):
    figures = {name: {"files": len(set(files)), "re-entries": len(files) - len(set(files)),
                      "calls back up": climbs} for name, (files, climbs) in trips.items()}
    most = {"files": FILES, "re-entries": REENTRIES, "calls back up": CLIMBS}[measure]
    assert max(f[measure] for f in figures.values()) <= most, figures
