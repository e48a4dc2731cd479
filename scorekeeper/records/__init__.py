"""The formats that leave and enter the app: a game's record as `replay` reads it, checked and
imported (`game_record`), and a whole group's export as JSON or CSV, its checks and its import
(`exports`).

May import: `table`, `evenings`, `season`, `group`, the games, `db`, `models`. Nothing here
commits: the application layer (`changes`) does."""
