"""`flask director add NAME` / `flask director password NAME`: manage director logins."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from web.extensions import db
from web.models import User

director_cli = AppGroup("director", help="Director logins.")


@director_cli.command("add")
@click.argument("username")
@click.password_option()
def add(username: str, password: str) -> None:
    """Create a director login (the password is stored hashed)."""
    if db.session.execute(db.select(User).filter_by(username=username)).scalar_one_or_none():
        raise click.ClickException(f"director {username!r} exists")
    user = User(username=username, is_director=True)
    user.set_password(password)
    db.session.add(user)
    db.session.commit()
    click.echo(f"director {username!r} created")


@director_cli.command("password")
@click.argument("username")
@click.password_option()
def change_password(username: str, password: str) -> None:
    """Set a director's password."""
    user = db.session.execute(db.select(User).filter_by(username=username)).scalar_one_or_none()
    if user is None:
        raise click.ClickException(f"no director {username!r}")
    user.set_password(password)
    db.session.commit()
    click.echo(f"password of {username!r} changed")
