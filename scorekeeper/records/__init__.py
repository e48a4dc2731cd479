"""The formats that leave and enter the app: a game's record as `replay` reads it, checked and
stored (`game_record`), and a whole group as JSON or CSV (`export`), the checks of its JSON
(`check`) and storing it as a new group (`group_import`).

May import: `table`, `evenings`, `season`, `group`, the games, `db`, `models`. Nothing here
commits: the application layer (`changes.records`) does."""
