"""memberships kept on the server, PIN attempts counted in the database

A phone's groups move from its cookie to `memberships` (the cookie keeps one device id; a phone
with the old cookie has its groups moved over on its next visit, see access._adopt_old_cookie).
`attempts` counts PIN attempts per window, so a restart or a second process does not reset them.

Revision ID: f1a7c3e9d2b4
Revises: e5f2c8a1d3b7
Create Date: 2026-12-02 01:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f1a7c3e9d2b4'
down_revision = 'e5f2c8a1d3b7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'memberships',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('device', sa.String(length=64), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(length=8), nullable=False),
        sa.Column('fingerprint', sa.String(length=64), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id']),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('device', 'group_id'),
    )
    op.create_index('ix_memberships_device', 'memberships', ['device'])
    op.create_index('ix_memberships_group_id', 'memberships', ['group_id'])
    op.create_table(
        'attempts',
        sa.Column('key', sa.String(length=200), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.Column('expires', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('key'),
    )
    op.create_index('ix_attempts_expires', 'attempts', ['expires'])


def downgrade():
    op.drop_index('ix_attempts_expires', table_name='attempts')
    op.drop_table('attempts')
    op.drop_index('ix_memberships_group_id', table_name='memberships')
    op.drop_index('ix_memberships_device', table_name='memberships')
    op.drop_table('memberships')
