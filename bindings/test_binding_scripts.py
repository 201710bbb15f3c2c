"""Tests of the bindings' test machinery: the declaration checker finds each
kind of mismatch in each language, and the runner reads each tool's counts.

    python3 -m unittest bindings/test_binding_scripts.py   (or run the file)
"""
import contextlib
import io
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_declarations as checker  # noqa: E402
import check_docs_examples as docs  # noqa: E402
import run_binding_test as runner  # noqa: E402

HEADER = """
#define ZARR_OK 0
#define ZARR_ERR_NOT_FOUND (-2)
typedef struct zarr_array zarr_array;
/** A comment mentioning ZARR_API int zarr_fake(void); */
ZARR_API int zarr_open(zarr_array **out, const char *url, const char *mode);
ZARR_API size_t zarr_ndim(const zarr_array *array);
ZARR_API int zarr_read_region(zarr_array *array, size_t ndim, const uint64_t *start,
                              const uint64_t *count, void *out, size_t nbytes);
ZARR_API void zarr_free(void *p);
"""


def problems(language, source, complete=False):
    """What the checker says about one binding source against HEADER."""
    with tempfile.TemporaryDirectory() as folder:
        header, binding = os.path.join(folder, "zarr.h"), os.path.join(folder, "binding")
        with open(header, "w") as f:
            f.write(HEADER)
        with open(binding, "w") as f:
            f.write(textwrap.dedent(source))
        functions, constants = checker.parse_header(header)
        found, _, _ = checker.check_binding(checker.PARSERS[language](binding), functions, constants, complete)
        return found


RUST_GOOD = """
    pub const ZARR_ERR_NOT_FOUND: c_int = -2;
    extern "C" {
        pub fn zarr_open(out: *mut *mut zarr_array, url: *const c_char, mode: *const c_char) -> c_int;
        pub fn zarr_ndim(array: *const zarr_array) -> usize;
        pub fn zarr_read_region(array: *mut zarr_array, ndim: usize, start: *const u64, count: *const u64,
                                out: *mut c_void, nbytes: usize) -> c_int;
        pub fn zarr_free(p: *mut c_void);
    }
"""


class HeaderTest(unittest.TestCase):
    def test_comments_are_not_declarations(self):
        with tempfile.NamedTemporaryFile("w", suffix=".h") as f:
            f.write(HEADER)
            f.flush()
            functions, constants = checker.parse_header(f.name)
        self.assertEqual(sorted(functions), ["zarr_free", "zarr_ndim", "zarr_open", "zarr_read_region"])
        self.assertEqual(constants, {"ZARR_OK": 0, "ZARR_ERR_NOT_FOUND": -2})
        self.assertEqual([str(p) for p in functions["zarr_open"].params], ["zarr_array**", "char*", "char*"])
        self.assertEqual(str(functions["zarr_ndim"].result), "size_t")


class RustTest(unittest.TestCase):
    def test_matching_declarations_pass_complete(self):
        self.assertEqual(problems("rust", RUST_GOOD, complete=True), [])

    def test_a_missing_argument_is_reported(self):
        found = problems("rust", RUST_GOOD.replace(", mode: *const c_char", ""))
        self.assertEqual(len(found), 1)
        self.assertIn("zarr_open takes 2 arguments here, 3 in zarr.h", found[0])

    def test_a_wrong_type_names_the_parameter(self):
        found = problems("rust", RUST_GOOD.replace("start: *const u64", "start: *const u32"))
        self.assertEqual(len(found), 1)
        self.assertIn("zarr_read_region parameter 3 is uint32_t* here, uint64_t* in zarr.h", found[0])

    def test_a_wrong_pointer_depth_is_reported(self):
        found = problems("rust", RUST_GOOD.replace("out: *mut *mut zarr_array", "out: *mut zarr_array"))
        self.assertIn("zarr_open parameter 1 is zarr_array* here, zarr_array** in zarr.h", found[0])

    def test_a_wrong_result_is_reported(self):
        found = problems("rust", RUST_GOOD.replace("-> usize;", "-> c_int;"))
        self.assertIn("zarr_ndim returns int here, size_t in zarr.h", found[0])

    def test_functions_not_in_the_header_are_reported(self):
        found = problems("rust", RUST_GOOD.replace("zarr_free", "zarr_release"))
        self.assertIn("zarr_release is not in zarr.h", found[0])

    def test_complete_requires_every_function(self):
        without_free = RUST_GOOD.replace("pub fn zarr_free(p: *mut c_void);", "")
        self.assertEqual(problems("rust", without_free), [])
        self.assertEqual(problems("rust", without_free, complete=True), ["zarr_free from zarr.h is not declared"])

    def test_constants_must_have_the_headers_value(self):
        found = problems("rust", RUST_GOOD.replace("= -2;", "= -3;"))
        self.assertEqual(found, ["constant ZARR_ERR_NOT_FOUND is -3 here, -2 in zarr.h"])


