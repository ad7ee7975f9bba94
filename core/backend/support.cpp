#include "core/backend/support.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/backend/backend_set.h"
#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/backend/frame.h"
#include "core/backend/worker_backend.h"
#include "core/backend/worker_process.h"
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
// Graphs per probe request: a worker compiles a batch that runs once (docs/backend-protocol.md),
// and each failing graph costs it a few more compilations of halves.
constexpr size_t kProbeBatch = 64;

// One cell of the table: the one-node graph that probes it, or what is known without running.
struct ProbeCase {
  std::string op;
  DType dtype;
  Support known = Support::Yes;  // Untyped (no graph), No (no model to send), else run it
  std::optional<Graph> graph{};
  RunRequest request{};
};

// Every cell's case, in a deque so that each request's graph pointer stays put.
std::deque<ProbeCase> probe_cases() {
  std::deque<ProbeCase> cases;
  for (const std::string& op : OpRegistry::instance().names()) {
    for (DType t : kAllDTypes) {
      ProbeCase& c = cases.emplace_back(ProbeCase{op, t});
      c.graph = single_op_graph(op, t, kProbeSeed);
      if (!c.graph) {
        c.known = Support::Untyped;
        continue;
      }
      c.request.graph = &*c.graph;
      try {
        c.request.onnx = export_onnx(*c.graph);
        c.request.inputs = generate_inputs(*c.graph, kProbeSeed, nullptr);
      } catch (const Error&) {
        c.known = Support::No;
      }
    }
  }
  return cases;
}

// What a worker's answers depend on besides its release: its own script and, for a Python
// worker, the shared package that holds the converters.
std::vector<std::filesystem::path> worker_files(const std::string& backend) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name) return {};
  const FamilyMode* mode = find_mode(*name->family, name->mode);
  std::string script = mode && !mode->worker.empty() ? mode->worker : name->family->worker;
  std::string dir = scripts_dir() + "/backends";
  std::vector<std::filesystem::path> files{dir + "/" + script};
  std::string package_dir = dir + (script.ends_with(".py") ? "/retort_backends" : "");
  std::string extension = script.ends_with(".py") ? ".py" : ".js";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(package_dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == extension &&
        entry.path() != files.front())
      files.push_back(entry.path());
  std::sort(files.begin() + 1, files.end());
  return files;
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

std::string probe_fingerprint(const std::string& backend) {
  // The graphs as sent, inputs included: the registry's ops, their ONNX forms and the probe's
  // options (seed, ranks, dims) all show in them.
  static const std::string graphs = [] {
    std::string text;
    for (const ProbeCase& c : probe_cases()) {
      text += fmt::format("{} {} {}\n", c.op, dtype_name(c.dtype), static_cast<int>(c.known));
      text += c.request.onnx;
      for (const auto& [name, value] : c.request.inputs)
        text += name + std::string(reinterpret_cast<const char*>(value.bytes()), value.nbytes());
    }
    return fmt::format("{:016x}", stable_hash(text));
  }();
  std::string text = graphs;
  for (const std::filesystem::path& file : worker_files(backend)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec))
      text += file.filename().string() + "\n" + read_file(file.string());
  }
  return fmt::format("{:016x}", stable_hash(text));
}

std::string support_cache_path(const std::string& backend, const std::string& version) {
  return fmt::format("{}/support/{}@{}.json", retort_cache_dir(), file_name_part(backend),
                     file_name_part(version));
}

namespace {

using nlohmann::json;

std::string worker_text(const json& header, const char* key) {
  auto it = header.find(key);
  return it != header.end() && it->is_string() ? terminal_name(it->get<std::string>()) : "";
}

Clock::time_point after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The probe's own worker of a WorkerBackend's spec, apart from the backend's (which keeps its
// compile cache for the campaign): it says hello, and when its hello says "probe": true it takes
// probe requests of many graphs each (docs/backend-protocol.md). Backends of no worker, and
// workers that take no probe requests (ONNX Runtime's Node worker), run the graphs one by one.
class Prober {
 public:
  explicit Prober(Backend& backend) : backend_(backend) {
    auto* worker = dynamic_cast<WorkerBackend*>(&backend);
    if (!worker || !worker->spec().unavailable.empty()) {
      version_ = backend.info().version;
      return;
    }
    spec_ = worker->spec();
    start();
    if (!takes_probes_) stop();  // its graphs run on the backend's own worker
  }
  ~Prober() { stop(); }
  Prober(const Prober&) = delete;
  Prober& operator=(const Prober&) = delete;

  // The release its hello named: empty when the worker did not start (why() says why).
  const std::string& version() const { return version_; }
  const std::string& why() const { return why_; }

  // Whether each request runs, in order. A batch whose worker fails (crashes, times out,
  // answers malformed) runs graph by graph on the backend: one graph may have broken it.
  std::vector<RunStatus> probe(const std::vector<RunRequest>& requests) {
    if (takes_probes_ && !process_) start();
    if (process_) {
      try {
        return batch(requests);
      } catch (const std::exception&) {
        process_->kill();
        process_.reset();
      }
    }
    std::vector<RunStatus> statuses;
    for (const RunRequest& r : requests) statuses.push_back(backend_.run(r).status);
    return statuses;
  }

 private:
  Frame exchange(const Frame& request, double seconds) {
    Clock::time_point deadline = after(seconds);
    process_->write_all(encode_frame(request), deadline);
    return read_frame([&](char* dst, size_t n) { process_->read_exact(dst, n, deadline); });
  }

