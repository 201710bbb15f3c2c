// The zarr-extensions registry's README examples through the C API (issue
// 26), read from ../shared/specs/zarr-extensions at test time (each test
// skips, naming the folder, without it):
// - every README block that is array metadata, or an extension's own object
//   (a data type, codec or chunk grid), completed into an array document,
//   creates an array that reopens and whose zarr.json keeps the README's
//   fields; the extensions whose README has no such example are listed;
// - the examples of fixed_length_utf32, numpy.datetime64, numpy.timedelta64,
//   string, bytes, vlen-utf8, vlen-bytes, bitround and zstd are written and
//   read back, with the encodings, fill values and edge cases the READMEs
//   give.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>

#include "capi_helpers.h"
#include "support/test_support.h"
#include "support/zarr_extensions_registry.h"
#include "zarr_config.h"

using namespace zarr::test;
using zarr::ExtensionPoint;

namespace {

#define SKIP_WITHOUT_REGISTRY()                                                                       \
  do {                                                                                                \
    if (!zarr_extensions_registry_present())                                                          \
      GTEST_SKIP() << "no zarr-extensions registry at " << zarr_extensions_registry_dir();            \
  } while (0)

std::string json_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  value.Accept(w);
  return sb.GetString();
}

// Strict JSON text parsed; a parse error leaves the document's HasParseError().
rapidjson::Document parsed(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  return d;
}

// README block `index` of an extension as JSON (a test failure when it is not).
rapidjson::Document readme_block(ExtensionPoint point, const std::string& name, size_t index) {
  const std::vector<std::string> blocks = registry_readme_json_blocks(point, name);
  if (index >= blocks.size()) {
    ADD_FAILURE() << name << "'s README has " << blocks.size() << " JSON blocks, no block " << index;
    return parsed("{}");
  }
  rapidjson::Document d = parsed(strict_json_of_readme_block(blocks[index]));
  if (d.HasParseError()) ADD_FAILURE() << name << "'s README block " << index << " is not JSON:\n" << blocks[index];
  return d;
}

const char* const kArrayMembers[] = {"zarr_format", "node_type",  "shape",  "data_type",  "chunk_grid",
                                     "chunk_key_encoding", "fill_value", "codecs", "attributes", "dimension_names"};

// The array metadata a README block gives: the block when it is (a fragment
// of) array metadata; the extension's own object ({"name":
// "numpy.datetime64", ...}) under the member it is the value of; a struct's
// {"fields": [...]} as the configuration of the README's data type; null
// when the block is none of these (another configuration, a list of codecs).
rapidjson::Document array_fragment_of(ExtensionPoint point, const std::string& name, const rapidjson::Value& block) {
  rapidjson::Document out;
  if (!block.IsObject()) return out;
  for (const char* member : kArrayMembers) {
    if (block.HasMember(member)) {
      out.CopyFrom(block, out.GetAllocator());
      return out;
    }
  }
  if (point == ExtensionPoint::DataType && block.MemberCount() == 1 && block.HasMember("fields")) {
    out.SetObject();
    rapidjson::Value type(rapidjson::kObjectType);
    type.AddMember("name", rapidjson::Value(name.c_str(), out.GetAllocator()), out.GetAllocator());
    type.AddMember("configuration", rapidjson::Value(block, out.GetAllocator()), out.GetAllocator());
    out.AddMember("data_type", type, out.GetAllocator());
    return out;
  }
  if (!block.HasMember("name") || !block["name"].IsString() || block["name"].GetString() != name) return out;
  out.SetObject();
  rapidjson::Value own(block, out.GetAllocator());
  switch (point) {
    case ExtensionPoint::DataType: out.AddMember("data_type", own, out.GetAllocator()); break;
    case ExtensionPoint::ChunkGrid: out.AddMember("chunk_grid", own, out.GetAllocator()); break;
    case ExtensionPoint::ChunkKeyEncoding: out.AddMember("chunk_key_encoding", own, out.GetAllocator()); break;
    case ExtensionPoint::Codec:
      out.AddMember("codecs", rapidjson::Value(rapidjson::kArrayType).PushBack(own, out.GetAllocator()),
                    out.GetAllocator());
      break;
    case ExtensionPoint::StorageTransformer: out.SetNull(); break;
  }
  return out;
}

