#!/usr/bin/env python3
"""Check the hand-written FFI declarations of the bindings against zarr.h.

Bindings declare the C functions they call by hand (no bindgen, no
Clang.jl), so nothing but this check notices when the header changes under
them. For each binding file it checks that:

  - every C function the binding declares or calls exists in the header,
    with the same number of parameters and ABI-compatible types;
  - every ZARR_* constant it defines has the header's value;
  - with --complete, every function of the header is declared (a -sys crate
    declares the whole API).

Go is not listed: cgo reads zarr.h itself, so its compiler does this check.

    check_declarations.py HEADER --rust FILE --julia FILE --fortran FILE [--complete rust]

Prints one GoogleTest-style line per binding and a summary; exits 1 on any
mismatch, naming the function, parameter and both types.
"""
import argparse
import re
import sys
from dataclasses import dataclass

# A type is reduced to (base, pointer depth): 'const' does not change the ABI.
# ANY is the pointee of an untyped pointer (Fortran's c_ptr), which matches
# whatever the header points to. VOID as a binding's pointee also matches the
# header's opaque handles (zarr_array *), as Julia's Ptr{Cvoid} is used.
ANY = "any"
VOID = "void"
OPAQUE_HANDLES = {"zarr_array", "zarr_group", "zarr_codec"}


@dataclass(frozen=True)
class CType:
    base: str
    depth: int = 0

    def __str__(self):
        return self.base + "*" * self.depth


@dataclass
class Function:
    name: str
    result: CType
    params: list  # of CType
    where: str    # file:line of the declaration, for messages


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


# ---------------------------------------------------------------------------
# The C header
# ---------------------------------------------------------------------------

C_BASES = {"unsigned": "unsigned", "unsigned int": "unsigned", "int": "int", "size_t": "size_t",
           "uint64_t": "uint64_t", "int64_t": "int64_t", "uint32_t": "uint32_t", "char": "char",
           "void": "void"}


def parse_c_type(text):
    """'const uint64_t *' -> CType('uint64_t', 1)."""
    depth = text.count("*")
    words = [w for w in text.replace("*", " ").split() if w not in ("const", "struct")]
    base = " ".join(words)
    return CType(C_BASES.get(base, base), depth)


def parse_c_param(text):
    """'const uint64_t *start' -> CType('uint64_t', 1); the name is dropped."""
    text = text.strip()
    match = re.match(r"(.*?)(\w+)$", text)
    if not match or not match.group(1).strip():
        return parse_c_type(text)  # an unnamed parameter
    return parse_c_type(match.group(1))


def parse_header(path):
    text = read_text(path)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    functions = {}
    for m in re.finditer(r"ZARR_API\s+([^;(]*?)\b(zarr_\w+)\s*\(([^)]*)\)\s*;", text, re.S):
        params_text = m.group(3).strip()
        params = [] if params_text in ("", "void") else [parse_c_param(p) for p in params_text.split(",")]
        functions[m.group(2)] = Function(m.group(2), parse_c_type(m.group(1)), params,
                                         f"{path}:{line_of(text, m.start())}")
    constants = {m.group(1): int(m.group(2))
                 for m in re.finditer(r"#define\s+(ZARR_\w+)\s+\(?(-?\d+)\)?\s*$", text, re.M)}
    return functions, constants


# ---------------------------------------------------------------------------
# Rust: extern "C" { pub fn zarr_x(a: *mut T, ...) -> c_int; } and pub const
# ---------------------------------------------------------------------------

RUST_BASES = {"c_int": "int", "c_uint": "unsigned", "usize": "size_t", "u64": "uint64_t",
              "i64": "int64_t", "u32": "uint32_t", "c_char": "char", "c_void": "void", "()": "void"}


def parse_rust_type(text):
    text = text.strip()
    depth = 0
    while True:
        m = re.match(r"\*\s*(const|mut)\s+(.*)", text, re.S)
        if not m:
            break
        depth += 1
        text = m.group(2).strip()
    text = text.split("::")[-1]  # std::os::raw::c_int -> c_int
    return CType(RUST_BASES.get(text, text), depth)


def parse_rust(path):
    text = read_text(path)
    text = re.sub(r"//[^\n]*", "", text)
    functions = {}
    for m in re.finditer(r"\bfn\s+(zarr_\w+)\s*\(([^)]*)\)\s*(?:->\s*([^;{]+))?;", text, re.S):
        params = [p for p in m.group(2).split(",") if p.strip()]
        types = [parse_rust_type(p.split(":", 1)[1]) for p in params]
        result = parse_rust_type(m.group(3)) if m.group(3) else CType("void")
        functions[m.group(1)] = Function(m.group(1), result, types, f"{path}:{line_of(text, m.start())}")
    constants = {m.group(1): int(m.group(2).replace("_", ""))
                 for m in re.finditer(r"\bconst\s+(ZARR_\w+)\s*:\s*\w+\s*=\s*(-?[\d_]+)\s*;", text)}
    return functions, constants


