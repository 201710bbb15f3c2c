// Fetching and decoding as one pipeline (issue 25): a producer, on one
// thread, hands values over as they arrive (Store::get_each: a remote store
// keeps its requests in flight meanwhile); the region's other threads process
// each as soon as it is handed over, with no barrier between one value and
// the next. What waits to be processed is bounded: when it reaches the bound,
// the producer processes a value itself before it takes the next, which both
// holds the store back and keeps going when no other thread is free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "base/bytes.h"
#include "stores/store.h"

namespace zarr::engine {

using ValueArrived = Store::ValueArrived;

// Runs produce(arrived) on one of the region's threads and process(i, value)
// for every value it hands over, on up to thread_count() threads. At most
// `max_pending_bytes` of values wait (at least one value). The first
// exception of produce or process stops both and is rethrown, after every
// running process call has returned.
void fetch_and_process(const std::function<void(const ValueArrived&)>& produce,
                       const std::function<void(size_t, std::optional<Bytes>&)>& process,
                       uint64_t max_pending_bytes);

}  // namespace zarr::engine