// Members of `over` replace those of `base`; objects are merged member by member.
void merge_into(rapidjson::Value& base, const rapidjson::Value& over, rapidjson::Document::AllocatorType& alloc) {
  if (!base.IsObject() || !over.IsObject()) {
    base.CopyFrom(over, alloc);
    return;
  }
  for (const auto& m : over.GetObject()) {
    auto at = base.FindMember(m.name);
    if (at == base.MemberEnd()) {
      base.AddMember(rapidjson::Value(m.name, alloc), rapidjson::Value(m.value, alloc), alloc);
    } else {
      merge_into(at->value, m.value, alloc);
    }
  }
}

std::string data_type_name(const rapidjson::Value& data_type) {
  if (data_type.IsString()) return data_type.GetString();
  if (data_type.IsObject() && data_type.HasMember("name") && data_type["name"].IsString()) return data_type["name"].GetString();
  return "";
}

// The registry's bytes->bytes codecs: a README codecs list that starts with
// one (zstd's) names no serializer, and gets the bytes codec in front.
bool is_bytes_to_bytes(const rapidjson::Value& codec) {
  const std::string name = data_type_name(codec);  // a codec's name is read as a data type's
  for (const char* b2b : {"zstd", "gzip", "blosc", "crc32c", "conditional"}) {
    if (name == b2b) return true;
  }
  return false;
}

// What a README fragment leaves to the implementation, as this test
// completes it: `completion`'s members under the README's, then a shape of
// [4] (or the chunk shape), one regular chunk of it, default chunk keys,
// Zarr v3, float32, the data type's serializer (bytes little-endian, or
// vlen-utf8 / vlen-bytes) and its zero fill value ("" for strings and bytes).
std::string completed_array_document(const rapidjson::Value& fragment, const std::string& completion = "{}") {
  rapidjson::Document d = parsed(completion);
  auto& alloc = d.GetAllocator();
  merge_into(d, fragment, alloc);
  auto set_default = [&](const char* member, const std::string& json) {
    if (!d.HasMember(member)) d.AddMember(rapidjson::StringRef(member), rapidjson::Value(parsed(json), alloc), alloc);
  };
  set_default("zarr_format", "3");
  set_default("node_type", "\"array\"");
  if (!d.HasMember("shape") && d.HasMember("chunk_grid") && d["chunk_grid"].HasMember("configuration") &&
      d["chunk_grid"]["configuration"].HasMember("chunk_shape")) {
    set_default("shape", json_text(d["chunk_grid"]["configuration"]["chunk_shape"]));
  }
  set_default("shape", "[4]");
  const std::string shape = json_text(d["shape"]);
  set_default("chunk_grid", R"({"name": "regular", "configuration": {}})");
  if (data_type_name(d["chunk_grid"]) == "regular") {
    merge_into(d["chunk_grid"], parsed(R"({"configuration": {"chunk_shape": )" + shape + "}}"), alloc);
    if (d["chunk_grid"]["configuration"]["chunk_shape"].Empty()) {  // n5_default's "// ..."
      d["chunk_grid"]["configuration"]["chunk_shape"].CopyFrom(d["shape"], alloc);
    }
  }
  set_default("chunk_key_encoding", R"({"name": "default"})");
  set_default("data_type", "\"float32\"");
  const std::string type = data_type_name(d["data_type"]);
  set_default("fill_value", type == "string" || type == "bytes" ? "\"\"" : "0");
  const char* serializer = type == "string"  ? R"({"name": "vlen-utf8"})"
                           : type == "bytes" ? R"({"name": "vlen-bytes"})"
                                             : R"({"name": "bytes", "configuration": {"endian": "little"}})";
  set_default("codecs", std::string("[") + serializer + "]");
  rapidjson::Value& codecs = d["codecs"];
  if (codecs.IsArray() && !codecs.Empty() && is_bytes_to_bytes(codecs[0])) {
    rapidjson::Value all(rapidjson::kArrayType);
    all.PushBack(rapidjson::Value(parsed(serializer), alloc), alloc);
    for (auto& c : codecs.GetArray()) all.PushBack(rapidjson::Value(c, alloc), alloc);
    codecs = all;
  }
  return json_text(d);
}

