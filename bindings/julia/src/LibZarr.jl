"""
    LibZarr

A thin Julia binding of libzarr (Zarr v2/v3 chunked N-dimensional arrays)
through `ccall`. Arrays and groups are handles: `close` them, or let the
garbage collector do it. Failures throw [`ZarrError`](@ref) with libzarr's
status code and message.

Dimension order, as in Zarr.jl and netCDF: Julia arrays are column-major, so
a Julia array's dimensions are the Zarr shape reversed. A Julia
`a[i, j, k]` is Zarr element `[k-1, j-1, i-1]` and memory is identical, so
arrays (and strided views) move without a copy. `start` is 1-based and in
Julia order.

The library is `libzarr.so.1` from the dynamic loader's path, or the one the
environment variable `LIBZARR_PATH` names (the file, or its folder), as for
the Python binding.
"""
module LibZarr

using Libdl

export ZarrError, ZarrArray, ZarrGroup
export open_array, create_array, open_group, create_group, children
export datatype, chunks, zarr_format, metadata, attributes, set_attributes!
export read_strings, write_strings

const libzarr = "libzarr.so.1"

# Status codes, as in zarr.h (bindings/check_declarations.py keeps them equal).
const ZARR_OK = 0
const ZARR_ERR_INVALID_ARGUMENT = -1
const ZARR_ERR_NOT_FOUND = -2
const ZARR_ERR_EXISTS = -3
const ZARR_ERR_INVALID_METADATA = -4
const ZARR_ERR_UNSUPPORTED = -5
const ZARR_ERR_CODEC = -6
const ZARR_ERR_IO = -7
const ZARR_ERR_OUT_OF_BOUNDS = -8
const ZARR_ERR_READ_ONLY = -9
const ZARR_ERR_NO_MEMORY = -10
const ZARR_ERR_BUFFER_SIZE = -11
const ZARR_ERR_INTERNAL = -12
const ZARR_ERR_RANGE = -13
const ZARR_NODE_ARRAY = 1
const ZARR_NODE_GROUP = 2

function __init__()
    # Loading the file first makes ccall's "libzarr.so.1" resolve to it (the
    # dynamic loader matches the SONAME of libraries already loaded).
    path = get(ENV, "LIBZARR_PATH", "")
    isdir(path) && (path = joinpath(path, libzarr))
    isempty(path) || Libdl.dlopen(path, Libdl.RTLD_GLOBAL)
end

"""Version of the libzarr actually loaded, e.g. "0.1.0"."""
version() = unsafe_string(ccall((:zarr_version_string, libzarr), Cstring, ()))

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

"""
    ZarrError(code, message)

A failed libzarr call: `code` is one of the `ZARR_ERR_*` constants, `message`
names the key, file or field at fault.
"""
struct ZarrError <: Exception
    code::Int
    message::String
end

"""The constant name of a status code, e.g. "ZARR_ERR_NOT_FOUND"."""
status_name(code::Integer) = unsafe_string(ccall((:zarr_status_name, libzarr), Cstring, (Cint,), code))

Base.showerror(io::IO, e::ZarrError) = print(io, status_name(e.code), ": ", e.message)

# Throw the error of the call that just returned status on this thread (no
# yield point lies between the call and this read of libzarr's thread-local
# message).
function check(status::Cint)
    status == ZARR_OK && return nothing
    throw(ZarrError(status, unsafe_string(ccall((:zarr_last_error, libzarr), Cstring, ()))))
end

# A string libzarr allocated, copied and freed.
function take_json(call)
    out = Ref{Ptr{UInt8}}(C_NULL)
    check(call(out))
    text = unsafe_string(out[])
    ccall((:zarr_free, libzarr), Cvoid, (Ptr{Cvoid},), out[])
    return text
end

# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------

"""
An open Zarr array. It may be used from several tasks and threads at once;
`close` it, or the garbage collector will.
"""
mutable struct ZarrArray
    handle::Ptr{Cvoid}
    function ZarrArray(handle::Ptr{Cvoid})
        finalizer(close, new(handle))
    end
end