class JuliaTest(unittest.TestCase):
    GOOD = """
        const ZARR_ERR_NOT_FOUND = -2
        open(url) = ccall((:zarr_open, libzarr), Cint, (Ref{Ptr{Cvoid}}, Cstring, Cstring), out, url, "r")
        n(a) = ccall((:zarr_ndim, libzarr), Csize_t, (Ptr{Cvoid},), a)
        ccall((:zarr_read_region, libzarr), Cint,
              (Ptr{Cvoid}, Csize_t, Ptr{UInt64}, Ptr{UInt64}, Ptr{Cvoid}, Csize_t),  # a comment
              a, 1, s, c, out, 8)
        ccall(:time, Cint, ())  # not libzarr's
    """

    def test_matching_ccalls_pass(self):
        self.assertEqual(problems("julia", self.GOOD), [])

    def test_every_call_site_is_checked(self):
        found = problems("julia", self.GOOD + 'ccall((:zarr_ndim, libzarr), Cint, (Ptr{Cvoid},), a)\n')
        self.assertEqual(len(found), 1)
        self.assertIn("zarr_ndim returns int here, size_t in zarr.h", found[0])

    def test_a_wrong_arity_is_reported(self):
        found = problems("julia", self.GOOD.replace("(Ptr{Cvoid},)", "(Ptr{Cvoid}, Cint)"))
        self.assertIn("zarr_ndim takes 2 arguments here, 1 in zarr.h", found[0])

    def test_a_value_for_a_pointer_is_reported(self):
        found = problems("julia", self.GOOD.replace("Ptr{UInt64}, Ptr{UInt64}", "UInt64, Ptr{UInt64}"))
        self.assertIn("zarr_read_region parameter 3 is uint64_t here, uint64_t* in zarr.h", found[0])

    def test_constants_are_checked(self):
        found = problems("julia", self.GOOD.replace("= -2", "= 2"))
        self.assertEqual(found, ["constant ZARR_ERR_NOT_FOUND is 2 here, -2 in zarr.h"])


class FortranTest(unittest.TestCase):
    GOOD = """
        integer, parameter, public :: ZARR_ERR_NOT_FOUND = -2
        interface
          integer(c_int) function c_zarr_open(out, url, mode) bind(C, name='zarr_open')
            import :: c_int, c_ptr, c_char
            type(c_ptr), intent(out) :: out
            character(kind=c_char), intent(in) :: url(*), mode(*)
          end function c_zarr_open

          integer(c_int) function c_zarr_read_region(array, ndim, start, count, out, nbytes) &
              bind(C, name='zarr_read_region')
            import :: c_int, c_ptr, c_size_t, c_int64_t
            type(c_ptr), value :: array
            integer(c_size_t), value :: ndim
            integer(c_int64_t), intent(in) :: start(*), count(*)
            type(c_ptr), value :: out
            integer(c_size_t), value :: nbytes
          end function c_zarr_read_region

          subroutine c_zarr_free(p) bind(C, name='zarr_free')
            import :: c_ptr
            type(c_ptr), value :: p
          end subroutine c_zarr_free

          integer(c_size_t) function c_strlen(s) bind(C, name='strlen')
            import :: c_size_t, c_ptr
            type(c_ptr), value :: s
          end function c_strlen
        end interface
    """

    def test_matching_interfaces_pass(self):
        self.assertEqual(problems("fortran", self.GOOD), [])

    def test_a_value_for_a_reference_is_reported(self):
        found = problems("fortran", self.GOOD.replace("type(c_ptr), intent(out) :: out", "type(c_ptr), value :: out"))
        self.assertIn("zarr_open parameter 1 is any* here, zarr_array** in zarr.h", found[0])

    def test_a_wrong_kind_is_reported(self):
        found = problems("fortran", self.GOOD.replace("integer(c_size_t), value :: ndim", "integer(c_int), value :: ndim"))
        self.assertIn("zarr_read_region parameter 2 is int here, size_t in zarr.h", found[0])

    def test_a_missing_dummy_is_reported(self):
        found = problems("fortran", self.GOOD.replace("function c_zarr_open(out, url, mode)", "function c_zarr_open(out, url)"))
        self.assertIn("zarr_open takes 2 arguments here, 3 in zarr.h", found[0])

    def test_a_subroutine_for_a_function_is_reported(self):
        swapped = self.GOOD.replace("subroutine c_zarr_free(p) bind(C, name='zarr_free')",
                                    "subroutine c_zarr_free(p) bind(C, name='zarr_ndim')")
        found = problems("fortran", swapped)
        self.assertTrue(any("zarr_ndim returns void here, size_t in zarr.h" in p for p in found), found)


