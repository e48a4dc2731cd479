"""standings figures as one mapping per result

Each game counts its own figures for the standings (lines, wins, moons ...); they were one column
per figure, most of them empty for any one game. They are now one JSON mapping per result, with
the names the game's adapter uses. The upgrade copies every figure a row has (not 0) into it; the
downgrade copies them back.

Revision ID: b7d3e5f1a2c4
Revises: 8a1f29af34ba
Create Date: 2026-12-01 12:20:00

"""
import json

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d3e5f1a2c4'
down_revision = '8a1f29af34ba'
branch_labels = None
depends_on = None

SMALL = ['hands', 'games', 'rubbers', 'wins', 'lines', 'moons']
BIG = ['points', 'best_pot_cents']


def upgrade():
    with op.batch_alter_table('results') as batch:
        batch.add_column(sa.Column('figures', sa.JSON(), nullable=True))
    results = sa.table('results', sa.column('id'), sa.column('figures', sa.JSON()),
                       *(sa.column(name) for name in SMALL + BIG))
    connection = op.get_bind()
    rows = connection.execute(sa.select(results.c.id, *(results.c[n] for n in SMALL + BIG)))
    for row in rows.mappings().all():
        figures = {name: int(row[name]) for name in SMALL + BIG if row[name]}
        connection.execute(results.update().where(results.c.id == row['id'])
                           .values(figures=figures))
    with op.batch_alter_table('results') as batch:
        batch.alter_column('figures', existing_type=sa.JSON(), nullable=False)
        for name in SMALL + BIG:
            batch.drop_column(name)


def downgrade():
    with op.batch_alter_table('results') as batch:
        for name in SMALL:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default='0'))
        for name in BIG:
            batch.add_column(sa.Column(name, sa.BigInteger(), nullable=False, server_default='0'))
    results = sa.table('results', sa.column('id'), sa.column('figures', sa.JSON()),
                       *(sa.column(name) for name in SMALL + BIG))
    connection = op.get_bind()
    for row in connection.execute(sa.select(results.c.id, results.c.figures)).mappings().all():
        figures = row['figures'] or {}
        if isinstance(figures, str):
            figures = json.loads(figures)
        values = {name: int(figures.get(name, 0)) for name in SMALL + BIG}
        connection.execute(results.update().where(results.c.id == row['id']).values(**values))
    with op.batch_alter_table('results') as batch:
        batch.drop_column('figures')