# ccall keeps the ZarrArray alive while it uses the handle it converts to.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, a::ZarrArray) = a.handle

"""Release the handle; later calls fail with ZARR_ERR_INVALID_ARGUMENT. Closing twice is fine."""
function Base.close(a::ZarrArray)
    ccall((:zarr_close, libzarr), Cint, (Ptr{Cvoid},), a.handle)
    a.handle = C_NULL
    return nothing
end

function new_array(open)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(open(out))
    return ZarrArray(out[])
end

"""
    open_array(url; mode="r", options=nothing) -> ZarrArray

Open the array at `url` (a path, `file://` or `memory://` URL). `mode` is
"r" or "r+"; `options` a zarr_open_ex JSON object such as
`{"write_empty_chunks": true}`.
"""
function open_array(url::AbstractString; mode::AbstractString = "r", options = nothing)
    options === nothing &&
        return new_array(out -> ccall((:zarr_open, libzarr), Cint, (Ref{Ptr{Cvoid}}, Cstring, Cstring), out, url, mode))
    return new_array(out -> ccall((:zarr_open_ex, libzarr), Cint, (Ref{Ptr{Cvoid}}, Cstring, Cstring, Cstring),
                                  out, url, mode, options))
end

"""
    create_array(url, metadata_json) -> ZarrArray

Create an array from a Zarr v2 `.zarray` or v3 `zarr.json` document (shape in
Zarr order) and open it read-write.
"""
create_array(url::AbstractString, metadata_json::AbstractString) =
    new_array(out -> ccall((:zarr_create, libzarr), Cint, (Ref{Ptr{Cvoid}}, Cstring, Cstring), out, url, metadata_json))

Base.ndims(a::ZarrArray) = Int(ccall((:zarr_ndim, libzarr), Csize_t, (Ptr{Cvoid},), a))

# Shape-like queries give Julia order: the Zarr order reversed.
function julia_order(a::ZarrArray, query)
    zarr_order = Vector{UInt64}(undef, ndims(a))
    check(query(zarr_order))
    return Tuple(Int.(reverse(zarr_order)))
end

"""The shape in Julia order (the Zarr shape reversed)."""
Base.size(a::ZarrArray) =
    julia_order(a, s -> ccall((:zarr_shape, libzarr), Cint, (Ptr{Cvoid}, Ptr{UInt64}), a, s))

"""The chunk shape in Julia order."""
chunks(a::ZarrArray) =
    julia_order(a, s -> ccall((:zarr_chunk_shape, libzarr), Cint, (Ptr{Cvoid}, Ptr{UInt64}), a, s))

"""The data type: the v3 name for simple types ("int16", "float64", "bool", "string"), or the v2 dtype JSON."""
function datatype(a::ZarrArray)
    name = ccall((:zarr_data_type, libzarr), Ptr{UInt8}, (Ptr{Cvoid},), a)
    return name == C_NULL ? "" : unsafe_string(name)
end

"""The Zarr format of the stored metadata: 1, 2 or 3."""
zarr_format(a::ZarrArray) = Int(ccall((:zarr_format, libzarr), Cint, (Ptr{Cvoid},), a))

"""Bytes per element; 0 for variable-length elements."""
item_size(a::ZarrArray) = Int(ccall((:zarr_item_size, libzarr), Csize_t, (Ptr{Cvoid},), a))

# Julia element types and the Zarr data types they hold.
const ELEMENT_TYPES = Dict{String,DataType}(
    "int8" => Int8, "int16" => Int16, "int32" => Int32, "int64" => Int64,
    "uint8" => UInt8, "uint16" => UInt16, "uint32" => UInt32, "uint64" => UInt64,
    "float16" => Float16, "float32" => Float32, "float64" => Float64,
    "complex64" => ComplexF32, "complex128" => ComplexF64, "bool" => Bool,
    "string" => String, "variable_length_bytes" => String)
const DATA_TYPES = Dict(T => name for (name, T) in ELEMENT_TYPES if T !== String)

