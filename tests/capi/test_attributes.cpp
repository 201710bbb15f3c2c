// Attributes by key: zarr_get_attribute / zarr_update_attributes and their
// group forms, for v2 and v3 arrays and groups. An update reads the
// attributes as stored, merges and writes them under the node's lock, so
// writers of different keys lose nothing of each other's: threads of one
// process (any handles), and processes (attr_writer.c) with
// "process_lock_dir".
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

struct NodeCase {
  const char* name;
  bool group;
  int format;
};

const NodeCase kNodeCases[] = {{"ArrayV2", false, 2}, {"ArrayV3", false, 3}, {"GroupV2", true, 2}, {"GroupV3", true, 3}};

std::string v3_array_meta(const std::string& extra = "") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32", )"
         R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, )"
         R"("chunk_key_encoding": {"name": "default"}, "fill_value": 0)" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

// Where a node of the case keeps its attributes.
std::string attributes_file(const NodeCase& c, const std::string& url) {
  return url + (c.format == 3 ? "/zarr.json" : "/.zattrs");
}

std::string taken(char* s) {
  std::string out = s ? s : "";
  zarr_free(s);
  return out;
}

// An open array or group, through the calls of its kind.
class Node {
 public:
  Node(const NodeCase& c, const std::string& url, const char* mode = "r+", const char* options = nullptr) : case_(c) {
    const int status = c.group ? zarr_group_open_ex(group_.out(), url.c_str(), mode, options)
                               : zarr_open_ex(array_.out(), url.c_str(), mode, options);
    EXPECT_EQ(status, ZARR_OK) << status_text(status);
  }
  static void create(const NodeCase& c, const std::string& url, const char* attributes = "{}") {
    if (c.group) {
      GroupPtr g;
      const std::string options = "{\"zarr_format\": " + std::to_string(c.format) + "}";
      ASSERT_OK(zarr_group_create_ex(g.out(), url.c_str(), attributes, options.c_str()));
      return;
    }
    ArrayPtr a = create_array(url, c.format == 3 ? v3_array_meta() : array_meta("[4]", "[2]"));
    ASSERT_OK(zarr_set_attributes(a, attributes));
  }

  int get(const char* key, std::string* value) const {
    char* json = nullptr;
    const int status =
        case_.group ? zarr_group_get_attribute(group_, key, &json) : zarr_get_attribute(array_, key, &json);
    if (value) *value = taken(json);
    return status;
  }
  std::string get(const char* key) const {
    std::string value;
    const int status = get(key, &value);
    EXPECT_EQ(status, ZARR_OK) << status_text(status);
    return value;
  }
  int update(const char* json_object) {
    return case_.group ? zarr_group_update_attributes(group_, json_object) : zarr_update_attributes(array_, json_object);
  }
  int set(const char* json) { return case_.group ? zarr_group_set_attributes(group_, json) : zarr_set_attributes(array_, json); }
  std::string attributes() const { return case_.group ? group_attributes_of(group_) : attributes_of(array_); }
  zarr_array* array() const { return array_; }

 private:
  NodeCase case_;
  ArrayPtr array_;
  GroupPtr group_;
};

class AttributesByKey : public testing::TestWithParam<NodeCase> {
 protected:
  TempDir dir;
  std::string url = dir / "node";
  const NodeCase& c = GetParam();
};

TEST_P(AttributesByKey, GetGivesOneAttributesJsonValue) {
  Node::create(c, url, R"({"units": "m", "scale": {"factor": [1, 2.5]}, "none": null})");
  Node node(c, url, "r");
  EXPECT_EQ(node.get("units"), "\"m\"");
  EXPECT_EQ(node.get("scale"), R"({"factor":[1,2.5]})");
  EXPECT_EQ(node.get("none"), "null");
  std::string value = "untouched";
  EXPECT_STATUS(node.get("unit", &value), ZARR_ERR_NOT_FOUND, "no attribute \"unit\"");
  EXPECT_EQ(value, "") << "json_out is NULL on failure";
  EXPECT_STATUS(node.get("", nullptr), ZARR_ERR_INVALID_ARGUMENT, "must not be empty");
  EXPECT_STATUS(node.get(nullptr, nullptr), ZARR_ERR_INVALID_ARGUMENT, "key");
  const int no_out =
      c.group ? zarr_group_get_attribute(nullptr, "units", nullptr) : zarr_get_attribute(node.array(), "units", nullptr);
  EXPECT_STATUS(no_out, ZARR_ERR_INVALID_ARGUMENT, "json_out");
}

