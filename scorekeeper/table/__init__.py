"""A game at the table: its hands stored in order and replayed through the engine (`scoring`),
the version numbers a phone compares (`versions`), and the live wire that tells the other phones
of a change once it is committed (`live`).

May import: the engine, the games' adapters, `db`, `models`. Nothing here commits: the
application layer (`changes`) does."""
