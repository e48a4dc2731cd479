"""private groups: a join token, a view token and an optional PIN per group

Every existing group gets its own fresh tokens; its phones join again with the link that
`flask --app scorekeeper join-link SLUG` prints.

Revision ID: d4e8a1c7b9f2
Revises: b7d3e5f1a2c4
Create Date: 2026-12-01 13:00:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e8a1c7b9f2'
down_revision = 'b7d3e5f1a2c4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('token', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('view_token', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('pin_hash', sa.String(length=200), nullable=True))
    groups = sa.table('groups', sa.column('id'), sa.column('token'), sa.column('view_token'))
    connection = op.get_bind()
    for (group_id,) in connection.execute(sa.select(groups.c.id)).all():
        connection.execute(groups.update().where(groups.c.id == group_id).values(
            token=secrets.token_urlsafe(24), view_token=secrets.token_urlsafe(24)))
    with op.batch_alter_table('groups') as batch:
        batch.alter_column('token', existing_type=sa.String(length=64), nullable=False)
        batch.alter_column('view_token', existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint('uq_groups_token', ['token'])
        batch.create_unique_constraint('uq_groups_view_token', ['view_token'])


def downgrade():
    with op.batch_alter_table('groups') as batch:
        batch.drop_constraint('uq_groups_view_token', type_='unique')
        batch.drop_constraint('uq_groups_token', type_='unique')
        batch.drop_column('pin_hash')
        batch.drop_column('view_token')
        batch.drop_column('token')