// "" when every member expected is in what libzarr wrote, with the same
// value (objects compared member by member, so written defaults may be
// added); else where the first difference is. A codec named by a bare string
// matches the object of that name libzarr writes; a number matches one of
// the same float32 value (libzarr writes a float32 fill value as zarr-python
// 3 does, the repr of the double it is: 1.23 as 1.2300000190734864).
std::string first_difference(const rapidjson::Value& written, const rapidjson::Value& expected, const std::string& at) {
  if (expected.IsString() && written.IsObject() && written.HasMember("name") && written["name"] == expected) return "";
  if (expected.IsNumber() && written.IsNumber() &&
      static_cast<float>(expected.GetDouble()) == static_cast<float>(written.GetDouble())) {
    return "";
  }
  if (expected.IsObject() && written.IsObject()) {
    for (const auto& m : expected.GetObject()) {
      const std::string here = at + "." + m.name.GetString();
      if (!written.HasMember(m.name)) return here + " is missing";
      const std::string d = first_difference(written[m.name], m.value, here);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (expected.IsArray() && written.IsArray() && expected.Size() == written.Size()) {
    for (rapidjson::SizeType i = 0; i < expected.Size(); ++i) {
      const std::string d = first_difference(written[i], expected[i], at + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return written == expected ? "" : at + " is " + json_text(written) + ", expected " + json_text(expected);
}

// The zarr.json written at `folder` keeps each member of the README's
// fragment as the array `document` made of it has it (so a serializer this
// test put in front of the README's codecs is expected too), with
// `written_as` over them: the members libzarr writes in another spelling on
// purpose.
void expect_zarr_json_keeps(const std::string& folder, const rapidjson::Value& fragment, const std::string& document,
                            const char* written_as = nullptr) {
  const rapidjson::Document created = parsed(document);
  rapidjson::Document expected(rapidjson::kObjectType);
  for (const auto& m : fragment.GetObject()) {
    expected.AddMember(rapidjson::Value(m.name, expected.GetAllocator()),
                       rapidjson::Value(created[m.name], expected.GetAllocator()), expected.GetAllocator());
  }
  if (written_as) merge_into(expected, parsed(written_as), expected.GetAllocator());
  const rapidjson::Document written = parsed(zarr::ByteView(read_file(folder + "/zarr.json")).to_string());
  EXPECT_EQ(first_difference(written, expected, "zarr.json"), "") << json_text(written);
}

// ---- the encodings the READMEs give ---------------------------------------------------------

void append_u32le(zarr::Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// vlen-utf8 / vlen-bytes: a u32le count, then each element as a u32le length and its bytes.
zarr::Bytes vlen_chunk(const std::vector<std::string>& items) {
  zarr::Bytes out;
  append_u32le(out, static_cast<uint32_t>(items.size()));
  for (const std::string& item : items) {
    append_u32le(out, static_cast<uint32_t>(item.size()));
    out.insert(out.end(), item.begin(), item.end());
  }
  return out;
}

// fixed_length_utf32: the code points of `text`, then U+0000 up to `capacity`.
std::vector<uint32_t> utf32_item(const std::u32string& text, size_t capacity) {
  std::vector<uint32_t> out(text.begin(), text.end());
  out.resize(capacity, 0);
  return out;
}

template <typename T>
zarr::Bytes little_endian_bytes(const std::vector<T>& values) {
  zarr::Bytes out;
  for (const T& v : values) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }
  return out;
}

}  // namespace

// ---- every README example -------------------------------------------------------------------

namespace {

// What this test knows of a README block beyond the rules of
// completed_array_document: members it must add for the example to make an
// array, or why the block cannot be taken as written.
struct ReadmeExampleNote {
  const char* extension;  // "<folder of the point>/<name>"
  size_t block;
  const char* completion;     // JSON members under the README's, or nullptr
  const char* readme_defect;  // the README's mistake (the block must fail to parse or to create), or nullptr
  const char* written_as = nullptr;  // members libzarr writes in another spelling on purpose, or nullptr
};

const ReadmeExampleNote kReadmeExampleNotes[] = {
    {"codecs/reshape", 0, nullptr,
     "the JSON lacks a comma after \"bytes\" (and lists the bytes codec after zstd)"},
    {"codecs/conditional", 0, nullptr,
     "its inner \"shuffle\" is no registered codec (zarr-python 3 and libzarr name it numcodecs.shuffle)"},
    {"codecs/scale_offset", 0, nullptr,
     "a bare \"bytes\" serializes float32, which the core spec's bytes codec refuses without \"endian\""},
    {"codecs/scale_offset", 1, R"({"fill_value": 1000})",
     nullptr},  // the default fill value 0 is 1000 below the offset: no uint8 after the cast
    {"codecs/n5_default", 0, R"({"shape": [4, 6]})", nullptr},  // "// ..." hides the shape; the transpose is 2D
    {"data-types/fixed_length_utf32", 1, R"({"data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 48}}})",
     nullptr},  // the fill value section's "foo", with the example's type
    // the fields alone: the fill value every field needs ("structured": its 8 bytes, zero, in base64)
    {"data-types/struct", 1, R"({"fill_value": {"timestamp": "NaT", "value": 0.0}})", nullptr},
    {"data-types/struct", 2, R"({"fill_value": {"point": {"x": 1.0, "y": 2.0}, "value": 3.14}})", nullptr},
    {"data-types/struct", 3, R"({"fill_value": {"id": 0, "flags": 0, "value": 0.0}})", nullptr},
    {"data-types/struct", 4, R"({"fill_value": {"point": {"x": 1.0, "y": 2.0}, "value": 3.14}})", nullptr},
    // libzarr writes the legacy "structured" as "struct" (the struct README: read the legacy name)
    {"data-types/structured", 0, R"({"fill_value": "AAAAAAAAAAA="})", nullptr,
     R"({"data_type": {"name": "struct", "configuration": {"fields": [
         {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}})"},
    // the fill value [1, 2, 3] written as base64, the form the bytes README calls more compact
    {"data-types/bytes", 0, nullptr, nullptr, R"({"fill_value": "AQID"})"},
    {"data-types/struct", 5, R"({"data_type": {"name": "struct", "configuration": {"fields": [
         {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}})",
     nullptr},  // a fill value alone, for the first example's type
    {"data-types/struct", 6, R"({"data_type": {"name": "struct", "configuration": {"fields": [
         {"name": "point", "data_type": {"name": "struct", "configuration": {"fields": [
             {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}},
         {"name": "value", "data_type": "float64"}]}}})",
     nullptr},  // a fill value alone, for the nested example's type
};