"""The Julia element type of the array's data type (`String` for strings and bytes)."""
function Base.eltype(a::ZarrArray)
    name = datatype(a)
    haskey(ELEMENT_TYPES, name) ||
        throw(ZarrError(ZARR_ERR_UNSUPPORTED, "no Julia element type for the data type $name"))
    return ELEMENT_TYPES[name]
end

# A region in libzarr's terms: 0-based start and count in Zarr order.
function zarr_region(start, dims)
    length(start) == length(dims) ||
        throw(ZarrError(ZARR_ERR_INVALID_ARGUMENT, "start has $(length(start)) entries for $(length(dims)) dimensions"))
    all(>=(1), start) ||
        throw(ZarrError(ZARR_ERR_INVALID_ARGUMENT, "start is 1-based: every entry must be at least 1, got $(Tuple(start))"))
    return UInt64[s - 1 for s in reverse(Tuple(start))], UInt64[n for n in reverse(Tuple(dims))]
end

function check_element_type(a::ZarrArray, ::Type{T}) where {T}
    haskey(DATA_TYPES, T) && DATA_TYPES[T] == datatype(a) && return nothing
    throw(ZarrError(ZARR_ERR_INVALID_ARGUMENT, "the array holds $(datatype(a)) but the Julia elements are $T"))
end

# Byte strides in Zarr order and the bytes from the first element past the last.
function byte_layout(x::StridedArray{T}) where {T}
    any(<(0), strides(x)) &&
        throw(ZarrError(ZARR_ERR_INVALID_ARGUMENT, "views with negative strides are not supported: " *
                                                   "the first element must be at the lowest address"))
    byte_strides = Int64[s * sizeof(T) for s in reverse(strides(x))]
    nbytes = isempty(x) ? 0 : sum(((n - 1) * s for (n, s) in zip(reverse(size(x)), byte_strides)); init = 0) + sizeof(T)
    return byte_strides, nbytes
end

"""
    read!(a::ZarrArray, out::StridedArray; start=(1, 1, ...)) -> out

Read the region of `size(out)` at `start` (1-based, Julia order) into `out`,
an array or strided view whose element type matches the array's data type.
"""
function Base.read!(a::ZarrArray, out::StridedArray{T,N}; start = ntuple(_ -> 1, N)) where {T,N}
    check_element_type(a, T)
    if T === Bool  # stored bytes other than 0 and 1 are no valid Bool: read bytes, then compare
        bytes = zeros(UInt8, size(out))
        read_into(a, bytes, start)
        out .= bytes .!= 0x00
    else
        read_into(a, out, start)
    end
    return out
end

function read_into(a::ZarrArray, out::StridedArray, start)
    zstart, zcount = zarr_region(start, size(out))
    byte_strides, nbytes = byte_layout(out)
    GC.@preserve out check(ccall((:zarr_read_region_strided, libzarr), Cint,
                                 (Ptr{Cvoid}, Csize_t, Ptr{UInt64}, Ptr{UInt64}, Ptr{Int64}, Ptr{Cvoid}, Csize_t),
                                 a, length(zstart), zstart, zcount, byte_strides, pointer(out), nbytes))
end

"""
    read(a::ZarrArray; start=(1, ...), count=size(a)) -> Array

Read a region (the whole array by default) into a new Julia array of
`eltype(a)`; strings and bytes come as `Array{String}`.
"""
function Base.read(a::ZarrArray; start = ntuple(_ -> 1, ndims(a)), count = size(a) .- (Tuple(start) .- 1))
    T = eltype(a)
    T === String && return read_strings(a; start, count)
    return read!(a, Array{T}(undef, Tuple(count)); start)
end

"""
    write(a::ZarrArray, data::StridedArray; start=(1, 1, ...))

Write `data` (an array or strided view of the array's element type) to the
region of `size(data)` at `start` (1-based, Julia order). Returns the number
of elements written.
"""
function Base.write(a::ZarrArray, data::StridedArray{T,N}; start = ntuple(_ -> 1, N)) where {T,N}
    check_element_type(a, T)
    zstart, zcount = zarr_region(start, size(data))
    byte_strides, nbytes = byte_layout(data)
    GC.@preserve data check(ccall((:zarr_write_region_strided, libzarr), Cint,
                                  (Ptr{Cvoid}, Csize_t, Ptr{UInt64}, Ptr{UInt64}, Ptr{Int64}, Ptr{Cvoid}, Csize_t),
                                  a, length(zstart), zstart, zcount, byte_strides, pointer(data), nbytes))
    return length(data)
