"""docs/bindings-python.md runs as written: its Python examples in order, each compared with
the ``output`` block under it, and its install commands."""
import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import BINDING_ROOT, SOURCE_ROOT

GUIDE = os.path.join(SOURCE_ROOT, "docs", "bindings-python.md")
BLOCK = re.compile(r"```(python|output|sh)\n(.*?)```", re.S)
pytestmark = pytest.mark.skipif(not os.path.exists(GUIDE), reason="docs/ is not beside this checkout")


def blocks():
    """(kind, text) of the guide's python, output and sh blocks, in order."""
    with open(GUIDE, encoding="utf-8") as guide:
        return BLOCK.findall(guide.read())


def matches(expected, printed):
    """The printed text is the output block's, where "..." stands for anything on its line."""
    checker = doctest.OutputChecker()
    return checker.check_output(expected, printed, doctest.ELLIPSIS)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_guide_examples_run_in_order_and_print_what_it_shows(tmp_path, monkeypatch, with_installed_metadata):
    pytest.importorskip("dask.array")
    pytest.importorskip("xarray")
    pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    printed, compared, ran = None, 0, 0
    for number, (kind, text) in enumerate(blocks(), start=1):
        if kind == "python":
            captured = io.StringIO()
            with contextlib.redirect_stdout(captured):
                exec(compile(text, f"{GUIDE} block {number}", "exec"), namespace)
            printed, ran = captured.getvalue(), ran + 1
        elif kind == "output":
            assert printed is not None, f"block {number}: an output block follows no python block"
            assert matches(text, printed), f"block {number}: the example printed\n{printed}\nnot\n{text}"
            printed, compared = None, compared + 1
    assert ran >= 10 and compared >= 10


def install_commands():
    """The commands of the guide's sh blocks that install the package."""
    return [line for kind, text in blocks() if kind == "sh" for line in text.splitlines()
            if "pip install" in line or "-m venv" in line]


def test_the_install_commands_install_a_package_xarray_finds(tmp_path, with_installed_metadata):
    pytest.importorskip("xarray")
    commands = install_commands()
    assert len(commands) == 3, commands
    checkout = tmp_path / "checkout"
    shutil.copytree(BINDING_ROOT, checkout / "bindings" / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
    for command in commands:
        words = [os.path.expanduser(w).replace(os.path.expanduser("~"), str(home)) if w.startswith("~") else w
                 for w in shlex.split(command)]
        if words[0] == "python3":
            words[0] = sys.executable  # the interpreter with Debian's packages, whatever PATH says
        done = subprocess.run(words, cwd=checkout, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    libzarr_root = os.path.dirname(os.path.abspath(__file__))
    dataset = tmp_path / "d.zarr"
    probe = ("import xarray as xr, libzarr, sys; g = libzarr.group(sys.argv[1]); "
             "g.create_array('v', shape=(3,), dtype='i4', dimension_names=['x'])[...] = [1, 2, 3]; "
             "print(libzarr.__file__); print(xr.open_dataset(sys.argv[1], engine='libzarr').v.values.tolist())")
    for python, extra in [(home / "venv" / "bin" / "python", {}), (sys.executable, {"PYTHONPATH": str(home / "pylib")})]:
        done = subprocess.run([str(python), "-c", probe, str(dataset)], cwd=tmp_path, env={**env, **extra},
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        module, values = done.stdout.splitlines()
        assert str(home) in module and not module.startswith(libzarr_root) and values == "[1, 2, 3]"
        shutil.rmtree(dataset)


def test_the_h5py_page_example_prints_what_it_shows(tmp_path, monkeypatch):
    """docs/coming-from-h5py-and-tensorstore.md: its example runs the same steps with h5py
    and libzarr, and prints the output block under it."""
    pytest.importorskip("h5py")
    with open(os.path.join(SOURCE_ROOT, "docs", "coming-from-h5py-and-tensorstore.md"), encoding="utf-8") as page:
        found = BLOCK.findall(page.read())
    (_, code), (kind, expected) = found[0], found[1]
    assert kind == "output"
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "coming-from-h5py-and-tensorstore.md", "exec"), {})  # noqa: S102
    assert matches(expected, printed.getvalue()), printed.getvalue()
