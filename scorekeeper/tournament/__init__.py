"""A tournament night: who sits at which table in each Durchgang, drawn by lot (`draw`), what
the night and a season's nights add up to (`ranking`), both pure (no web, no database), and the
stored night read for the pages (`night`: its start list, tables, lots, results, version and the
season's series).

May import: `draw` and `ranking` only `scorekeeper.engine` (its errors: the refusals in players'
words) and the standard library; `night` also the database, the models and the games' adapters
(what a table's score is at a tournament). Changes go through `changes.tournaments`."""
