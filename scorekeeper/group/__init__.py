"""The group and who may enter: its players and evenings found or made (`club`), the names and
slugs players type (`names`), phones and their labels (`devices`), links, memberships and PINs
(`access`) and the counts that limit guessing (`attempts`).

May import: `db`, `models`, `i18n`. Nothing here commits but the counting of PIN attempts, which
must stand even when the request fails."""
