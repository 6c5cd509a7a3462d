"""Flask-Migrate: `flask db upgrade` on an empty database builds exactly the models' schema."""

from __future__ import annotations

import sqlalchemy as sa


def test_upgrade_on_an_empty_database_matches_the_models(database_url):
    from app import create_app
    from web.extensions import db

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"})
    runner = app.test_cli_runner()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        tables = set(sa.inspect(db.engine).get_table_names())
        assert set(db.metadata.tables) <= tables
        assert "alembic_version" in tables
    check = runner.invoke(args=["db", "check"])
    assert check.exit_code == 0, check.output  # no model change lacks a migration
    again = runner.invoke(args=["db", "upgrade"])
    assert again.exit_code == 0, again.output
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