const ReadmeExampleNote* note_for(const std::string& extension, size_t block) {
  for (const ReadmeExampleNote& note : kReadmeExampleNotes) {
    if (extension == note.extension && block == note.block) return &note;
  }
  return nullptr;
}

}  // namespace

// Every extension folder of the registry: each README block that is array
// metadata creates an array, which reopens, and its zarr.json keeps the
// README's fields. The folders whose README has no such block are printed.
TEST(RegistryExamples, EveryReadmeMetadataExampleCreatesAnArray) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  std::vector<std::string> covered, uncovered, defective_only, defects;
  int n = 0;
  for (ExtensionPoint point : registry_extension_points()) {
    for (const std::string& name : registry_extension_folders(point)) {
      const std::string extension = std::string(zarr::extension_point_folder(point)) + "/" + name;
      const std::vector<std::string> blocks = registry_readme_json_blocks(point, name);
      bool created = false, defective = false;
      for (size_t i = 0; i < blocks.size(); ++i) {
        SCOPED_TRACE(extension + " block " + std::to_string(i));
        const ReadmeExampleNote* note = note_for(extension, i);
        const rapidjson::Document block = parsed(strict_json_of_readme_block(blocks[i]));
        const bool defect = note && note->readme_defect;
        if (block.HasParseError()) {
          EXPECT_TRUE(defect) << "not JSON:\n" << blocks[i];
          if (defect) defects.push_back(extension + " block " + std::to_string(i) + ": " + note->readme_defect);
          defective = true;
          continue;
        }
        const rapidjson::Document fragment = array_fragment_of(point, name, block);
        if (fragment.IsNull()) continue;  // not array metadata
        const std::string document = completed_array_document(fragment, note && note->completion ? note->completion : "{}");
        const std::string folder = tmp / std::to_string(n++);
        zarr_array* a = nullptr;
        const int status = zarr_create(&a, folder.c_str(), document.c_str());
        zarr_close(a);
        if (defect) {
          EXPECT_NE(status, ZARR_OK) << "the README defect noted here is gone: " << note->readme_defect;
          defects.push_back(extension + " block " + std::to_string(i) + ": " + note->readme_defect + " (" +
                            zarr_last_error() + ")");
          defective = true;
          continue;
        }
        EXPECT_EQ(status, ZARR_OK) << zarr_last_error() << "\n" << document;
        if (status != ZARR_OK) continue;
        ArrayPtr reopened = open_array(folder);
        EXPECT_NE(reopened.get(), nullptr) << document;
        expect_zarr_json_keeps(folder, fragment, document, note ? note->written_as : nullptr);
        created = true;
      }
      (created ? covered : defective ? defective_only : uncovered).push_back(extension);
    }
  }
  EXPECT_GE(covered.size(), 15u);
  std::cout << "[ readme ] " << covered.size() << " extensions' README metadata examples create arrays:";
  for (const std::string& e : covered) std::cout << " " << e;
  std::cout << "\n[ readme ] " << uncovered.size() << " extensions have no README metadata example to create:";
  for (const std::string& e : uncovered) std::cout << " " << e;
  // (RegistryCodecs.ConditionalReadmeExampleRoundTrips and tests/codecs/test_v3_array_codecs.cpp
  // take these examples corrected)
  std::cout << "\n[ readme ] " << defective_only.size() << " extensions' README examples are all defective:";
  for (const std::string& e : defective_only) std::cout << " " << e;
  std::cout << "\n";
  for (const std::string& d : defects) std::cout << "[ readme ] README defect, " << d << "\n";
}

