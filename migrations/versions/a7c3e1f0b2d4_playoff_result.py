"""playoff result (knockout play-off winners)

Revision ID: a7c3e1f0b2d4
Revises: 8db5ec9fff96
Create Date: 2026-11-29 18:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7c3e1f0b2d4'
down_revision = '8db5ec9fff96'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('playoff_result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('winner_pair_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('actor', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], name=op.f('fk_playoff_result_match_id_match'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['winner_pair_id'], ['pair.id'], name=op.f('fk_playoff_result_winner_pair_id_pair'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_playoff_result'))
    )
    with op.batch_alter_table('playoff_result', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_playoff_result_match_id'), ['match_id'], unique=True)


def downgrade():
    with op.batch_alter_table('playoff_result', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_playoff_result_match_id'))

    op.drop_table('playoff_result')