  void start() {
    takes_probes_ = false;
    try {
      process_ = std::make_unique<WorkerProcess>(spec_.argv);
      Frame hello;
      hello.header = {{"type", "hello"}, {"options", spec_.options}};
      Frame answer = exchange(hello, spec_.timeout_s);
      if (worker_text(answer.header, "type") != "hello")
        fail("the worker refused hello: {}", worker_text(answer.header, "message"));
      std::string name = worker_text(answer.header, "name");
      std::string version = worker_text(answer.header, "version");
      // As WorkerBackend names it: "NAME VERSION".
      version_ = name.empty() ? version : version.empty() ? name : name + " " + version;
      auto probe = answer.header.find("probe");
      takes_probes_ = probe != answer.header.end() && probe->is_boolean() && probe->get<bool>();
    } catch (const std::exception& e) {
      why_ = terminal_name(e.what());
      if (process_) why_ += fmt::format(" (the worker {})", process_->wait_exit(after(1)));
      process_.reset();
    }
  }

  void stop() {
    if (!process_) return;
    try {
      Frame bye;
      bye.header = {{"type", "bye"}};
      process_->write_all(encode_frame(bye), after(0.5));
    } catch (const std::exception&) {
      // One that cannot take "bye" is killed by wait_exit all the same.
    }
    process_->close_stdin();
    process_->wait_exit(after(0.5));
    process_.reset();
  }

  std::vector<RunStatus> batch(const std::vector<RunRequest>& requests) {
    Frame frame;
    frame.header = {{"type", "probe"}, {"id", ++id_}};
    json graphs = json::array();
    for (const RunRequest& r : requests) {
      json inputs = json::array();
      for (const auto& [name, value] : r.inputs) inputs.push_back(tensor_entry(name, value, frame));
      graphs.push_back({{"model", frame.add_blob(r.onnx)},
                        {"inputs", std::move(inputs)},
                        {"outputs", r.graph->outputs}});
    }
    frame.header["graphs"] = std::move(graphs);
    // Each graph has the time a run of it would have.
    Frame answer = exchange(frame, spec_.timeout_s * static_cast<double>(requests.size()));
    auto results = answer.header.find("results");
    if (worker_text(answer.header, "type") != "probe" || results == answer.header.end() ||
        !results->is_array() || results->size() != requests.size())
      fail("the worker's answer to a probe has no result for each of its graphs");
    std::vector<RunStatus> statuses;
    for (const json& r : *results) {
      std::string status = r.is_object() ? worker_text(r, "status") : "";
      if (status != "ok" && status != "unsupported" && status != "error")
        fail("a probe result's status is none of ok, unsupported, error");
      statuses.push_back(status == "ok" ? RunStatus::Ok : RunStatus::Error);
    }
    return statuses;
  }

  Backend& backend_;
  BackendSpec spec_{};
  std::unique_ptr<WorkerProcess> process_;
  bool takes_probes_ = false;
  std::string version_, why_;
  uint64_t id_ = 0;
};

std::optional<SupportTable> cached_table(const std::string& path, const SupportTable& fresh) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto cached = from_json(parse_json_or_discarded(text.str()));
  // A cache file is any file in the user's cache folder: one that names another backend is
  // not this one's (and its name would reach the terminal).
  if (cached && cached->backend == fresh.backend && cached->version == fresh.version &&
      cached->probed_with == fresh.probed_with && !cached->runs_nothing())
    return cached;
  return std::nullopt;
}

// The table is kept for the next campaign; a cache folder that cannot take it costs that
// campaign a probe, never this one its table.
void cache_table(const std::string& path, const SupportTable& table) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    write_file(path, to_json(table).dump(1) + "\n", /*overwrite=*/true);
  } catch (const Error&) {
  }
}

}  // namespace

SupportTable backend_support(Backend& backend, const std::string& name,
                             const std::function<void(size_t, size_t)>& progress,
                             const std::atomic<bool>* cancel) {
  Prober prober(backend);
  // A worker that never answered hello (a broken environment, a missing node_modules) says
  // nothing of the release: probing on would cache "nothing supported" for good.
  if (prober.version().empty()) {
    BackendInfo info = backend.info();
    fail("{}: its worker did not start, so what it supports is unknown: {}", name,
         !prober.why().empty()     ? prober.why()
         : info.last_error.empty() ? info.state
                                   : info.last_error);
  }
  SupportTable table{name, prober.version(), {}, probe_fingerprint(name)};
  std::string path = support_cache_path(name, table.version);
  if (auto cached = cached_table(path, table)) return *cached;

  std::deque<ProbeCase> cases = probe_cases();
  // By dtype first: a release that lacks a dtype fails a run of neighbours, which the worker's
  // halving isolates in few compilations.
  std::vector<ProbeCase*> runs;
  for (ProbeCase& c : cases) {
    table.cells[c.op][c.dtype] = c.known;
    if (c.known == Support::Yes) runs.push_back(&c);
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const ProbeCase* a, const ProbeCase* b) { return a->dtype < b->dtype; });
  for (size_t done = 0; done < runs.size();) {
    if (cancel && cancel->load())
      fail("{}: interrupted after probing {} of {} graphs; nothing was cached", name, done,
           runs.size());
    size_t end = std::min(runs.size(), done + kProbeBatch);
    std::vector<RunRequest> batch;
    for (size_t i = done; i < end; ++i) batch.push_back(runs[i]->request);
    std::vector<RunStatus> statuses = prober.probe(batch);
    for (size_t i = done; i < end; ++i)
      table.cells[runs[i]->op][runs[i]->dtype] =
          statuses.at(i - done) == RunStatus::Ok ? Support::Yes : Support::No;
    done = end;
    if (progress) progress(done, runs.size());
  }
  if (table.runs_nothing())
    fail(
        "{} ({}) ran none of the registry's ops, each alone in each dtype: nothing was cached; "
        "its last error: {}",
        name, table.version, backend.info().last_error);
  cache_table(path, table);
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