// The README's example (fill value "" there) with the fill value of its
// "Fill value representation" section, "foo": every unwritten element reads
// as "foo" and nine U+0000; strings round-trip as UTF-32 code units, and the
// README's "Hi" example (length_bytes 12) is its 12 bytes.
TEST(RegistryExamples, FixedLengthUtf32ReadmeExampleWithFillValueFoo) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  rapidjson::Document fragment = readme_block(ExtensionPoint::DataType, "fixed_length_utf32", 0);
  merge_into(fragment, readme_block(ExtensionPoint::DataType, "fixed_length_utf32", 1), fragment.GetAllocator());
  ASSERT_EQ(json_text(fragment["fill_value"]), "\"foo\"");
  const std::string document = completed_array_document(fragment, R"({"shape": [3]})");
  ArrayPtr a = create_array(tmp / "u", document);
  ASSERT_EQ(zarr_item_size(a), 48u);
  const std::vector<uint32_t> foo = utf32_item(U"foo", 12);
  std::vector<uint32_t> fill(12);
  int is_null = 1;
  ASSERT_OK(zarr_fill_value(a, fill.data(), 48, &is_null));
  EXPECT_EQ(is_null, 0);
  EXPECT_EQ(fill, foo);
  EXPECT_EQ(read_region<uint32_t>(a, {2}, {1}), foo);

  std::vector<uint32_t> items = utf32_item(U"Hi", 12);
  for (const std::u32string& s : {std::u32string(U"twelve chars"), std::u32string(U"\u00e9\u20ac\U0001F600")}) {
    const std::vector<uint32_t> item = utf32_item(s, 12);
    items.insert(items.end(), item.begin(), item.end());
  }
  ASSERT_OK(write_region<uint32_t>(a, {0}, {3}, items));
  EXPECT_EQ(read_all<uint32_t>(open_array(tmp / "u")), items);
  EXPECT_EQ(read_file(tmp / "u/c/0"), little_endian_bytes(items));
  expect_zarr_json_keeps(tmp / "u", fragment, document);

  // The README's byte layout: "Hi" in length_bytes 12.
  ArrayPtr hi = create_array(tmp / "hi12", completed_array_document(parsed(R"({"shape": [1], "fill_value": "",
      "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 12}},
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})")));
  ASSERT_OK(write_region<uint32_t>(hi, {0}, {1}, utf32_item(U"Hi", 3)));
  EXPECT_EQ(read_file(tmp / "hi12/c/0"), (zarr::Bytes{0x48, 0, 0, 0, 0x69, 0, 0, 0, 0, 0, 0, 0}));

  // "Decoding a JSON string with more than length_bytes / 4 code points is invalid and MUST be rejected."
  merge_into(fragment, parsed(R"({"fill_value": "thirteen code"})"), fragment.GetAllocator());
  zarr_array* bad = nullptr;
  EXPECT_STATUS(zarr_create(&bad, (tmp / "bad").c_str(), completed_array_document(fragment).c_str()),
                ZARR_ERR_INVALID_METADATA, "fill_value");
  zarr_close(bad);
}

