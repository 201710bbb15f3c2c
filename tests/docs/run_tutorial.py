"""Run docs/tutorial.md as written: its c, sh and python blocks in order, in one empty folder,
each compared with the ``output`` block under it ("..." stands for anything on its line).

A c block is compiled against the built library and run; a sh block runs with the built
zarrtool first on PATH; a python block runs in one interpreter session with the binding of
this checkout. Exit 0 when every block ran and printed what the page shows, 1 otherwise,
77 (meson's "skipped") when the page is absent.
"""
import argparse
import contextlib
import doctest
import io
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"```(c|sh|python|output)\n(.*?)```", re.S)


def matches(expected, printed):
    return doctest.OutputChecker().check_output(expected, printed, doctest.ELLIPSIS)


def run_c(text, number, args, folder):
    source = os.path.join(folder, f"block{number}.c")
    exe = os.path.join(folder, f"block{number}")
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    command = args.cc + [f"-I{d}" for d in args.include] + ["-Wall", "-Wextra", "-Werror", source, "-o", exe,
                                                             f"-L{args.libdir}", "-lzarr", f"-Wl,-rpath,{args.libdir}"]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    if built.returncode != 0:
        raise AssertionError(f"block {number} does not compile:\n{' '.join(command)}\n{built.stderr}")
    return checked_run([exe], number, folder)


def run_sh(text, number, args, folder):
    env = dict(os.environ, PATH=os.path.dirname(args.zarrtool) + os.pathsep + os.environ.get("PATH", ""))
    printed = ""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            printed += checked_run(["sh", "-c", line], number, folder, env)
    return printed


def checked_run(command, number, folder, env=None):
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise AssertionError(f"block {number}: {command[-1]} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def run_python(text, number, namespace, folder):
    captured = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(captured):
            exec(compile(text, f"tutorial.md block {number}", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return captured.getvalue()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--doc", required=True)
    parser.add_argument("--cc", action="append", required=True, help="the C compiler command, one word each")
    parser.add_argument("--include", action="append", default=[])
    parser.add_argument("--libdir", required=True)
    parser.add_argument("--zarrtool", required=True)
    parser.add_argument("--binding", required=True, help="bindings/python of this checkout")
    args = parser.parse_args()
    args.libdir, args.zarrtool, args.binding = map(os.path.abspath, (args.libdir, args.zarrtool, args.binding))
    args.include = [os.path.abspath(d) for d in args.include]
    if not os.path.exists(args.doc):
        print(f"skipped: {args.doc} is not there")
        return 77
    os.environ["LIBZARR_PATH"] = args.libdir
    sys.path.insert(0, args.binding)
    with open(args.doc, encoding="utf-8") as page:
        blocks = BLOCK.findall(page.read())
    namespace, printed, counts = {}, None, {"c": 0, "sh": 0, "python": 0, "output": 0}
    with tempfile.TemporaryDirectory(prefix="tutorial-") as folder:
        for number, (kind, text) in enumerate(blocks, start=1):
            if kind == "output":
                if printed is None:
                    raise AssertionError(f"block {number}: an output block follows no example")
                if not matches(text, printed):
                    raise AssertionError(f"block {number}: the example printed\n{printed}\nnot\n{text}")
                printed = None
            elif kind == "c":
                printed = run_c(text, number, args, folder)
            elif kind == "sh":
                printed = run_sh(text, number, args, folder)
            else:
                printed = run_python(text, number, namespace, folder)
            counts[kind] += 1
    print(f"ran {counts['c']} C, {counts['sh']} shell and {counts['python']} Python blocks; "
          f"{counts['output']} outputs as shown")
    return 0 if min(counts.values()) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
