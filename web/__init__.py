"""The Flask side of Table Referee: extensions, models, services and blueprints."""
