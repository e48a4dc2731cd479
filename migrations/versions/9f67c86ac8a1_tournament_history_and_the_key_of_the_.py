"""tournament history and the key of the form that set a tournament up

What the organiser did at a tournament (draws, voids with their reason, lots, late entrants,
withdrawals, new links, closing), with its time and phone, for the tournament's page; and the
key of the form a tournament was set up with, so that the form sent twice sets up one.

Revision ID: 9f67c86ac8a1
Revises: a9c1e3f5b7d2
Create Date: 2026-12-03 21:20:16.454224

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9f67c86ac8a1'
down_revision = 'a9c1e3f5b7d2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tournament_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('device', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournament_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_events_tournament_id'), ['tournament_id'], unique=False)

    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_tournaments_key', ['key'])


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_constraint('uq_tournaments_key', type_='unique')
        batch_op.drop_column('key')

    with op.batch_alter_table('tournament_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_events_tournament_id'))

    op.drop_table('tournament_events')
