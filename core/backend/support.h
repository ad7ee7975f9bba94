// Which op x dtype pairs a backend runs, learnt by probing (like NNSmith's dtype test): for each
// registry op and element type, a one-node graph of that op with operands of that type runs on
// the backend. Learnt once per backend and version and cached on disk, so that `gen --for` and
// `fuzz --for` draw only what the backend supports and campaigns are not flooded with
// "not implemented" errors.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/base/dtype.h"
#include "core/graph/graph.h"

namespace retort {

enum class Support { Yes, No, Untyped };  // untyped: the op cannot take that dtype at all

struct SupportTable {
  std::string backend, version;
  std::map<std::string, std::map<DType, Support>> cells;  // op -> dtype -> support
  // What it was probed with (probe_fingerprint()): a cached table whose ops or workers have
  // changed since is probed again.
  std::string probed_with{};

  // For GenOptions::op_dtypes: per op, the operand dtypes the backend runs.
  std::map<std::string, std::set<DType>> supported() const;
  bool runs_nothing() const;  // no op in any dtype: a broken worker, never a release's table
  // A table for people: one row per op, one column per dtype ("+" runs, "-" fails, "." n/a).
  std::string str() const;
};

// A one-node graph of `op` whose first operand has dtype t, its attributes and shapes drawn with
// `seed`; results may take a second dtype (comparisons give bool, shape ops i64). Null when the
// op cannot be typed so. The probe's graphs, and `conform`'s (core/compare/conform.h).
std::optional<Graph> single_op_graph(const std::string& op, DType t, uint64_t seed);

// ${XDG_CACHE_HOME:-~/.cache}/retort/support/<backend>@<version>.json, with the name and version
// made safe by file_name_part (core/io/file_io.h).
std::string support_cache_path(const std::string& backend, const std::string& version);

// What a table of `backend` was probed with, as a hash: the probe's graphs and inputs as sent
// (the registry's ops, their ONNX forms, the probe's options) and the worker's files (its
// script and, for a Python worker, the shared package with the converters). A table probed
// before an op was added or a converter changed says nothing of them.
std::string probe_fingerprint(const std::string& backend);

// The cached table for the backend's release (its worker's hello) and probe_fingerprint(), else a
// fresh probe, cached when the cache folder takes it (a corrupt or foreign cache file is probed
// again). The probe sends a worker's graphs in batches, in probe requests to a worker of its own
// (docs/backend-protocol.md: the worker compiles a batch that runs once), and calls progress
// after each batch with (graphs done, graphs in all). When *cancel turns
// true (Ctrl-C) the probe stops between batches with an Error and caches nothing, so a partial
// table is never taken as whole.
SupportTable backend_support(Backend& backend, const std::string& name,
                             const std::function<void(size_t, size_t)>& progress = {},
                             const std::atomic<bool>* cancel = nullptr);

// The backend whose probe stands for `backend`'s release in a campaign: its family's baseline
// mode at that release ("ort@1.16.3:O0" for "ort@1.16.3:O3"), else the backend itself. An error
// of an optimising mode is a finding, not something the release cannot run. Empty for backends
// of no family (the reference, attached workers): they are not probed.
std::string release_probe(const std::string& backend);

// Per op, the operand dtypes that the backends of all the tables run (GenOptions::op_dtypes);
// no tables: no restriction.
std::map<std::string, std::set<DType>> supported_by_all(const std::vector<SupportTable>& tables);

}  // namespace retort
