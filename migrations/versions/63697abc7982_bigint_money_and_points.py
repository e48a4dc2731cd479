"""money and points as 64-bit integers

A pot multiplies with every hand many players lose, and a point may be worth up to 10,000
cents: sums over 2**31 cents overflowed PostgreSQL's 32-bit INTEGER. SQLite
stores every integer in 64 bits anyway; there the change only rewrites the declared type.

Revision ID: 63697abc7982
Revises: 5193c10d9bdb
Create Date: 2026-12-01 09:09:16.328366

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '63697abc7982'
down_revision = '5193c10d9bdb'
branch_labels = None
depends_on = None

COLUMNS = {
    'paid_payments': ['cents'],
    'results': ['points', 'best_pot_cents', 'money_cents'],
}
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1


def upgrade():
    for table, columns in COLUMNS.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.alter_column(column,
                                      existing_type=sa.Integer(),
                                      type_=sa.BigInteger(),
                                      existing_nullable=False)


def downgrade():
    bind = op.get_bind()
    if bind.dialect.name != 'sqlite':
        # a 32-bit column cannot hold these: refuse rather than fail halfway or cut amounts
        for table, columns in COLUMNS.items():
            for column in columns:
                too_big = bind.execute(sa.text(
                    f'SELECT count(*) FROM {table} WHERE {column} NOT BETWEEN :low AND :high'),
                    {'low': INT32_MIN, 'high': INT32_MAX}).scalar()
                if too_big:
                    raise RuntimeError(
                        f'cannot downgrade: {table}.{column} holds {too_big} value(s) beyond '
                        f'a 32-bit integer')
    for table, columns in reversed(COLUMNS.items()):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in reversed(columns):
                batch_op.alter_column(column,
                                      existing_type=sa.BigInteger(),
                                      type_=sa.Integer(),
                                      existing_nullable=False)