end

"""
    read_strings(a; start=(1, ...), count=size(a)) -> Array{String}

Read a region of variable-length elements (strings, or bytes held in
strings), shaped in Julia order.
"""
function read_strings(a::ZarrArray; start = ntuple(_ -> 1, ndims(a)), count = size(a) .- (Tuple(start) .- 1))
    zstart, zcount = zarr_region(start, count)
    offsets = Vector{UInt64}(undef, prod(count; init = 1) + 1)
    data = UInt8[]
    needed = Ref{Csize_t}(0)
    while true
        status = ccall((:zarr_read_region_vlen, libzarr), Cint,
                       (Ptr{Cvoid}, Csize_t, Ptr{UInt64}, Ptr{UInt64}, Ptr{UInt64}, Csize_t, Ptr{Cvoid}, Csize_t,
                        Ref{Csize_t}),
                       a, length(zstart), zstart, zcount, offsets, length(offsets), data, length(data), needed)
        # The first call learns the size; another writer may grow the elements
        # before the second, so ask again until they fit.
        if status == ZARR_ERR_BUFFER_SIZE && needed[] > length(data)
            resize!(data, needed[])
            continue
        end
        check(status)
        break
    end
    # Zarr's C order of the elements is Julia's column-major order of count.
    elements = [String(data[offsets[i]+1:offsets[i+1]]) for i in 1:length(offsets)-1]
    return reshape(elements, Tuple(count))
end

"""
    write_strings(a, data::AbstractArray{<:AbstractString}; start=(1, ...))

Write variable-length elements, `data` shaped in Julia order.
"""
function write_strings(a::ZarrArray, data::AbstractArray{<:AbstractString,N}; start = ntuple(_ -> 1, N)) where {N}
    zstart, zcount = zarr_region(start, size(data))
    bytes = UInt8[]
    offsets = UInt64[0]
    for element in data  # column-major: Zarr's C order
        append!(bytes, codeunits(element))
        push!(offsets, length(bytes))
    end
    check(ccall((:zarr_write_region_vlen, libzarr), Cint,
                (Ptr{Cvoid}, Csize_t, Ptr{UInt64}, Ptr{UInt64}, Ptr{UInt64}, Csize_t, Ptr{Cvoid}, Csize_t),
                a, length(zstart), zstart, zcount, offsets, length(offsets), bytes, length(bytes)))
    return length(data)
end

"""Change the shape (Julia order); chunks wholly outside it are erased."""
function Base.resize!(a::ZarrArray, dims::Integer...)
    shape = UInt64[n for n in reverse(dims)]
    check(ccall((:zarr_resize, libzarr), Cint, (Ptr{Cvoid}, Csize_t, Ptr{UInt64}), a, length(shape), shape))
    return a
end

"""The stored metadata document (.zarray or zarr.json) as JSON text (Zarr order)."""
metadata(a::ZarrArray) =
    take_json(out -> ccall((:zarr_get_metadata, libzarr), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), a, out))

"""The attributes as JSON text."""
attributes(a::ZarrArray) =
    take_json(out -> ccall((:zarr_get_attributes, libzarr), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), a, out))

"""Replace the attributes with a JSON object."""
function set_attributes!(a::ZarrArray, json::AbstractString)
    check(ccall((:zarr_set_attributes, libzarr), Cint, (Ptr{Cvoid}, Cstring), a, json))
    return a
end

# ---------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------

"""An open Zarr group; `close` it, or the garbage collector will."""
mutable struct ZarrGroup
    handle::Ptr{Cvoid}
    function ZarrGroup(handle::Ptr{Cvoid})
        finalizer(close, new(handle))
    end
end

Base.unsafe_convert(::Type{Ptr{Cvoid}}, g::ZarrGroup) = g.handle

