"""Table Referee (牌桌裁判): the rules engine for 升级 (Shengji) and 掼蛋 (Guandan).

Pure Python, standard library only: no Flask, no database.

>>> from referee.cards import parse_card
>>> str(parse_card("T♥"))
'10H'
"""

__version__ = "0.1.0"
