"""The `>>>` examples in the trick modules' docstrings are true (they document the API)."""

from __future__ import annotations

import doctest

import pytest

from referee.shengji import follow, order, tricks


@pytest.mark.parametrize("module", [order, tricks, follow], ids=lambda m: m.__name__)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
