"""the Kasse's book (kasse_entries: games' pots, rounding, members' deposits and withdrawals);
a group can switch its ratings off

The lines from the games are filled by the rebuild after every upgrade (migrations/env.py calls
derived.rebuild_all, which stores every game and so its evening's Kasse lines).

Revision ID: c4d6e8f0a2b3
Revises: a3c5e7f9b1d2
Create Date: 2026-12-02 06:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d6e8f0a2b3'
down_revision = 'a3c5e7f9b1d2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('ratings', sa.Boolean(), server_default=sa.true(),
                                   nullable=False))
    op.create_table('kasse_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('cents', sa.BigInteger(), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=False),
    sa.Column('entered_by', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('cancels_id', sa.Integer(), nullable=True),
    sa.Column('deleted_at', sa.DateTime(), nullable=True),
    sa.Column('deleted_by', sa.String(length=200), nullable=False),
    sa.ForeignKeyConstraint(['cancels_id'], ['kasse_entries.id'], ),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('kasse_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_kasse_entries_evening_id'), ['evening_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_kasse_entries_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_kasse_entries_group_id'), ['group_id'], unique=False)


def downgrade():
    with op.batch_alter_table('kasse_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_kasse_entries_group_id'))
        batch_op.drop_index(batch_op.f('ix_kasse_entries_game_id'))
        batch_op.drop_index(batch_op.f('ix_kasse_entries_evening_id'))
    op.drop_table('kasse_entries')
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('ratings')
