"""掼蛋 (Guandan): the guandan-lyg rulebook (seed 004, RULEBOOKS.md §4, I-11 to I-13).

Entry points for `referee.record` and the command line:

- `replay_guandan(rulebook, doc) -> dict`: the `table-result/1` JSON of a Guandan record
  (partial records too); `InvalidRecordError(msg, deal=, event=)` when it cannot be replayed;
- `simulate_guandan(rulebook, seed) -> dict`: a complete, legal random table record.

Modules: `combos` (classify, readings, beats), `deal` (one deal's events), `match`
(promotion, A level, match end), `simulate`.

Record extensions (besides RECORD_FORMAT.md's Guandan events):

- document `on_table`: the side on the table (台上) for deal 1 (default 0);
- document `time_up: true`, or `elapsed_minutes` ≥ the rulebook's 90: the clock ran out
  after the recorded deals; a `{"type": "time_up"}` event stops the match inside a deal
  (an unfinished deal is `abandoned`). The side ahead wins, equal levels → the side on
  the table (seed 六.1);
- deal `leader`: deal 1's first player (drawn by random card, seed 四.1); when given, a
  different first lead is a `wrong_leader` violation. Later deals: the tribute decides;
- play `combo: {"kind", "rank"?}`: the reading the referee stated for ambiguous cards
  (wilds); otherwise the strongest reading that beats the table counts (seed 三.3);
- penalty `take_back: false` (kind `no_report`): the opponents decline the take-back;
- a `result` after a deal finished by play is accepted when it agrees with the order.

Deal result fields: `number level on_table phase (tribute|playing|finished|abandoned)
leader next_to_play cards_left order quick_entry plays[{event seat cards combo
taken_back?}] tribute_due tributes returns anti_tribute reports penalties[{event seat side
kind effect note?}] violations levels_before outcome{side levels_up passed_a} levels_after
tribute_next{kind payers receivers first} a_attempts a_series disqualified time_up`.
Match: `levels on_table a_attempts a_series finished winner reason
(passed_a|time_up|disqualified)`.

Violation kinds: `not_a_combination does_not_beat out_of_turn pass_on_lead wrong_leader
tribute_wrong_payer tribute_wrong_receiver tribute_not_highest (proof_event = the payer's
later play) tribute_missing return_too_high return_wrong_seat return_missing
anti_tribute_invalid wrong_report`.

Penalty effects: `timeout` → every 2nd of a side drops it one level; `no_report` →
take-back of the unreported play while it is the last play, a level drop after two
unreported plays, else none; `wrong_play`, `dropped_card`, `out_of_turn` → the player's
next turn is skipped (停止一轮); fouls (those three, `talking`, `other`) of one player
reaching 3 → disqualification, the other side wins.
"""

from referee.guandan.match import replay_guandan
from referee.guandan.simulate import simulate_guandan

__all__ = ["replay_guandan", "simulate_guandan"]
