"""掼蛋 (Guandan): the guandan-lyg rulebook."""