function Base.close(g::ZarrGroup)
    ccall((:zarr_group_close, libzarr), Cint, (Ptr{Cvoid},), g.handle)
    g.handle = C_NULL
    return nothing
end

function new_group(open)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(open(out))
    return ZarrGroup(out[])
end

"""
    open_group(url; mode="r") -> ZarrGroup
    open_group(parent::ZarrGroup, path) -> ZarrGroup
"""
open_group(url::AbstractString; mode::AbstractString = "r") =
    new_group(out -> ccall((:zarr_group_open, libzarr), Cint, (Ref{Ptr{Cvoid}}, Cstring, Cstring), out, url, mode))
open_group(parent::ZarrGroup, path::AbstractString) =
    new_group(out -> ccall((:zarr_group_open_group, libzarr), Cint, (Ref{Ptr{Cvoid}}, Ptr{Cvoid}, Cstring),
                           out, parent, path))

"""
    create_group(url; attributes=nothing, zarr_format=nothing) -> ZarrGroup
    create_group(parent::ZarrGroup, path; attributes=nothing) -> ZarrGroup

Create a group (and missing parents), `attributes` a JSON object or
`nothing` (passed as NULL). A new root is Zarr v3 unless `zarr_format = 2`;
below an existing group the group's format is taken.
"""
function create_group(url::AbstractString; attributes::Union{Nothing,String} = nothing,
                      zarr_format::Union{Nothing,Integer} = nothing)
    options = zarr_format === nothing ? C_NULL : "{\"zarr_format\": $(Int(zarr_format))}"
    return new_group(out -> ccall((:zarr_group_create_ex, libzarr), Cint,
                                  (Ref{Ptr{Cvoid}}, Cstring, Ptr{UInt8}, Ptr{UInt8}),
                                  out, url, something(attributes, C_NULL), options))
end
function create_group(parent::ZarrGroup, path::AbstractString; attributes::Union{Nothing,String} = nothing)
    return new_group(out -> ccall((:zarr_group_create_group, libzarr), Cint,
                                  (Ref{Ptr{Cvoid}}, Ptr{Cvoid}, Cstring, Ptr{UInt8}),
                                  out, parent, path, something(attributes, C_NULL)))
end

"""open_array(parent::ZarrGroup, path; mode="r"): the array at a path relative to the group."""
open_array(parent::ZarrGroup, path::AbstractString; mode::AbstractString = "r") =
    new_array(out -> ccall((:zarr_group_open_array, libzarr), Cint, (Ref{Ptr{Cvoid}}, Ptr{Cvoid}, Cstring, Cstring),
                           out, parent, path, mode))

"""create_array(parent::ZarrGroup, path, metadata_json): an array at a relative path."""
create_array(parent::ZarrGroup, path::AbstractString, metadata_json::AbstractString) =
    new_array(out -> ccall((:zarr_group_create_array, libzarr), Cint, (Ref{Ptr{Cvoid}}, Ptr{Cvoid}, Cstring, Cstring),
                           out, parent, path, metadata_json))

"""The direct children, sorted by name, as `name => :array` or `name => :group`."""
function children(g::ZarrGroup)
    count = Ref{Csize_t}(0)
    check(ccall((:zarr_group_child_count, libzarr), Cint, (Ptr{Cvoid}, Ref{Csize_t}), g, count))
    return map(0:Int(count[])-1) do i
        name = Ref{Ptr{UInt8}}(C_NULL)
        kind = Ref{Cint}(0)
        check(ccall((:zarr_group_child, libzarr), Cint, (Ptr{Cvoid}, Csize_t, Ref{Ptr{UInt8}}, Ref{Cint}),
                    g, i, name, kind))
        unsafe_string(name[]) => (kind[] == ZARR_NODE_ARRAY ? :array : :group)
    end
end

attributes(g::ZarrGroup) =
    take_json(out -> ccall((:zarr_group_get_attributes, libzarr), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), g, out))

function set_attributes!(g::ZarrGroup, json::AbstractString)
    check(ccall((:zarr_group_set_attributes, libzarr), Cint, (Ptr{Cvoid}, Cstring), g, json))
    return g
end

end # module
