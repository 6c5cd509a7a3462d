"""Director forms (Flask-WTF: every form carries a CSRF token)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from referee.rulebooks import PRESETS

LEVEL_CHOICES = [SelectChoice(r, r) for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


class LoginForm(FlaskForm):
    username = StringField(_l("User name"), validators=[DataRequired(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired()])
    submit = SubmitField(_l("Log in"))


class EventForm(FlaskForm):
    name = StringField(_l("Event name"), validators=[DataRequired(), Length(max=200)])
    rulebook = SelectField(
        _l("Rulebook"),
        choices=[SelectChoice(name, f"{name} — {book.title}") for name, book in PRESETS.items()],
    )
    options = TextAreaField(
        _l("Option overrides (JSON)"),
        default="{}",
        description=_l('For example {"trump_chain": "stated"}; empty = the preset as it is.'),
    )
    level_a = SelectField(_l("Start level, side A (seats 0 and 2)"), choices=LEVEL_CHOICES)
    level_b = SelectField(_l("Start level, side B (seats 1 and 3)"), choices=LEVEL_CHOICES)
    submit = SubmitField(_l("Save event"))


class PairForm(FlaskForm):
    name = StringField(_l("Pair / team name"), validators=[DataRequired(), Length(max=120)])
    club = StringField(_l("Club"), validators=[Optional(), Length(max=120)])
    player1 = StringField(_l("Player 1"), validators=[DataRequired(), Length(max=120)])
    player2 = StringField(_l("Player 2"), validators=[DataRequired(), Length(max=120)])
    submit = SubmitField(_l("Add pair"))


class TablesForm(FlaskForm):
    count = IntegerField(
        _l("Number of tables to add"), default=1, validators=[NumberRange(min=1, max=100)]
    )
    submit = SubmitField(_l("Add tables"))


class MatchForm(FlaskForm):
    round = IntegerField(_l("Round"), default=1, validators=[NumberRange(min=1, max=999)])
    table_id = SelectField(_l("Table"), coerce=int)
    pair_a_id = SelectField(_l("Pair A (seats 0 and 2)"), coerce=int)
    pair_b_id = SelectField(_l("Pair B (seats 1 and 3)"), coerce=int)
    swap_a = BooleanField(_l("Swap pair A's seats"))
    swap_b = BooleanField(_l("Swap pair B's seats"))
    submit = SubmitField(_l("Create match"))


class SeatsForm(FlaskForm):
    seat0 = StringField(_l("Seat 0"), validators=[DataRequired(), Length(max=120)])
    seat1 = StringField(_l("Seat 1"), validators=[DataRequired(), Length(max=120)])
    seat2 = StringField(_l("Seat 2"), validators=[DataRequired(), Length(max=120)])
    seat3 = StringField(_l("Seat 3"), validators=[DataRequired(), Length(max=120)])
    submit = SubmitField(_l("Seat the players"))


class CorrectionForm(FlaskForm):
    event_json = TextAreaField(_l("Corrected event (JSON)"), validators=[Optional()])
    void = BooleanField(_l("Void this event (remove it from the record)"))
    reason = StringField(_l("Reason"), validators=[DataRequired(), Length(max=500)])
    submit = SubmitField(_l("Save correction"))


class ImportRecordForm(FlaskForm):
    file = FileField(_l("Table record file (JSON)"))
    text = TextAreaField(_l("…or paste the record"), validators=[Optional()])
    submit = SubmitField(_l("Import record"))


class ImportResultsForm(FlaskForm):
    file = FileField(_l("Results file (CSV)"))
    submit = SubmitField(_l("Check results CSV"))


class ActionForm(FlaskForm):
    """An empty form: a CSRF-protected button (log out, undo)."""

    submit = SubmitField(_l("OK"))