TEST_P(AttributesByKey, UpdateReplacesAddsAndRemovesKeysAndKeepsTheOthers) {
  Node::create(c, url, R"({"a": 1, "b": 2, "c": 3})");
  Node node(c, url);
  ASSERT_OK(node.update(R"({"b": [20], "c": null, "d": {"e": true}, "absent": null})"));
  const std::string expected = R"({"a":1,"b":[20],"d":{"e":true}})";
  EXPECT_EQ(node.attributes(), expected) << "the handle shows what it wrote";
  EXPECT_EQ(node.get("b"), "[20]");
  EXPECT_EQ(Node(c, url, "r").attributes(), expected) << "and so does the store";
  ASSERT_OK(node.update("{}"));
  EXPECT_EQ(Node(c, url, "r").attributes(), expected);
}

// The update merges into the attributes as stored, not into this handle's
// copy: another handle's change made since is kept.
TEST_P(AttributesByKey, UpdateMergesIntoTheStoredAttributesNotTheHandlesCopy) {
  Node::create(c, url);
  Node first(c, url), second(c, url);
  EXPECT_EQ(first.attributes(), "{}");
  EXPECT_EQ(second.attributes(), "{}");
  ASSERT_OK(first.update(R"({"x": 1})"));
  // get reads as zarr_get_attributes does: this handle's copy, until it changes them.
  EXPECT_STATUS(second.get("x", nullptr), ZARR_ERR_NOT_FOUND, "\"x\"");
  ASSERT_OK(second.update(R"({"y": 2})"));
  EXPECT_EQ(second.attributes(), R"({"x":1,"y":2})");
  EXPECT_EQ(second.get("x"), "1");
  EXPECT_EQ(Node(c, url, "r").attributes(), R"({"x":1,"y":2})");
}

TEST_P(AttributesByKey, BadUpdatesAreRefusedAndChangeNothing) {
  Node::create(c, url, R"({"kept": 1})");
  const zarr::Bytes before = read_file(attributes_file(c, url));
  Node node(c, url);
  EXPECT_STATUS(node.update(nullptr), ZARR_ERR_INVALID_ARGUMENT, "json_object");
  EXPECT_STATUS(node.update("[1, 2]"), ZARR_ERR_INVALID_ARGUMENT, "expected a JSON object, got an array");
  EXPECT_STATUS(node.update("\"text\""), ZARR_ERR_INVALID_ARGUMENT, "got a string");
  EXPECT_STATUS(node.update("null"), ZARR_ERR_INVALID_ARGUMENT, "got null");
  EXPECT_STATUS(node.update("{\"a\": "), ZARR_ERR_INVALID_METADATA, "malformed JSON");
  // A name no C string (zarr_get_attribute's key) could name again.
  EXPECT_STATUS(node.update(R"({"ok": 1, "a\u0000b": 2})"), ZARR_ERR_INVALID_ARGUMENT, "attribute name holds a NUL byte");
  EXPECT_EQ(read_file(attributes_file(c, url)), before);
  Node reader(c, url, "r");
  EXPECT_STATUS(reader.update(R"({"x": 1})"), ZARR_ERR_READ_ONLY, "read-only");
  EXPECT_EQ(read_file(attributes_file(c, url)), before);
  const int null_handle = c.group ? zarr_group_update_attributes(nullptr, "{}") : zarr_update_attributes(nullptr, "{}");
  EXPECT_STATUS(null_handle, ZARR_ERR_INVALID_ARGUMENT, c.group ? "group" : "array");
}

