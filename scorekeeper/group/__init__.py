"""The group and who may enter: its players and evenings found or made (`club`), the names and
slugs players type (`names`), phones and their labels (`devices`), this phone's memberships and
what it may see (`access`), the join and view links (`links`), the PIN (`pins`) and the counts
that limit guessing it (`attempts`).

May import: `db`, `models`, `i18n`. Nothing here commits but the counting of PIN attempts
(`pins.attempt`, `attempts.clean`), which must stand even when the request fails."""
