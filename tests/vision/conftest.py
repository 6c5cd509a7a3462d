"""Vision test fixtures: the development photos and the shipped model."""

from __future__ import annotations

import pytest

from vision.detector import MODEL_PATH
from vision.labels import carddata_dir


@pytest.fixture(scope="session")
def carddata():  # type: ignore[no-untyped-def]
    root = carddata_dir()
    if not (root / "roboflow_zk7wu").is_dir():
        pytest.skip(f"card photos not found at {root}")
    return root


@pytest.fixture(scope="session")
def model() -> None:
    if not MODEL_PATH.exists():
        pytest.fail(f"the shipped model {MODEL_PATH} is missing (python -m vision.training.train)")
