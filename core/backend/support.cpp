#include "core/backend/support.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/backend/backend_set.h"
#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/base/terminal_text.h"
#include "core/exec/inputs.h"
#include "core/gen/graph_gen.h"
#include "core/io/file_io.h"
#include "core/io/json_reader.h"
#include "core/io/onnx_io.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

constexpr uint64_t kProbeSeed = 1;

Support probe(Backend& b, const std::string& op, DType t) {
  std::optional<Graph> g = single_op_graph(op, t, kProbeSeed);
  if (!g) return Support::Untyped;
  RunRequest request;
  request.graph = &*g;
  try {
    request.onnx = export_onnx(*g);
    request.inputs = generate_inputs(*g, kProbeSeed, nullptr);
  } catch (const Error&) {
    return Support::No;
  }
  return b.run(request).status == RunStatus::Ok ? Support::Yes : Support::No;
}

const char* support_word(Support s) {
  return s == Support::Yes ? "yes" : s == Support::No ? "no" : "n/a";
}

nlohmann::json to_json(const SupportTable& t) {
  nlohmann::json cells = nlohmann::json::object();
  for (const auto& [op, row] : t.cells)
    for (const auto& [dtype, s] : row) cells[op][std::string(dtype_name(dtype))] = support_word(s);
  return {{"backend", t.backend},
          {"version", t.version},
          {"probed_with", t.probed_with},
          {"cells", cells}};
}

