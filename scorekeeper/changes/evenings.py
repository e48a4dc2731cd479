"""Every change to an evening beyond its games' tables, and to the group's Kasse, in the players'
words: open tonight's evening, round the payments, tick a payment as paid, book a fine and take
it back, ask the players to sign the evening off, a player's "right" or objection, reopen it, the
group's window for signing off; a member's deposit or withdrawal, cancelling or deleting one, a
fine into the catalogue and out of it.

Each function checks the change, stores it through `evenings.ledger` and `evenings.signoff`,
commits and answers with what the page says (`answers.Done`, `answers.Refused`; nothing to say:
None). Nothing here reads the request: the caller passes the form's values and the phone's label
(`by`).
"""

from __future__ import annotations

import datetime as dt

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper.changes.answers import Done, Refused
from scorekeeper.db import db
from scorekeeper.evenings import accounts, ledger, signoff
from scorekeeper.group import club
from scorekeeper.models import Evening, Fine, Group, KasseEntry, PaidPayment
from scorekeeper.web.display import money

# --- the evening -------------------------------------------------------------------------------


def open_tonight(group: Group, place: str) -> Evening | None:
    """'Neuer Abend': tonight's evening at `place` (the evening's day: a night past midnight
    belongs to the day before), found or made; if it has been signed off, the next one of the
    day that is not. None: another tap made it at the same moment (nothing stored here)."""
    today = club.evening_day()
    evening = db.session.scalar(select(Evening).where(
        Evening.group_id == group.id, Evening.date == today, Evening.place == place))
    if evening is not None:  # tonight's, or the next one if it has been signed off
        evening = signoff.open_evening(evening, group)
        db.session.commit()
        return evening
    evening = Evening(group_id=group.id, date=today, place=place)
    db.session.add(evening)
    try:
        db.session.commit()
    except IntegrityError:  # a second tap at the same moment made it already
        db.session.rollback()
        return None
    return evening


def round_payments(group: Group, cents: int) -> None:
    """Round the group's settlement payments to `cents` (0: to the cent), for every evening:
    the rounding in the Kasse's book follows."""
    group.rounding_cents = cents
    ledger.store_group(group)
    db.session.commit()


def tick_payment(group: Group, evening: Evening, payer: str, payee: str, cents: int,
                 paid: bool) -> None:
    """Tick one of the payments still to pay as paid, or take the tick back (`paid` False).
    Also once the evening is signed off: a tick records money handed over, it changes no
    amount. A payment already ticked, or whose amount changed meanwhile, is left alone."""
    key = (payer, payee, cents)
    if not paid:
        row = next((r for r in accounts.paid_rows(evening)
                    if (r.payer, r.payee, r.cents) == key), None)
        if row is not None:
            db.session.delete(row)
    else:
        payment = next((p for p in accounts.settle(evening, group.rounding_cents).payments
                        if (p.payer, p.payee, p.cents) == key), None)
        if payment is None:  # already ticked, or the amounts changed meanwhile
            return
        db.session.add(PaidPayment(evening_id=evening.id, payer=payment.payer,
                                   payee=payment.payee, cents=payment.cents))
    db.session.commit()


# --- fines at the table ------------------------------------------------------------------------

def book_fine(group: Group, evening: Evening, fine: Fine, player: str | None,
              by: str) -> Done | Refused:
    """One tap: a fine of the catalogue on a player (or on everybody), into the Kasse; the
    evening's players are asked anew if they were being asked to sign it off."""
    if shut := signoff.refusal(evening, group):
        return Refused(shut)
    present = signoff.players(evening, group)
    lines = ledger.book_fine(evening, fine, player, present, by)
    if not lines:
        return Refused(_("%(name)s did not play this evening.", name=player)
                       if fine.kind != "all" and player not in present else
                       _("Nobody is there to pay this fine."))
    signoff.changed(evening.id, by)
    db.session.commit()
    return Done(_("%(fine)s booked: %(who)s, %(amount)s each.", fine=fine.name,
                  who=", ".join(line.player for line in lines), amount=money(fine.cents)))


def undo_fine(group: Group, evening: Evening, entry: KasseEntry, by: str) -> Done | Refused | None:
    """Take a booked fine back: its lines stay in the book, struck through. None: it was taken
    back already."""
    if shut := signoff.refusal(evening, group):
        return Refused(shut)
    if not ledger.deletable(entry):
        return None
    ledger.delete_entry(entry, by)
    signoff.changed(evening.id, by)
    db.session.commit()
    return Done(_("%(fine)s was undone; the book keeps a record of it.", fine=entry.note))


