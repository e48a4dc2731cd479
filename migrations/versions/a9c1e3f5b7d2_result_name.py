"""result name: the name the group gave a game (a free list's), its own place in the standings

The upgrade's rebuild of every game's derived data (migrations/env.py) fills it in.

Revision ID: a9c1e3f5b7d2
Revises: 194d1536f3e5
Create Date: 2026-12-04 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a9c1e3f5b7d2'
down_revision = '194d1536f3e5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=40), server_default='',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.drop_column('name')
