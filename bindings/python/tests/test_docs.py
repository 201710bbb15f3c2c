"""The Python examples of docs/bindings-python.md run as written."""
import os
import re

import pytest
from conftest import SOURCE_ROOT

GUIDE = os.path.join(SOURCE_ROOT, "docs", "bindings-python.md")


def python_blocks():
    """The ```python blocks of the guide, in order."""
    with open(GUIDE, encoding="utf-8") as guide:
        return re.findall(r"```python\n(.*?)```", guide.read(), re.S)


@pytest.mark.skipif(not os.path.exists(GUIDE), reason="docs/ is not beside this checkout")
def test_guide_examples_run_in_order(tmp_path, monkeypatch, capsys):
    pytest.importorskip("dask.array")
    blocks = python_blocks()
    assert len(blocks) >= 4
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"{GUIDE} python block {number}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "(100, 100) float64 (10, 10)" in printed and "[395. 396. 397. 398. 399.]" in printed
    assert "['empty', 'labels']" in printed and "-2 ZARR_ERR_NOT_FOUND" in printed