// The README examples (unit "us", scale_factor 10) with each form of NaT
// the README allows as fill value ("NaT" and -2^63), and a number; int64
// values, extremes included, round-trip little-endian.
TEST(RegistryExamples, DatetimeAndTimedeltaReadmeExamplesRoundTrip) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  const int64_t nat = std::numeric_limits<int64_t>::min();
  for (const char* name : {"numpy.datetime64", "numpy.timedelta64"}) {
    SCOPED_TRACE(name);
    const rapidjson::Document fragment =
        array_fragment_of(ExtensionPoint::DataType, name, readme_block(ExtensionPoint::DataType, name, 0));
    ASSERT_TRUE(fragment.IsObject());
    EXPECT_EQ(json_text(fragment["data_type"]["configuration"]), R"({"unit":"us","scale_factor":10})");
    const std::string typestr = std::string(name) == "numpy.datetime64" ? "\"<M8[10us]\"" : "\"<m8[10us]\"";
    const char* const fills[] = {"\"NaT\"", "-9223372036854775808", "42"};
    for (size_t f = 0; f < 3; ++f) {
      const char* fill = fills[f];
      SCOPED_TRACE(fill);
      const std::string folder = tmp / (std::string(name) + "-fill" + std::to_string(f));
      const std::string document =
          completed_array_document(fragment, std::string(R"({"shape": [6], "fill_value": )") + fill + "}");
      ArrayPtr a = create_array(folder, document);
      EXPECT_EQ(zarr_data_type(a), typestr);
      const int64_t expected_fill = std::string(fill) == "42" ? 42 : nat;
      EXPECT_EQ(read_all<int64_t>(a), std::vector<int64_t>(6, expected_fill));
      const std::vector<int64_t> values{0, 1, -1, std::numeric_limits<int64_t>::max(), nat + 1, nat};
      ASSERT_OK(write_region<int64_t>(a, {0}, {6}, values));
      EXPECT_EQ(read_all<int64_t>(open_array(folder)), values);
      EXPECT_EQ(read_file(folder + "/c/0"), little_endian_bytes(values));
      expect_zarr_json_keeps(folder, fragment, document);
    }
    // "us" and "μs" are the same unit.
    ArrayPtr mu = create_array(tmp / (std::string(name) + "mu"),
                               completed_array_document(parsed(std::string(R"({"data_type": {"name": ")") + name +
                                                               R"(", "configuration": {"unit": "\u03bcs", "scale_factor": 10}}})")));
    EXPECT_EQ(zarr_data_type(mu), typestr);
  }
}