// Stored attributes that are not an object (another writer's damage) are
// refused naming the file, and left as they are.
TEST_P(AttributesByKey, StoredAttributesThatAreNotAnObjectAreInvalidMetadataNamingTheFile) {
  Node::create(c, url);
  Node node(c, url);
  const std::string file = attributes_file(c, url);
  if (c.format == 3) {
    std::string doc = zarr::ByteView(read_file(file)).to_string();
    const size_t at = doc.find("\"attributes\": {}");
    ASSERT_NE(at, std::string::npos) << doc;
    doc.replace(at, 16, "\"attributes\": [1]");
    write_file(file, zarr::ByteView(doc));
  } else {
    write_file(file, zarr::ByteView(std::string("[1]")));
  }
  const std::string named = c.format == 3 ? "'zarr.json' in " : "'.zattrs' in ";
  const std::string what = c.format == 3 ? "field 'attributes' must be an object, got an array"
                                         : "expected a JSON object, got an array";
  const zarr::Bytes before = read_file(file);
  EXPECT_STATUS(node.update(R"({"x": 1})"), ZARR_ERR_INVALID_METADATA, what);
  EXPECT_STATUS(node.update(R"({"x": 1})"), ZARR_ERR_INVALID_METADATA, named + url);
  EXPECT_STATUS(node.set(R"({"x": 1})"), ZARR_ERR_INVALID_METADATA, what);
  EXPECT_EQ(read_file(file), before);
  write_file(file, zarr::ByteView(std::string("{\"attributes\": ")));
  EXPECT_STATUS(node.update(R"({"x": 1})"), ZARR_ERR_INVALID_METADATA, "malformed JSON");
}

// Threads, each with its own handle on the node, adding their own keys: an
// update that merged into a stale copy would drop the other's keys.
TEST_P(AttributesByKey, TwoThreadsUpdatingDifferentKeysLoseNothing) {
  constexpr int kUpdates = 1000;
  Node::create(c, url);
  Node first(c, url), second(c, url);
  auto add_keys = [&](Node& node, const char* prefix) {
    for (int i = 0; i < kUpdates; ++i) {
      const std::string update = "{\"" + std::string(prefix) + std::to_string(i) + "\": " + std::to_string(i) + "}";
      ASSERT_EQ(node.update(update.c_str()), ZARR_OK) << zarr_last_error();
    }
  };
  std::thread a(add_keys, std::ref(first), "a"), b(add_keys, std::ref(second), "b");
  a.join();
  b.join();
  rapidjson::Document stored;
  stored.Parse(Node(c, url, "r").attributes().c_str());
  ASSERT_TRUE(stored.IsObject());
  EXPECT_EQ(stored.MemberCount(), 2u * kUpdates);
  for (int i = 0; i < kUpdates; i += 111) {
    EXPECT_TRUE(stored.HasMember(("a" + std::to_string(i)).c_str())) << "a" << i;
    EXPECT_TRUE(stored.HasMember(("b" + std::to_string(i)).c_str())) << "b" << i;
  }
}

// zarr_set_attributes takes the same lock: an update never writes back a
// document read before a set, so the last set's value stays.
TEST_P(AttributesByKey, SetAndUpdateDoNotInterleave) {
  constexpr int kCalls = 300;
  Node::create(c, url);
  Node setter(c, url), updater(c, url);
  std::thread sets([&] {
    for (int i = 0; i < kCalls; ++i) {
      const std::string attrs = "{\"set\": " + std::to_string(i) + "}";
      ASSERT_EQ(setter.set(attrs.c_str()), ZARR_OK) << zarr_last_error();
    }
  });
  for (int i = 0; i < kCalls; ++i) ASSERT_OK(updater.update(("{\"u" + std::to_string(i) + "\": 1}").c_str()));
  sets.join();
  EXPECT_EQ(Node(c, url, "r").get("set"), std::to_string(kCalls - 1));
}

INSTANTIATE_TEST_SUITE_P(Nodes, AttributesByKey, testing::ValuesIn(kNodeCases),
                         [](const testing::TestParamInfo<NodeCase>& info) { return std::string(info.param.name); });

