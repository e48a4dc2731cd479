"""The evening as a whole, beyond its games: signing it off (`signoff`).

A room of its own, so that what an evening holds besides its games has one place to go; the
evening's money (accounts) and the Kasse's book (ledger) are to move in here with the house
issue (27)."""