# ---------------------------------------------------------------------------
# Julia: ccall((:zarr_x, libzarr), Ret, (T1, T2), args...) and const ZARR_X = n
# ---------------------------------------------------------------------------

JULIA_BASES = {"Cint": "int", "Cuint": "unsigned", "Csize_t": "size_t", "UInt64": "uint64_t",
               "Int64": "int64_t", "UInt32": "uint32_t", "UInt8": "char", "Cchar": "char",
               "Cvoid": "void", "Nothing": "void"}


def split_top_level(text, separator=","):
    """Split at separators outside (), {} and []."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def closing(text, start):
    """Index just past the bracket that closes the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "({[":
            depth += 1
        elif text[i] in ")}]":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced brackets")


def parse_julia_type(text):
    text = text.strip()
    m = re.fullmatch(r"(Ptr|Ref)\{(.*)\}", text, re.S)
    if m:
        inner = parse_julia_type(m.group(2))
        return CType(inner.base, inner.depth + 1)
    if text == "Cstring":
        return CType("char", 1)
    return CType(JULIA_BASES.get(text, text), 0)


def parse_julia(path):
    text = read_text(path)
    text = re.sub(r"#[^\n]*", "", text)
    functions = {}
    for m in re.finditer(r"ccall\(", text):
        args = split_top_level(text[m.end():closing(text, m.end() - 1) - 1])
        name = re.match(r"\(\s*:(\w+)\s*,", args[0])
        if not name or not name.group(1).startswith("zarr_"):
            continue
        arg_types = args[2].strip()
        if not (arg_types.startswith("(") and arg_types.endswith(")")):
            raise SystemExit(f"{path}:{line_of(text, m.start())}: ccall argument types must be a tuple")
        types = [parse_julia_type(t) for t in split_top_level(arg_types[1:-1])]
        fn = Function(name.group(1), parse_julia_type(args[1]), types, f"{path}:{line_of(text, m.start())}")
        functions.setdefault(fn.name, []).append(fn)  # one function may be called in several places
    constants = {m.group(1): int(m.group(2))
                 for m in re.finditer(r"\bconst\s+(ZARR_\w+)\s*=\s*(?:Cint\()?\s*(-?\d+)\)?", text)}
    return functions, constants


# ---------------------------------------------------------------------------
# Fortran: interface blocks with bind(C, name='zarr_x') and integer parameters
# ---------------------------------------------------------------------------

FORTRAN_KINDS = {"c_int": "int", "c_size_t": "size_t", "c_int64_t": "int64", "c_int32_t": "int32",
                 "c_char": "char"}


def fortran_declarations(body):
    """Map each dummy's name to (kind or 'c_ptr', has VALUE, is array)."""
    found = {}
    for line in body.splitlines():
        m = re.match(r"\s*(type\s*\(\s*c_ptr\s*\)|integer\s*\(\s*(?:kind\s*=\s*)?(\w+)\s*\)|"
                     r"character\s*\(\s*kind\s*=\s*(\w+)\s*\))\s*(,[^:]*)?::(.*)", line, re.I)
        if not m:
            continue
        kind = "c_ptr" if m.group(1).lower().startswith("type") else (m.group(2) or m.group(3)).lower()
        attributes = (m.group(4) or "").lower()
        for entity in split_top_level(m.group(5)):
            ename = re.match(r"(\w+)", entity).group(1).lower()
            found[ename] = (kind, "value" in attributes, "(" in entity or "dimension" in attributes)
    return found


def fortran_ctype(kind, by_value, is_array):
    if kind == "c_ptr":
        return CType(ANY, 1 if by_value else 2)
    base = FORTRAN_KINDS.get(kind, kind)
    return CType(base, 0 if by_value and not is_array else 1)


