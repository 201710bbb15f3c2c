"""Installing offline with pip, and finding the C library: LIBZARR_PATH, pkg-config, errors."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import BINDING_ROOT

PROBE = "import libzarr; print(libzarr.__file__); print(libzarr.library_version())"


def library_file():
    """The libzarr.so.1 this test run uses (from LIBZARR_PATH), or skip."""
    configured = os.environ.get("LIBZARR_PATH")
    if not configured:
        pytest.skip("LIBZARR_PATH is not set: the library's location is unknown to the test")
    return os.path.join(configured, "libzarr.so.1") if os.path.isdir(configured) else configured


def run_python(code, env, cwd):
    """Run code in a fresh interpreter (the library is loaded at import, once per process)."""
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd,
                          capture_output=True, text=True, check=False)


def clean_env(**changes):
    """This environment without LIBZARR_PATH and PYTHONPATH, plus changes."""
    env = {k: v for k, v in os.environ.items() if k not in ("LIBZARR_PATH", "PYTHONPATH")}
    env.update(changes)
    return env


def test_pip_installs_offline_and_the_package_imports(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(BINDING_ROOT, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps",
         "--disable-pip-version-check", "--no-cache-dir", "--target", str(target), str(source)],
        capture_output=True, text=True, check=False)
    assert install.returncode == 0, install.stdout + install.stderr
    probe = run_python(PROBE, clean_env(PYTHONPATH=str(target), LIBZARR_PATH=library_file()), tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[0].startswith(str(target))


@pytest.mark.parametrize("form", ["file", "folder"])
def test_libzarr_path_names_the_file_or_its_folder(tmp_path, form):
    library = library_file()
    path = library if form == "file" else os.path.dirname(library)
    probe = run_python(PROBE, clean_env(PYTHONPATH=BINDING_ROOT, LIBZARR_PATH=path), tmp_path)
    assert probe.returncode == 0, probe.stderr


def test_pkg_config_finds_the_library(tmp_path):
    if not shutil.which("pkg-config"):
        pytest.skip("pkg-config is not installed")
    libdir = os.path.dirname(os.path.realpath(library_file()))
    (tmp_path / "zarr.pc").write_text(
        f"libdir={libdir}\nName: zarr\nDescription: test\nVersion: 0.1.0\nLibs: -L${{libdir}} -lzarr\n")
    env = clean_env(PYTHONPATH=BINDING_ROOT, PKG_CONFIG_PATH=str(tmp_path), PKG_CONFIG_LIBDIR=str(tmp_path))
    probe = run_python("import libzarr._capi as c; print(c.lib._name)", env, tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == os.path.join(libdir, "libzarr.so.1")


def test_a_missing_library_is_an_import_error_naming_where_it_looked(tmp_path):
    missing = str(tmp_path / "nowhere" / "libzarr.so.1")
    probe = run_python("import libzarr", clean_env(PYTHONPATH=BINDING_ROOT, LIBZARR_PATH=missing), tmp_path)
    assert probe.returncode != 0
    assert "ImportError" in probe.stderr and missing in probe.stderr and "LIBZARR_PATH" in probe.stderr