# --- signing the evening off -------------------------------------------------------------------

def ask_signoff(group: Group, evening: Evening, by: str) -> Done | Refused:
    """"Abend abschließen": every player of the evening is asked to confirm the result."""
    try:
        signoff.ask(evening, group, by)
    except signoff.Refused as refused:
        db.session.rollback()
        return Refused(str(refused))
    db.session.commit()
    return Done(_("Every player is asked now: each taps “right” or objects."))


def answer_signoff(group: Group, evening: Evening, player: str, verdict: str, note: str,
                   by: str) -> Done | Refused:
    """A player's "right" or objection (from their phone, or a shared phone naming them); the
    last "right" locks the evening."""
    try:
        locked = signoff.verdict(evening, group, player, verdict, note, by)
    except signoff.Refused as refused:
        db.session.rollback()
        return Refused(str(refused))
    db.session.commit()
    return Done(_("Signed off: the evening is locked.") if locked else
                _("%(name)s: noted.", name=player))


def reopen(group: Group, evening: Evening, reason: str, by: str) -> Done | Refused:
    """A member reopens a signed-off evening with a reason; every player is asked again."""
    try:
        signoff.reopen(evening, group, reason, by)
    except signoff.Refused as refused:
        db.session.rollback()
        return Refused(str(refused))
    db.session.commit()
    return Done(_("Reopened: every player is asked again."))


def set_signoff_hours(group: Group, hours: int) -> None:
    """The group's window: how long after asking an evening nobody objected to locks."""
    group.signoff_hours = hours
    db.session.commit()


# --- the Kasse's book --------------------------------------------------------------------------

def enter_in_kasse(group: Group, kind: str, cents: int, note: str, day: dt.date, by: str,
                   confirmed: bool = False) -> Done | Refused:
    """A member's deposit or withdrawal of `cents` (> 0) on `day`. A withdrawal of more than
    the book says the Kasse holds is asked about first (Refused: the question; nothing is
    stored); `confirmed`, the same withdrawal sent again after it, goes through."""
    held = ledger.balance(group)
    if kind == "withdrawal" and cents > held and not confirmed:
        return Refused(_(
            "By its book the Kasse holds %(held)s: paying out %(amount)s leaves it at "
            "%(after)s, %(short)s short. Tap again to pay it out anyway.", held=money(held),
            amount=money(cents), after=money(held - cents), short=money(cents - held)))
    ledger.enter(group, kind, cents, note, day, by)
    db.session.commit()
    return Done(_("Entered in the Kasse's book."))


def cancel_kasse_entry(entry: KasseEntry, by: str) -> Done | None:
    """Cancel a wrong entry by a counter entry of the opposite amount today (both stay in the
    book). None: it cannot be cancelled (any more)."""
    if not ledger.cancellable(entry):
        return None
    ledger.cancel(entry, club.evening_day(), by)
    db.session.commit()
    return Done(_("Cancelled by a counter entry."))


def delete_kasse_entry(group: Group, entry: KasseEntry, by: str) -> Done | Refused | None:
    """Delete a wrong entry with a record: it stays in the book, struck through. A fine of a
    signed-off evening stays as signed; deleting one of an evening being signed off asks its
    players anew. None: it cannot be deleted (any more)."""
    evening = db.session.get(Evening, entry.evening_id) if entry.evening_id else None
    if evening is not None and (shut := signoff.refusal(evening, group)):
        return Refused(shut)
    if not ledger.deletable(entry):
        return None
    ledger.delete_entry(entry, by)
    if evening is not None:  # a fine of the evening: its players are asked anew
        signoff.changed(evening.id, by)
    db.session.commit()
    return Done(_("Deleted; the book keeps a record of it."))


# --- the catalogue of fines --------------------------------------------------------------------

def add_fine(group: Group, name: str, kind: str, cents: int) -> Done | Refused:
    """A fine for the catalogue; refused if it has one of that name (whatever the case)."""
    if name.casefold() in {fine.name.casefold() for fine in ledger.catalogue(group)}:
        return Refused(_("The catalogue has a fine of that name already."))
    db.session.add(Fine(group_id=group.id, name=name, kind=kind, cents=cents))
    db.session.commit()
    return Done(_("The fine is in the catalogue."))


def archive_fine(fine: Fine) -> None:
    """Take a fine out of the catalogue (what was booked keeps it)."""
    fine.archived = True
    db.session.commit()
