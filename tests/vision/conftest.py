"""Vision test fixtures: the shipped model (the development photos' `carddata` fixture is
in tests/conftest.py, shared with the camera's end-to-end tests)."""

from __future__ import annotations

import pytest

from vision.detector import MODEL_PATH


@pytest.fixture(autouse=True)
def held_back_fifth_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests pin the held-back fifth the shipped models were trained without (fifth
    0), whatever `VISION_HELD_BACK` the shell has."""
    monkeypatch.delenv("VISION_HELD_BACK", raising=False)


@pytest.fixture(scope="session")
def model() -> None:
    if not MODEL_PATH.exists():
        pytest.fail(f"the shipped model {MODEL_PATH} is missing (python -m vision.training.train)")
