"""Vision test fixtures: the shipped model (the development photos' `carddata` fixture is
in tests/conftest.py, shared with the camera's end-to-end tests)."""

from __future__ import annotations

import pytest

from vision.detector import MODEL_PATH


@pytest.fixture(scope="session")
def model() -> None:
    if not MODEL_PATH.exists():
        pytest.fail(f"the shipped model {MODEL_PATH} is missing (python -m vision.training.train)")
