"""signing off an evening (its rounds, who confirmed or objected, the lock) and the Kasse's
catalogue of fines, booked per player into the Kasse's book

Revision ID: d1f3a5c7e9b2
Revises: b8d2f4a6c1e3
Create Date: 2026-12-03 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd1f3a5c7e9b2'
down_revision = 'b8d2f4a6c1e3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('signoff_hours', sa.Integer(), server_default='24',
                                   nullable=False))
    with op.batch_alter_table('evenings') as batch:
        batch.add_column(sa.Column('signoff_round', sa.Integer(), server_default='0',
                                   nullable=False))
        batch.add_column(sa.Column('signoff_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('locks_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('locked_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('rounding_cents', sa.Integer(), nullable=True))
    op.create_table(
        'signoffs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('evening_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('player', sa.String(length=40), nullable=False),
        sa.Column('note', sa.String(length=200), nullable=False),
        sa.Column('device', sa.String(length=200), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ),
        sa.PrimaryKeyConstraint('id'))
    with op.batch_alter_table('signoffs') as batch:
        batch.create_index(batch.f('ix_signoffs_evening_id'), ['evening_id'], unique=False)
    op.create_table(
        'fines',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('cents', sa.BigInteger(), nullable=False),
        sa.Column('kind', sa.String(length=8), nullable=False),
        sa.Column('archived', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ),
        sa.PrimaryKeyConstraint('id'))
    with op.batch_alter_table('fines') as batch:
        batch.create_index(batch.f('ix_fines_group_id'), ['group_id'], unique=False)
    with op.batch_alter_table('kasse_entries') as batch:
        batch.add_column(sa.Column('player', sa.String(length=40), server_default='',
                                   nullable=False))
        batch.add_column(sa.Column('fine_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('batch', sa.String(length=32), server_default='',
                                   nullable=False))
        batch.create_foreign_key('fk_kasse_entries_fine_id', 'fines', ['fine_id'], ['id'])


def downgrade():
    # a fine's lines become plain deposits, so the Kasse's balance stays what it was
    op.execute("UPDATE kasse_entries SET kind = 'deposit' WHERE kind = 'fine'")
    with op.batch_alter_table('kasse_entries') as batch:
        batch.drop_constraint('fk_kasse_entries_fine_id', type_='foreignkey')
        batch.drop_column('batch')
        batch.drop_column('fine_id')
        batch.drop_column('player')
    with op.batch_alter_table('fines') as batch:
        batch.drop_index(batch.f('ix_fines_group_id'))
    op.drop_table('fines')
    with op.batch_alter_table('signoffs') as batch:
        batch.drop_index(batch.f('ix_signoffs_evening_id'))
    op.drop_table('signoffs')
    with op.batch_alter_table('evenings') as batch:
        batch.drop_column('rounding_cents')
        batch.drop_column('locked_at')
        batch.drop_column('locks_at')
        batch.drop_column('signoff_at')
        batch.drop_column('signoff_round')
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('signoff_hours')