def parse_fortran(path):
    text = read_text(path)
    text = re.sub(r"!.*", "", text)
    text = re.sub(r"&\s*\n\s*&?", " ", text)  # join continuation lines
    functions = {}
    pattern = (r"^[ \t]*(?:([^\n]*?)[ \t]+)?(function|subroutine)\s+(\w+)\s*\(([^)]*)\)[^\n]*?"
               r"bind\s*\(\s*c\s*,\s*name\s*=\s*['\"](\w+)['\"]\s*\)(.*?)end\s+\2")
    for m in re.finditer(pattern, text, re.S | re.I | re.M):
        if not m.group(5).startswith("zarr_"):
            continue  # the C library's own functions (strlen)
        dummies = [d.strip().lower() for d in m.group(4).split(",") if d.strip()]
        declared = fortran_declarations(m.group(6))
        missing = [d for d in dummies if d not in declared]
        if missing:
            raise SystemExit(f"{path}:{line_of(text, m.start())}: no declaration for {missing}")
        params = [fortran_ctype(*declared[d]) for d in dummies]
        if m.group(2).lower() == "subroutine":
            result = CType("void")
        else:
            prefix = (m.group(1) or "").strip()
            rm = re.match(r"(type\s*\(\s*c_ptr\s*\)|integer\s*\(\s*(\w+)\s*\))", prefix, re.I)
            if not rm:
                raise SystemExit(f"{path}:{line_of(text, m.start())}: give the result type in the function line")
            result = fortran_ctype("c_ptr" if rm.group(2) is None else rm.group(2).lower(), True, False)
        fn = Function(m.group(5), result, params, f"{path}:{line_of(text, m.start())}")
        functions.setdefault(fn.name, []).append(fn)
    constants = {m.group(1).upper(): int(m.group(2))
                 for m in re.finditer(r"::\s*(ZARR_\w+)\s*=\s*(-?\d+)", text, re.I)}
    return functions, constants


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------

# Fortran has no unsigned integers: its 64-bit and 32-bit integers pass either.
SAME_WIDTH = {"int64": {"int64_t", "uint64_t"}, "int32": {"int", "uint32_t", "unsigned"}}


def compatible(binding, header):
    if binding.depth != header.depth:
        return False
    if binding.base == header.base or binding.base == ANY:
        return True
    if binding.base == VOID and binding.depth > 0 and header.base in OPAQUE_HANDLES | {VOID}:
        return True
    return header.base in SAME_WIDTH.get(binding.base, ())


def compare_function(fn, header_functions):
    """Problems with one declaration, as messages."""
    if fn.name not in header_functions:
        return [f"{fn.where}: {fn.name} is not in zarr.h"]
    c = header_functions[fn.name]
    if len(fn.params) != len(c.params):
        return [f"{fn.where}: {fn.name} takes {len(fn.params)} arguments here, {len(c.params)} in zarr.h ({c.where})"]
    problems = []
    if not compatible(fn.result, c.result):
        problems.append(f"{fn.where}: {fn.name} returns {fn.result} here, {c.result} in zarr.h")
    for i, (mine, theirs) in enumerate(zip(fn.params, c.params)):
        if not compatible(mine, theirs):
            problems.append(f"{fn.where}: {fn.name} parameter {i + 1} is {mine} here, {theirs} in zarr.h")
    return problems


def check_binding(parsed, header_functions, header_constants, complete):
    functions, constants = parsed
    problems = []
    for declarations in functions.values():
        for fn in declarations if isinstance(declarations, list) else [declarations]:
            problems += compare_function(fn, header_functions)
    for name, value in sorted(constants.items()):
        if name not in header_constants:
            problems.append(f"constant {name} is not in zarr.h")
        elif header_constants[name] != value:
            problems.append(f"constant {name} is {value} here, {header_constants[name]} in zarr.h")
    if complete:
        problems += [f"{name} from zarr.h is not declared" for name in sorted(set(header_functions) - set(functions))]
    return problems, len(functions), len(constants)


PARSERS = {"rust": parse_rust, "julia": parse_julia, "fortran": parse_fortran}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("header")
    for language in PARSERS:
        parser.add_argument(f"--{language}", action="append", default=[], metavar="FILE")
    parser.add_argument("--complete", action="append", default=[], choices=list(PARSERS),
                        help="also require every header function to be declared")
    args = parser.parse_args(argv)
    header_functions, header_constants = parse_header(args.header)
    checked = failed = 0
    for language, parse in PARSERS.items():
        for path in getattr(args, language):
            problems, n_functions, n_constants = check_binding(
                parse(path), header_functions, header_constants, language in args.complete)
            checked += 1
            for problem in problems:
                print(problem)
            if problems or n_functions == 0:
                failed += 1
                reason = "no zarr_* functions found" if n_functions == 0 else f"{len(problems)} problems"
                print(f"[  FAILED  ] declarations.{language} ({path}): {reason}")
            else:
                print(f"[       OK ] declarations.{language}: {n_functions} functions and "
                      f"{n_constants} constants match zarr.h ({path})")
    print(f"[==========] {checked} tests ran.")
    print(f"[  PASSED  ] {checked - failed} tests.")
    if failed:
        print(f"[  FAILED  ] {failed} tests.")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
