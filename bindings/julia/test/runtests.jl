# The Julia binding's tests: julia --startup-file=no test/runtests.jl, with
# LIBZARR_PATH naming the libzarr to load (the Meson test sets it to the
# build's).
push!(LOAD_PATH, joinpath(@__DIR__, "..", "src"))
using LibZarr
using Test

const next_store = Ref(0)
memory_url(name) = "memory://julia-$name-$(next_store[] += 1)/a"

v3_metadata(data_type, zarr_shape, chunks) =
    """{"zarr_format": 3, "node_type": "array", "shape": $(collect(zarr_shape)), "data_type": "$data_type",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": $(collect(chunks))}}}"""

# The ZarrError f throws, or a test failure when it throws none.
function zarr_error(f)
    try
        f()
    catch e
        e isa ZarrError && return e
        rethrow()
    end
    error("no ZarrError thrown")
end

@testset "LibZarr" begin
    @testset "a string argument with an embedded NUL is refused, never cut short" begin
        # Julia's Cstring conversion throws before the call: C would read "a" for "a\0b".
        @test_throws ArgumentError open_array("memory://julia-nul/a\0b")
        @test_throws ArgumentError create_array("memory://julia-nul/a\0b", v3_metadata("int8", (2,), (2,)))
        @test_throws ArgumentError open_array(memory_url("nul"); mode = "r\0+")
    end

    @testset "every element type round-trips ($T)" for (T, name, values) in [
        (Int8, "int8", Int8[-128, -1, 0, 1, 2, 127]),
        (Int16, "int16", Int16[-32768, -1, 0, 1, 300, 32767]),
        (Int32, "int32", Int32[typemin(Int32), -1, 0, 1, 70000, typemax(Int32)]),
        (Int64, "int64", Int64[typemin(Int64), -1, 0, 1, 1 << 40, typemax(Int64)]),
        (UInt8, "uint8", UInt8[0, 1, 2, 3, 128, 255]),
        (UInt16, "uint16", UInt16[0, 1, 2, 3, 40000, 65535]),
        (UInt32, "uint32", UInt32[0, 1, 2, 3, 1 << 31, typemax(UInt32)]),
        (UInt64, "uint64", UInt64[0, 1, 2, 3, UInt64(1) << 63, typemax(UInt64)]),
        (Float16, "float16", Float16[-1.5, 0, 0.25, 1e-3, 6e4, Inf]),
        (Float32, "float32", Float32[-1.5, 0, 0.25, 1e-30, 3.5e30, Inf]),
        (Float64, "float64", Float64[-1.5, 0, 0.1, 1e-300, 3.5e300, -Inf]),
        (ComplexF32, "complex64", ComplexF32[1 - 1im, 0, 0.5 + 2im, -3, 9im, 7 + 7im]),
        (ComplexF64, "complex128", ComplexF64[1 - 1im, 0, 0.5 + 2im, -3, 9im, 7 + 7im]),
        (Bool, "bool", Bool[true, false, false, true, true, false]),
    ]
        # Julia 3 x 2 is Zarr [2, 3], here in 1 x 2 chunks.
        a = create_array(memory_url(name), v3_metadata(name, [2, 3], [1, 2]))
        data = reshape(values, 3, 2)
        @test datatype(a) == name
        @test eltype(a) == T
        @test size(a) == (3, 2)
        write(a, data)
        @test read(a) == data
        @test read!(a, Array{T}(undef, 2, 1); start = (2, 2)) == data[2:3, 2:2]
        close(a)
    end

    @testset "dimensions are the Zarr shape reversed" begin
        a = create_array(memory_url("order"), v3_metadata("int32", [2, 3, 4], [1, 2, 3]))
        @test size(a) == (4, 3, 2)
        @test chunks(a) == (3, 2, 1)
        @test ndims(a) == 3
        @test zarr_format(a) == 3
        julia = Int32[100i + 10j + k for i in 1:4, j in 1:3, k in 1:2]
        write(a, julia)
        # Zarr element [1, 2, 3] (0-based) is Julia [4, 3, 2].
        @test read(a; start = (4, 3, 2), count = (1, 1, 1))[1] == 432
        # A Zarr row (the last index varying) is a Julia column.
        @test vec(read(a; start = (1, 2, 1), count = (4, 1, 1))) == julia[:, 2, 1]
        @test occursin("\"shape\"", metadata(a))
        close(a)
    end

    @testset "strided views move in place" begin
        a = create_array(memory_url("views"), v3_metadata("int16", [2, 3], [2, 2]))
        big = Int16.(reshape(1:24, 6, 4))
        write(a, view(big, 1:2:6, 2:2:4))
        @test read(a) == big[1:2:6, 2:2:4]
        back = zeros(Int16, 6, 4)
        read!(a, view(back, 2:2:6, 1:2:3))
        @test back[2:2:6, 1:2:3] == big[1:2:6, 2:2:4]
        @test count(!iszero, back) == 6
        err = zarr_error(() -> read!(a, view(back, 6:-2:2, 1:2:3)))
        @test err.code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        close(a)
    end

    @testset "start places a block and the rest reads as fill" begin
        a = create_array(memory_url("start"), """{"shape": [5, 4], "chunks": [2, 3], "dtype": "<i4", "fill_value": -1}""")
        block = Int32[1 3 5; 2 4 6]
        write(a, block; start = (2, 3))
        whole = read(a)
        @test whole[2:3, 3:5] == block
        @test count(==(-1), whole) == 20 - 6
        close(a)
    end

    @testset "stored bool bytes other than 1 read as true" begin
        mktempdir() do dir
            path = joinpath(dir, "bools.zarr")
            close(create_array(path, """{"shape": [3], "chunks": [3], "dtype": "|b1", "compressor": null}"""))
            write(joinpath(path, "0"), UInt8[0, 2, 255])
            a = open_array(path)
            @test read(a) == [false, true, true]
            close(a)
        end
    end

    @testset "strings round-trip" begin
        a = create_array(memory_url("strings"), v3_metadata("string", [3], [2]))
        @test eltype(a) == String
        write_strings(a, ["alpha", "", "γδ"])
        @test read_strings(a; start = (2,), count = (2,)) == ["", "γδ"]
        @test read(a) == ["alpha", "", "γδ"]
        close(a)
    end

    @testset "resize and attributes" begin
        a = create_array(memory_url("resize"), v3_metadata("int32", [4], [2]))
        write(a, Int32[1, 2, 3, 4])
        resize!(a, 6)
        @test size(a) == (6,)
        @test read(a) == Int32[1, 2, 3, 4, 0, 0]
        set_attributes!(a, """{"units": "K"}""")
        @test occursin("\"units\"", attributes(a))
        @test zarr_error(() -> set_attributes!(a, "[1]")).code == LibZarr.ZARR_ERR_INVALID_METADATA
        close(a)
    end

    @testset "arrays on disk reopen with their data" begin
        mktempdir() do dir
            path = joinpath(dir, "disk.zarr")
            a = create_array(path, """{"shape": [2, 2], "chunks": [1, 2], "dtype": "<u2"}""")
            write(a, UInt16[1 2; 3 4])
            close(a)
            @test isfile(joinpath(path, "1.0"))
            a = open_array(path)
            @test read(a) == UInt16[1 2; 3 4]
            close(a)
        end
    end

    @testset "groups" begin
        url = memory_url("groups")
        root = create_group(url; attributes = """{"title": "t"}""", zarr_format = 2)
        b = create_array(root, "b", """{"shape": [2], "chunks": [2], "dtype": "<f4"}""")
        write(b, Float32[1, 2])
        close(create_group(root, "a/inner"))
        @test children(root) == ["a" => :group, "b" => :array]
        a = open_group(root, "a")
        @test children(a) == ["inner" => :group]
        @test read(open_array(root, "b")) == Float32[1, 2]
        @test occursin("\"title\"", attributes(root))
        set_attributes!(root, """{"b": 1}""")
        @test occursin("\"b\"", attributes(root))
        reader = open_group(url)
        @test zarr_error(() -> create_group(reader, "g")).code == LibZarr.ZARR_ERR_READ_ONLY
        @test zarr_error(() -> open_array(root, "missing")).code == LibZarr.ZARR_ERR_NOT_FOUND
        @test zarr_error(() -> create_group(url)).code == LibZarr.ZARR_ERR_EXISTS
        foreach(close, (reader, a, b, root))
    end

    @testset "errors carry code and message" begin
        e = zarr_error(() -> open_array("memory://julia-nothing-here/x"))
        @test e.code == LibZarr.ZARR_ERR_NOT_FOUND
        @test !isempty(e.message)
        @test startswith(sprint(showerror, e), "ZARR_ERR_NOT_FOUND: ")

        e = zarr_error(() -> create_array(memory_url("bad"), """{"shape": [4], "chunks": [0], "dtype": "<i4"}"""))
        @test e.code == LibZarr.ZARR_ERR_INVALID_METADATA
        @test occursin("chunks", e.message)

        url = memory_url("errors")
        a = create_array(url, v3_metadata("int32", [4], [4]))
        @test zarr_error(() -> create_array(url, v3_metadata("int32", [4], [4]))).code == LibZarr.ZARR_ERR_EXISTS
        e = zarr_error(() -> read!(a, zeros(Float32, 4)))
        @test e.code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        @test occursin("int32", e.message) && occursin("Float32", e.message)
        @test zarr_error(() -> read(a; start = (3,), count = (2,))).code == LibZarr.ZARR_ERR_OUT_OF_BOUNDS
        @test zarr_error(() -> read(a; start = (0,), count = (1,))).code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        @test zarr_error(() -> read!(a, zeros(Int32, 2, 2))).code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        @test zarr_error(() -> read_strings(a)).code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        e = zarr_error(() -> open_array(url; options = """{"no_such_option": 1}"""))
        @test e.code == LibZarr.ZARR_ERR_INVALID_ARGUMENT && occursin("no_such_option", e.message)
        reader = open_array(url; mode = "r")
        @test zarr_error(() -> write(reader, Int32[1])).code == LibZarr.ZARR_ERR_READ_ONLY
        close(reader)
        close(a)
        close(a)  # twice is fine
        @test zarr_error(() -> read!(a, zeros(Int32, 4))).code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
    end

    @test length(split(LibZarr.version(), '.')) == 3

    @testset "the example of docs/bindings.md" begin
        # A Julia 6 x 4 Int32 array is the Zarr shape [4, 6] (dimensions reversed).
        url = "memory://julia-example/temperature"
        writer = create_array(url, """{"shape": [4, 6], "chunks": [2, 3], "dtype": "<i4", "fill_value": 0}""")
        write(writer, Int32[1 4; 2 5; 3 6]; start = (3, 2))  # Zarr rows 1-2, columns 2-4
        array = open_array(url)
        @assert size(array) == (6, 4) && eltype(array) == Int32
        @assert read(array; start = (1, 2), count = (6, 2)) == Int32[0 0; 0 0; 1 4; 2 5; 3 6; 0 0]
        failure = try
            read!(array, zeros(Float64, 6, 4))
        catch e
            e
        end
        @assert failure isa ZarrError && failure.code == LibZarr.ZARR_ERR_INVALID_ARGUMENT
        close(array)
        close(writer)
    end
end
