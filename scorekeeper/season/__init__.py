"""What the year adds up to: the standings stored per game and per evening (`standings`), the
season's chronicle and its records (`chronicle`), the players' ratings (`ratings`) and who beat
whom (`headtohead`).

May import: the games' adapters, `evenings`, `table`, `group`, `db`, `models`. Nothing here
commits: the application layer (`changes`) does."""
