"""A fourth game that lives in the tests only, registered the way the README's "Adding a game"
says: its engine module (`zehner`), its adapter and its templates (`templates/games/zehner/`),
and its record generator for the property tests and the benches. Importing this package adds
it to the app for the whole test session (tests/conftest.py does)."""

import generators

from scorekeeper import engine, games

from . import adapter, records, zehner

engine.games.register(zehner)
games.register(adapter.Zehner())
generators.register(zehner.NAME, records.random_record)
