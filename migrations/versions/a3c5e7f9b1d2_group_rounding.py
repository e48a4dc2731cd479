"""a group can round its settlement payments (0,10 €, 0,50 €, 1 €); the Kasse takes the rest

Revision ID: a3c5e7f9b1d2
Revises: f1a7c3e9d2b4
Create Date: 2026-12-02 02:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a3c5e7f9b1d2'
down_revision = 'f1a7c3e9d2b4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('rounding_cents', sa.Integer(), server_default='0',
                                   nullable=False))


def downgrade():
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('rounding_cents')
