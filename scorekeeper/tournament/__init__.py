"""A tournament night, pure: who sits at which table in each Durchgang, drawn by lot (`draw`),
and what the night and a season's nights add up to (`ranking`). No web, no database: the
tournament's pages and its stored rows build on these.

May import: `scorekeeper.engine` (its errors: the refusals in players' words) and the standard
library, nothing else of the app."""
