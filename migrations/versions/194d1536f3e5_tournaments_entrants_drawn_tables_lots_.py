"""tournaments: entrants, drawn tables, lots; a table's phone

A tournament night of a group: its entrants by start number, the tables drawn for each
Durchgang (their game, their phone's link, a voided Durchgang), the lots drawn for a tie; a
membership may be a tournament table's phone, which opens that table's game only.

Revision ID: 194d1536f3e5
Revises: d1f3a5c7e9b2
Create Date: 2026-12-03 18:52:58.662016

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '194d1536f3e5'
down_revision = 'd1f3a5c7e9b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tournaments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('entry_fee_cents', sa.BigInteger(), nullable=False),
    sa.Column('prizes', sa.JSON(), nullable=False),
    sa.Column('view_token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('view_token')
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_evening_id'), ['evening_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournaments_group_id'), ['group_id'], unique=False)

    op.create_table('entrants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('first_round', sa.Integer(), nullable=False),
    sa.Column('withdrawn_after', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'name'),
    sa.UniqueConstraint('tournament_id', 'number')
    )
    with op.batch_alter_table('entrants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entrants_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('lots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('place', sa.Integer(), nullable=False),
    sa.Column('drawn', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('lots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lots_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('tournament_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('voided', sa.String(length=200), nullable=True),
    sa.Column('voided_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token'),
    sa.UniqueConstraint('tournament_id', 'round', 'number')
    )
    with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_tables_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournament_tables_tournament_id'), ['tournament_id'], unique=False)

    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_memberships_table_id', 'tournament_tables', ['table_id'], ['id'])



def downgrade():
    with op.batch_alter_table('memberships', schema=None) as batch_op:
        batch_op.drop_constraint('fk_memberships_table_id', type_='foreignkey')
        batch_op.drop_column('table_id')

    with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_tables_tournament_id'))
        batch_op.drop_index(batch_op.f('ix_tournament_tables_game_id'))

    op.drop_table('tournament_tables')
    with op.batch_alter_table('lots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lots_tournament_id'))

    op.drop_table('lots')
    with op.batch_alter_table('entrants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entrants_tournament_id'))

    op.drop_table('entrants')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournaments_group_id'))
        batch_op.drop_index(batch_op.f('ix_tournaments_evening_id'))

    op.drop_table('tournaments')
