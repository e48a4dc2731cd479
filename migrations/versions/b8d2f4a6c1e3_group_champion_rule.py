"""the group chooses how the season's champion is decided: by money, or by the average per
evening among those who played a minimum share of the evenings

Also rebuilds every game's derived data (migrations/env.py does after any upgrade): the stored
results now keep the figures of the season's records (a biggest pot and the hand it was won in,
marches, moons) for the games played before.

Revision ID: b8d2f4a6c1e3
Revises: c4d6e8f0a2b3
Create Date: 2026-12-02 06:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8d2f4a6c1e3'
down_revision = 'c4d6e8f0a2b3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('champion_by', sa.String(length=10), server_default='money',
                                   nullable=False))
        batch.add_column(sa.Column('champion_share', sa.Integer(), server_default='50',
                                   nullable=False))


def downgrade():
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('champion_share')
        batch.drop_column('champion_by')