class DocsExamplesTest(unittest.TestCase):
    SOURCE = "//! let a = Array::open(url)?;\n//! assert_eq!(a.ndim(), 2);\n"

    def test_lines_of_the_source_pass_whatever_their_prefix(self):
        self.assertEqual(docs.missing_lines("let a = Array::open(url)?;\n\n    assert_eq!(a.ndim(), 2);\n}", self.SOURCE),
                         [])

    def test_a_changed_line_is_reported(self):
        self.assertEqual(docs.missing_lines("assert_eq!(a.ndim(), 3);", self.SOURCE), ["assert_eq!(a.ndim(), 3);"])


def run_quietly(argv):
    """runner.main's exit code; its output (summary lines that would be
    counted as this test's own) goes nowhere."""
    with contextlib.redirect_stdout(io.StringIO()):
        return runner.main(argv)


class RunnerTest(unittest.TestCase):
    def test_cargo_results_are_summed_over_test_binaries(self):
        output = ("test result: ok. 22 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
                  "test result: FAILED. 3 passed; 1 failed; 2 ignored; 0 measured; 0 filtered out\n")
        self.assertEqual(runner.count_cargo(output), (25, 1, 2))

    def test_go_counts_tests_and_subtests(self):
        output = ("=== RUN   TestA\n--- PASS: TestA (0.00s)\n    --- PASS: TestA/int8 (0.00s)\n"
                  "--- FAIL: TestB (0.00s)\n--- SKIP: TestC (0.00s)\nFAIL\n")
        self.assertEqual(runner.count_go(output), (2, 1, 1))

    def test_julia_reads_the_summary_table(self):
        passing = "Test Summary: | Pass  Total  Time\nLibZarr       |   95     95  4.2s\n"
        failing = "Test Summary: | Pass  Fail  Error  Total\nLibZarr       |   90     3      2     95\n"
        self.assertEqual(runner.count_julia(passing), (95, 0, 0))
        self.assertEqual(runner.count_julia(failing), (90, 5, 0))

    def test_a_missing_program_skips_with_77(self):
        self.assertEqual(run_quietly(["--needs", "no-such-program-zarr", "--format", "go", "--", "true"]), 77)

    def test_a_run_reporting_no_test_fails(self):
        self.assertEqual(run_quietly(["--format", "go", "--", sys.executable, "-c", "print('ok')"]), 1)

    def test_a_failing_run_without_counts_fails(self):
        code = "print('--- PASS: TestA (0.00s)'); raise SystemExit(2)"
        self.assertEqual(run_quietly(["--format", "go", "--", sys.executable, "-c", code]), 1)

    def test_a_passing_run_passes(self):
        code = "print('--- PASS: TestA (0.00s)')"
        self.assertEqual(run_quietly(["--format", "go", "--", sys.executable, "-c", code]), 0)


if __name__ == "__main__":
    result = unittest.main(verbosity=2, exit=False).result
    broken = len(result.failures) + len(result.errors)
    # The summary lines scripts/test_summary.py counts.
    print(runner.summary(result.testsRun - broken - len(result.skipped), broken, len(result.skipped)))
    sys.exit(1 if broken or not result.testsRun else 0)
