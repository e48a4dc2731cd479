"""what a missing result counts at a tournament

A Durchgang a player has no result in (their table's voided, or not seated in it) counted 0; it
now counts the Durchgang's worst result ("worst"), for tournaments set up from now on. The
tournaments there are keep 0 ("zero"): a night closed under it keeps its ranking, the one its
Kasse lines were booked from.

Revision ID: b2e4c6a8d0f1
Revises: 9f67c86ac8a1
Create Date: 2026-12-04 23:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b2e4c6a8d0f1'
down_revision = '9f67c86ac8a1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('missing', sa.String(length=8), nullable=False,
                                      server_default='zero'))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('missing')