std::optional<SupportTable> from_json(const nlohmann::json& j) {
  try {
    SupportTable t{j.at("backend").get<std::string>(),
                   j.at("version").get<std::string>(),
                   {},
                   j.value("probed_with", std::string())};
    for (const auto& [op, row] : j.at("cells").items()) {
      // Only the registry's ops: a cache file naming others (their names reach the terminal in
      // `backend support`) is not this build's, and is probed again.
      if (!OpRegistry::instance().find(op)) return std::nullopt;
      for (const auto& [name, word] : row.items()) {
        auto dtype = parse_dtype(name);
        if (!dtype) return std::nullopt;
        std::string w = word.get<std::string>();
        t.cells[op][*dtype] = w == "yes"  ? Support::Yes
                              : w == "no" ? Support::No
                                          : Support::Untyped;
      }
    }
    return t;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<Graph> single_op_graph(const std::string& op, DType t, uint64_t seed) {
  // The second dtype gives the operands that have another: a where's condition, an index, and
  // QDQ's quantized side and f32 scale (u8, f32).
  for (DType other : {t, DType::boolean, DType::i64, DType::u8, DType::f32}) {
    GenOptions g;
    g.min_nodes = g.max_nodes = 1;
    g.ops = {op};
    g.dtypes = {t};
    if (other != t) g.dtypes.push_back(other);
    g.max_rank = 3;
    g.max_dim = 3;
    g.op_dtypes[op] = {t};
    try {
      return generate_graph(g, seed);
    } catch (const Error&) {
    }
  }
  return std::nullopt;
}

std::map<std::string, std::set<DType>> SupportTable::supported() const {
  std::map<std::string, std::set<DType>> out;
  for (const auto& [op, row] : cells) {
    std::set<DType>& ok = out[op];
    for (const auto& [dtype, s] : row)
      if (s == Support::Yes) ok.insert(dtype);
  }
  return out;
}

bool SupportTable::runs_nothing() const {
  for (const auto& [op, row] : cells)
    for (const auto& [dtype, s] : row)
      if (s == Support::Yes) return false;
  return true;
}

std::string SupportTable::str() const {
  std::string out = fmt::format("{} ({}): + runs, - fails, . the op does not take the dtype\n",
                                terminal_name(backend),
                                version.empty() ? "version unknown" : terminal_name(version));
  size_t width = 2;
  for (const auto& [op, row] : cells) width = std::max(width, op.size());
  out += fmt::format("{:<{}}", "", width);
  for (DType t : kAllDTypes) out += fmt::format(" {:>4}", dtype_name(t));
  out += "\n";
  for (const auto& [op, row] : cells) {
    out += fmt::format("{:<{}}", op, width);
    for (DType t : kAllDTypes) {
      auto it = row.find(t);
      Support s = it == row.end() ? Support::Untyped : it->second;
      out += fmt::format(" {:>4}", s == Support::Yes ? "+" : s == Support::No ? "-" : ".");
    }
    out += "\n";
  }
  return out;
}

std::string probe_fingerprint() {
  static const std::string fingerprint = [] {
    std::string text;
    for (const std::string& op : OpRegistry::instance().names()) text += op + "\n";
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (const char* dir : {"/backends", "/backends/retort_backends"}) {
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(scripts_dir() + dir, ec))
        if (entry.is_regular_file() &&
            (entry.path().extension() == ".py" || entry.path().extension() == ".js"))
          files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files)
      text += file.filename().string() + "\n" + read_file(file.string());
    return fmt::format("{:016x}", stable_hash(text));
  }();
  return fingerprint;
}

std::string support_cache_path(const std::string& backend, const std::string& version) {
  return fmt::format("{}/support/{}@{}.json", retort_cache_dir(), file_name_part(backend),
                     file_name_part(version));
}

SupportTable backend_support(Backend& backend, const std::string& name,
                             const std::function<void(size_t, size_t)>& progress,
                             const std::atomic<bool>* cancel) {
  std::vector<std::string> ops = OpRegistry::instance().names();
  // The version is known once the worker has answered hello: probe the first op first.
  SupportTable table{name, "", {}, probe_fingerprint()};
  for (DType t : kAllDTypes) table.cells[ops.front()][t] = probe(backend, ops.front(), t);
  BackendInfo info = backend.info();
  // A worker that never answered hello (a broken environment, a missing node_modules) says
  // nothing of the release: probing on would cache "nothing supported" for good.
  if (info.version.empty())
    fail("{}: its worker did not start, so what it supports is unknown: {}", name,
         info.last_error.empty() ? info.state : info.last_error);
  table.version = info.version;
  std::string path = support_cache_path(name, table.version);
  if (std::ifstream in(path); in) {
    std::stringstream text;
    text << in.rdbuf();
    auto cached = from_json(parse_json_or_discarded(text.str()));
    // A cache file is any file in the user's cache folder: one that names another backend is
    // not this one's (and its name would reach the terminal).
    if (cached && cached->backend == name && cached->version == table.version &&
        cached->probed_with == table.probed_with && !cached->runs_nothing())
      return *cached;
  }
  for (size_t i = 1; i < ops.size(); ++i) {
    if (cancel && cancel->load())
      fail("{}: interrupted after probing {} of {} ops; nothing was cached", name, i, ops.size());
    for (DType t : kAllDTypes) table.cells[ops[i]][t] = probe(backend, ops[i], t);
    if (progress) progress(i + 1, ops.size());
  }
  if (table.runs_nothing())
    fail(
        "{} ({}) ran none of the registry's ops, each alone in each dtype: nothing was cached; "
        "its last error: {}",
        name, table.version, backend.info().last_error);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) fail("{}: cannot make the support cache directory: {}", path, ec.message());
  write_file(path, to_json(table).dump(1) + "\n", /*overwrite=*/true);
  return table;
}

std::string release_probe(const std::string& backend) {
  std::optional<BackendName> name = parse_backend_name(backend);
  if (!name) return "";
  std::string baseline = oracle_baseline(backend);
  // The baseline is a backend of the same group (torch:eager for inductor), at the same release.
  return baseline.empty() ? name->str() : baseline;
}

std::map<std::string, std::set<DType>> supported_by_all(const std::vector<SupportTable>& tables) {
  std::map<std::string, std::set<DType>> all;
  for (size_t i = 0; i < tables.size(); ++i) {
    for (const auto& entry : tables[i].supported()) {
      if (i == 0) {
        all[entry.first] = entry.second;
        continue;
      }
      // (clang 14 cannot capture a structured binding, hence entry.second by name.)
      const std::set<DType>& ok = entry.second;
      std::erase_if(all[entry.first], [&ok](DType t) { return !ok.count(t); });
    }
  }
  return all;
}

}  // namespace retort
