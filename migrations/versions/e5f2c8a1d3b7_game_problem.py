"""game problem: why the engine refuses a game kept from before an upgrade

Also rebuilds every game's derived data (migrations/env.py does after any upgrade): the stored
snapshots now keep who dealt last, as a table change passes the deal on from them.

Revision ID: e5f2c8a1d3b7
Revises: d4e8a1c7b9f2
Create Date: 2026-12-01 20:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f2c8a1d3b7'
down_revision = 'd4e8a1c7b9f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('problem', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('problem')
