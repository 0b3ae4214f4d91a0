// Using liblongstraw from C++11: RAII handles over the C API, errors as
// exceptions. Built and run by `make test-c`.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "longstraw.h"

namespace {

struct SetDeleter {
  void operator()(longstraw_rendezvous *r) const { longstraw_rendezvous_free(r); }
};
struct SnapshotDeleter {
  void operator()(const longstraw_snapshot *s) const { longstraw_snapshot_free(s); }
};
using Set = std::unique_ptr<longstraw_rendezvous, SetDeleter>;
using Snapshot = std::unique_ptr<const longstraw_snapshot, SnapshotDeleter>;

void check(longstraw_result rc, const char *what) {
  if (rc != LONGSTRAW_OK) throw std::runtime_error(std::string(what) + ": " + longstraw_result_str(rc));
}

const std::uint8_t *bytes(const std::string &s) { return reinterpret_cast<const std::uint8_t *>(s.data()); }

std::string node_id(const Snapshot &s, std::uint32_t index) {
  const std::uint8_t *id = nullptr;
  std::size_t len = 0;
  double weight = 0;
  check(longstraw_snapshot_node(s.get(), index, &id, &len, &weight), "node");
  return std::string(reinterpret_cast<const char *>(id), len);
}

}  // namespace

int main() {
  static_assert(LONGSTRAW_VERSION_NUMBER >= 100, "longstraw.h is at least 0.1.0");
  if (longstraw_version() != LONGSTRAW_VERSION_NUMBER) {
    std::fprintf(stderr, "header %d and library %u differ\n", LONGSTRAW_VERSION_NUMBER, longstraw_version());
    return 1;
  }
  try {
    longstraw_rendezvous *raw = nullptr;
    check(longstraw_rendezvous_new(nullptr, &raw), "new");
    Set set(raw);
    for (const std::string id : {"cache-a", "cache-b", "cache-c"}) {
      check(longstraw_rendezvous_add(set.get(), bytes(id), id.size(), 1.0), "add");
    }
    const longstraw_snapshot *snap_raw = nullptr;
    check(longstraw_rendezvous_snapshot(set.get(), &snap_raw), "snapshot");
    Snapshot snap(snap_raw);

    const std::string key = "user:42";
    std::uint32_t index = 0;
    const std::uint8_t *id = nullptr;
    std::size_t id_len = 0;
    check(longstraw_snapshot_owner(snap.get(), bytes(key), key.size(), &index, &id, &id_len), "owner");
    std::vector<std::uint32_t> top(2);
    std::size_t written = 0;
    check(longstraw_snapshot_top_k(snap.get(), bytes(key), key.size(), top.data(), top.size(), &written), "top_k");
    if (written != 2 || top[0] != index) throw std::runtime_error("top_k does not start with the owner");
    std::printf("C++ example (liblongstraw %s): %s -> %.*s, replica %s\n", longstraw_version_string(), key.c_str(),
                static_cast<int>(id_len), reinterpret_cast<const char *>(id), node_id(snap, top[1]).c_str());

    // Errors become exceptions; nothing crashes.
    try {
      check(longstraw_rendezvous_add(set.get(), bytes("cache-a"), 7, 1.0), "add cache-a again");
      return 1;
    } catch (const std::runtime_error &e) {
      std::printf("expected error: %s\n", e.what());
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "example: %s\n", e.what());
    return 1;
  }
  return 0;
}