// v3: the update rewrites only the attributes member of zarr.json; every
// other member, and their order, stays as stored.
TEST(AttributesByKeyV3, ZarrJsonKeepsEveryOtherMember) {
  TempDir dir;
  const std::string url = dir / "a";
  create_array(url, v3_array_meta(R"("dimension_names": ["x"], "attributes": {"old": 1})"));
  // A member written by another implementation, which it marks ignorable.
  std::string doc = zarr::ByteView(read_file(url + "/zarr.json")).to_string();
  doc.insert(doc.rfind('}'), R"(, "my_extension": {"must_understand": false, "n": [1, 2]})");
  write_file(url + "/zarr.json", zarr::ByteView(doc));
  ArrayPtr a = open_array(url, "r+");
  ASSERT_OK(zarr_update_attributes(a, R"({"new": "v"})"));
  rapidjson::Document before, after;
  before.Parse(doc.c_str());
  after.Parse(zarr::ByteView(read_file(url + "/zarr.json")).to_string().c_str());
  ASSERT_TRUE(after.IsObject());
  EXPECT_EQ(zarr::ByteView(read_file(url + "/zarr.json")).to_string().rfind("{\n  \"", 0), 0u)
      << "indent 2, as zarr-python 3 writes zarr.json";
  auto b = before.MemberBegin();
  for (auto m = after.MemberBegin(); m != after.MemberEnd(); ++m, ++b) {
    ASSERT_NE(b, before.MemberEnd());
    EXPECT_EQ(std::string(m->name.GetString()), b->name.GetString()) << "member order kept";
    if (std::string(m->name.GetString()) == "attributes") continue;
    EXPECT_TRUE(m->value == b->value) << m->name.GetString() << " changed";
  }
  EXPECT_TRUE(after["attributes"] == before["attributes"].AddMember("new", "v", before.GetAllocator()));
}

// A v3 resize writes zarr.json whole: under the attributes' lock, with the
// stored attributes, so a handle opened before another's change keeps it.
TEST(AttributesByKeyV3, ResizeKeepsAttributesAnotherHandleChanged) {
  TempDir dir;
  const std::string url = dir / "a";
  create_array(url, v3_array_meta());
  ArrayPtr resizer = open_array(url, "r+"), other = open_array(url, "r+");
  EXPECT_EQ(attributes_of(resizer), "{}");
  ASSERT_OK(zarr_update_attributes(other, R"({"kept": true})"));
  const uint64_t shape[1] = {8};
  ASSERT_OK(zarr_resize(resizer, 1, shape));
  EXPECT_EQ(attributes_of(open_array(url)), R"({"kept":true})");
  EXPECT_EQ(attributes_of(resizer), R"({"kept":true})") << "the resizing handle took the stored ones";
}

TEST(AttributesByKeyV3, AZarrJsonGoneIsNotFound) {
  TempDir dir;
  const std::string url = dir / "g";
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), url.c_str(), nullptr, R"({"zarr_format": 3})"));
  std::filesystem::remove(url + "/zarr.json");
  EXPECT_STATUS(zarr_group_update_attributes(g, R"({"x": 1})"), ZARR_ERR_NOT_FOUND, "no longer exists");
  EXPECT_FALSE(std::filesystem::exists(url + "/zarr.json")) << "nothing written";
}

// ---- processes --------------------------------------------------------------

constexpr int kProcessUpdates = 150;

struct Writer {
  pid_t pid = -1;
  int go = -1;     // write end of the writer's stdin: one byte starts it
  int ready = -1;  // read end of its stdout: "ready" once the node is open
};