// The string README's example: fill value "foo", vlen-utf8 chunks laid out
// as vlen-utf8's README says (a u32le count, then a u32le length and the
// UTF-8 bytes of each element).
TEST(RegistryExamples, StringReadmeExampleFillsWithFoo) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  const rapidjson::Document fragment = readme_block(ExtensionPoint::DataType, "string", 0);
  ASSERT_EQ(json_text(fragment["fill_value"]), "\"foo\"");
  const std::string document = completed_array_document(fragment, R"({"shape": [4]})");
  ArrayPtr a = create_array(tmp / "s", document);
  EXPECT_EQ(read_strings(a, {0}, {4}), (std::vector<std::string>(4, "foo")));
  ASSERT_OK(write_strings(a, {0}, {3}, {"a", "", "\xc3\xbc" "n\xc3\xaf" "code \xf0\x9f\x98\x80"}));
  const std::vector<std::string> expected{"a", "", "\xc3\xbc" "n\xc3\xaf" "code \xf0\x9f\x98\x80", "foo"};
  EXPECT_EQ(read_strings(open_array(tmp / "s"), {0}, {4}), expected);
  EXPECT_EQ(read_file(tmp / "s/c/0"), vlen_chunk(expected));
  expect_zarr_json_keeps(tmp / "s", fragment, document);
}

// vlen-utf8's and vlen-bytes' README examples, and the bytes data type's
// two fill value examples ([1, 2, 3] and base64 "AQID", the same bytes).
TEST(RegistryExamples, VlenReadmeExamplesRoundTrip) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  const std::vector<std::string> strings{"", "h\xc3\xa9llo", "wide \xe2\x98\x83", "last"};
  const std::vector<std::string> bytes{std::string("\0\xff\x01", 3), "", "abc", std::string(300, '\x7f')};
  for (const auto& [codec, items] : {std::pair{"vlen-utf8", strings}, std::pair{"vlen-bytes", bytes}}) {
    SCOPED_TRACE(codec);
    const rapidjson::Document fragment = readme_block(ExtensionPoint::Codec, codec, 0);
    const std::string folder = tmp / codec;
    const std::string document = completed_array_document(fragment, R"({"shape": [4]})");
    ArrayPtr a = create_array(folder, document);
    EXPECT_EQ(read_strings(a, {0}, {4}), std::vector<std::string>(4, ""));
    ASSERT_OK(write_strings(a, {0}, {4}, items));
    EXPECT_EQ(read_strings(open_array(folder), {0}, {4}), items);
    EXPECT_EQ(read_file(folder + "/c/0"), vlen_chunk(items));
    expect_zarr_json_keeps(folder, fragment, document);
  }
  for (size_t block : {0, 1}) {
    SCOPED_TRACE(block);
    const rapidjson::Document fragment = readme_block(ExtensionPoint::DataType, "bytes", block);
    const std::string folder = tmp / ("bytes" + std::to_string(block));
    const std::string document = completed_array_document(fragment, R"({"shape": [2]})");
    ArrayPtr a = create_array(folder, document);
    EXPECT_EQ(read_strings(a, {0}, {2}), std::vector<std::string>(2, "\x01\x02\x03"));
    ASSERT_OK(write_strings(a, {0}, {1}, {"x"}));
    EXPECT_EQ(read_strings(open_array(folder), {0}, {2}), (std::vector<std::string>{"x", "\x01\x02\x03"}));
    const ReadmeExampleNote* note = note_for("data-types/bytes", block);
    expect_zarr_json_keeps(folder, fragment, document, note ? note->written_as : nullptr);
  }
}

namespace {

// bitround as its README defines it: the mantissa rounded to `keepbits`
// bits, to nearest with ties to even (numcodecs' arithmetic); the sign and
// exponent kept, so infinities stay and NaN stays NaN.
template <typename Float, typename Bits>
Float bitround_reference(Float value, int keepbits) {
  const int drop = std::numeric_limits<Float>::digits - 1 - keepbits;
  Bits bits;
  std::memcpy(&bits, &value, sizeof bits);
  const Bits half = (Bits{1} << (drop - 1)) - 1;
  bits = (bits + half + ((bits >> drop) & 1)) & ~((Bits{1} << drop) - 1);
  Float out;
  std::memcpy(&out, &bits, sizeof bits);
  return std::isnan(value) ? value : out;
}

template <typename Float>
void expect_same_floats(const std::vector<Float>& got, const std::vector<Float>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_EQ(std::memcmp(&got[i], &expected[i], sizeof(Float)), 0) << i << ": " << got[i] << " != " << expected[i];
    }
  }
}

}  // namespace

