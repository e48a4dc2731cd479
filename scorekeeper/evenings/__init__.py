"""The evening and its money, beyond any one game: what each person won and who pays whom with
the fewest payments (`settlement`, pure), the evening's accounts across its games (`accounts`),
the Kasse's book with its fines (`ledger`) and signing the evening off (`signoff`).

May import: the engine, the games' adapters, `table`, `group`, `db`, `models`, `web.charts`.
Nothing here commits: the application layer (`changes`) does."""