Writer start_writer(const std::string& url, const char* kind, const std::string& options, int writer) {
  int go[2], ready[2];
  if (pipe(go) != 0 || pipe(ready) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(go[0], STDIN_FILENO);
    dup2(ready[1], STDOUT_FILENO);
    close(go[1]);
    close(ready[0]);
    const std::string writer_text = std::to_string(writer), count_text = std::to_string(kProcessUpdates);
    execl(ATTR_WRITER, ATTR_WRITER, url.c_str(), kind, options.c_str(), writer_text.c_str(), count_text.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(go[0]);
  close(ready[1]);
  return {pid, go[1], ready[0]};
}

bool became_ready(const Writer& writer) {
  char line[8] = {0};
  const bool ready = read(writer.ready, line, sizeof line - 1) > 0;
  close(writer.ready);
  return ready;
}

bool finished_cleanly(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Two writer processes started together, each adding its own keys; the
// number of keys missing afterwards.
int lost_keys(const NodeCase& c, const std::string& url, const std::string& options) {
  Node::create(c, url);
  const char* kind = c.group ? "group" : "array";
  Writer a = start_writer(url, kind, options, 0), b = start_writer(url, kind, options, 1);
  EXPECT_GT(a.pid, 0);
  EXPECT_GT(b.pid, 0);
  EXPECT_TRUE(became_ready(a));
  EXPECT_TRUE(became_ready(b));
  const char go = 'g';
  EXPECT_EQ(write(a.go, &go, 1), 1);
  EXPECT_EQ(write(b.go, &go, 1), 1);
  close(a.go);
  close(b.go);
  EXPECT_TRUE(finished_cleanly(a.pid)) << "writer 0 failed";
  EXPECT_TRUE(finished_cleanly(b.pid)) << "writer 1 failed";
  rapidjson::Document stored;
  stored.Parse(Node(c, url, "r").attributes().c_str());
  int lost = 0;
  for (int w = 0; w < 2; ++w) {
    for (int i = 0; i < kProcessUpdates; ++i) {
      lost += !stored.IsObject() || !stored.HasMember(("w" + std::to_string(w) + "_" + std::to_string(i)).c_str());
    }
  }
  return lost;
}

std::string lock_options(const std::string& folder) { return R"({"process_lock_dir": ")" + folder + "\"}"; }

TEST_P(AttributesByKey, TwoProcessesWithProcessLockDirLoseNothing) {
  EXPECT_EQ(lost_keys(c, url, lock_options(dir / "locks")), 0);
  // The lock file is named after the attributes' key (the node is the root
  // of its store), in the lock folder, never inside the store.
  EXPECT_TRUE(std::filesystem::exists(dir / (c.format == 3 ? "locks/zarr.json.lock" : "locks/.zattrs.lock")));
  EXPECT_FALSE(std::filesystem::exists(url + "/.zattrs.lock"));
}

TEST_P(AttributesByKey, DISABLED_TwoProcessesWithoutProcessLockDirCanLoseKeys) {
  std::cout << "without process_lock_dir: " << lost_keys(c, url, "{}") << " of " << 2 * kProcessUpdates
            << " keys lost\n";
}

// Groups take the option too, and the groups opened or created through one
// inherit it: the lock file of a child's attributes appears.
TEST(AttributesByKeyGroups, ProcessLockDirIsAGroupOptionChildrenInherit) {
  TempDir dir;
  const std::string url = dir / "root";
  {
    GroupPtr root;
    ASSERT_OK(zarr_group_create_ex(root.out(), url.c_str(), nullptr, kV2Group));
  }
  GroupPtr root, child, made;
  ASSERT_OK(zarr_group_open_ex(root.out(), url.c_str(), "r+", lock_options(dir / "locks").c_str()));
  ASSERT_OK(zarr_group_create_group(child.out(), root, "child", nullptr));
  ASSERT_OK(zarr_group_update_attributes(child, R"({"x": 1})"));
  EXPECT_TRUE(std::filesystem::exists(dir / "locks/child/.zattrs.lock"));
  ASSERT_OK(zarr_group_open_group(made.out(), root, "child"));
  ASSERT_OK(zarr_group_update_attributes(made, R"({"y": 2})"));
  EXPECT_EQ(group_attributes_of(made), R"({"x":1,"y":2})");
  GroupPtr bad;
  EXPECT_STATUS(zarr_group_open_ex(bad.out(), url.c_str(), "r+", R"({"process_lock_dir": 5})"),
                ZARR_ERR_INVALID_ARGUMENT, "process_lock_dir");
  EXPECT_STATUS(zarr_group_open_ex(bad.out(), url.c_str(), "r+", R"({"process_lock_dir": "a\u0000b"})"),
                ZARR_ERR_INVALID_ARGUMENT, "holds a NUL byte");
}

// A lock file that cannot be made is ZARR_ERR_IO naming it, and nothing is written.
TEST(AttributesByKeyGroups, AnUncreatableLockFolderIsAnIoErrorAndWritesNothing) {
  TempDir dir;
  const std::string url = dir / "g";
  write_file(dir / "plain_file", zarr::ByteView(std::string("not a folder")));
  const std::string folder = (dir / "plain_file") + "/locks";
  {
    GroupPtr g;
    ASSERT_OK(zarr_group_create_ex(g.out(), url.c_str(), R"({"a": 1})", kV2Group));
  }
  GroupPtr g;
  ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r+", lock_options(folder).c_str()));
  EXPECT_STATUS(zarr_group_update_attributes(g, R"({"b": 2})"), ZARR_ERR_IO, folder);
  EXPECT_STATUS(zarr_group_set_attributes(g, R"({"b": 2})"), ZARR_ERR_IO, folder);
  GroupPtr r;
  ASSERT_OK(zarr_group_open(r.out(), url.c_str(), "r"));
  EXPECT_EQ(group_attributes_of(r), R"({"a":1})");
}

}  // namespace