// bitround's README example (keepbits 10) on float32 and float64: values
// read back rounded as the README defines it, ties to even, with zeros of
// both signs, a subnormal, NaN and the infinities kept.
TEST(RegistryExamples, BitroundReadmeExampleKeeps10Bits) {
  SKIP_WITHOUT_REGISTRY();
  TempDir tmp;
  const rapidjson::Document fragment = readme_block(ExtensionPoint::Codec, "bitround", 0);
  ASSERT_EQ(json_text(fragment["codecs"][0]), R"({"name":"bitround","configuration":{"keepbits":10}})");
  const double inf = std::numeric_limits<double>::infinity();
  // 1 + 2^-11 and 1 + 3 * 2^-11 are ties at 10 bits: to 1 and to 1 + 2^-9.
  const std::vector<double> values{0.0, -0.0, 1.0, 1.0 + std::ldexp(1, -11), 1.0 + 3 * std::ldexp(1, -11), 3.14159265358979,
                                   -123456.789, 1e-40, std::nan(""), inf, -inf};
  {
    const std::string document = completed_array_document(fragment, R"({"shape": [11]})");
    ArrayPtr a = create_array(tmp / "f32", document);
    std::vector<float> in, expected;
    for (double v : values) {
      in.push_back(static_cast<float>(v));
      expected.push_back(bitround_reference<float, uint32_t>(static_cast<float>(v), 10));
    }
    EXPECT_EQ(expected[3], 1.0f);
    EXPECT_EQ(expected[4], 1.0f + std::ldexp(1.0f, -9));
    ASSERT_OK(write_region<float>(a, {0}, {11}, in));
    expect_same_floats(read_all<float>(open_array(tmp / "f32")), expected);
    expect_zarr_json_keeps(tmp / "f32", fragment, document);
  }
  {
    ArrayPtr a = create_array(tmp / "f64", completed_array_document(fragment, R"({"shape": [11], "data_type": "float64"})"));
    std::vector<double> expected;
    for (double v : values) expected.push_back(bitround_reference<double, uint64_t>(v, 10));
    ASSERT_OK(write_region<double>(a, {0}, {11}, values));
    expect_same_floats(read_all<double>(open_array(tmp / "f64")), expected);
  }
}

// zstd's README example (level 1, checksum true), after the bytes codec:
// the chunk is a Zstandard frame whose header says a checksum follows; a
// chunk whose checksum is wrong does not read.
TEST(RegistryExamples, ZstdReadmeExampleStoresAndChecksAChecksum) {
  SKIP_WITHOUT_REGISTRY();
  if (!ZARR_HAVE_ZSTD) GTEST_SKIP() << "libzarr built without zstd";
  TempDir tmp;
  const rapidjson::Document fragment = readme_block(ExtensionPoint::Codec, "zstd", 0);
  ASSERT_EQ(json_text(fragment["codecs"][0]["configuration"]), R"({"level":1,"checksum":true})");
  const std::string document = completed_array_document(fragment, R"({"shape": [64], "data_type": "int32"})");
  ArrayPtr a = create_array(tmp / "z", document);
  std::vector<int32_t> values(64);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i * i) - 1000;
  ASSERT_OK(write_region<int32_t>(a, {0}, {64}, values));
  EXPECT_EQ(read_all<int32_t>(open_array(tmp / "z")), values);
  zarr::Bytes chunk = read_file(tmp / "z/c/0");
  ASSERT_GT(chunk.size(), 9u);
  EXPECT_EQ(zarr::Bytes(chunk.begin(), chunk.begin() + 4), (zarr::Bytes{0x28, 0xb5, 0x2f, 0xfd}));  // RFC 8878's magic
  EXPECT_EQ(chunk[4] & 0x04, 0x04);  // Frame_Header_Descriptor: Content_Checksum_flag
  expect_zarr_json_keeps(tmp / "z", fragment, document);
  chunk.back() ^= 0x01;  // the checksum's last byte
  write_file(tmp / "z/c/0", chunk);
  std::vector<int32_t> out(64);
  EXPECT_STATUS(zarr_read_region(open_array(tmp / "z"), 1, std::vector<uint64_t>{0}.data(),
                                 std::vector<uint64_t>{64}.data(), out.data(), out.size() * 4),
                ZARR_ERR_CODEC, "zstd");
}
