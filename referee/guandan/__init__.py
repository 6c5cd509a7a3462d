"""掼蛋 (Guandan): the guandan-lyg rulebook (seed 004).

Entry points for `referee.record` and the command line:

- `replay_guandan(rulebook, doc) -> dict`: the `table-result/1` JSON of a Guandan record;
- `simulate_guandan(rulebook, seed) -> dict`: a complete, legal random table record.
"""

from referee.guandan.match import replay_guandan
from referee.guandan.simulate import simulate_guandan

__all__ = ["replay_guandan", "simulate_guandan"]
