#include "core/backend/family_env.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/backend/backend_set.h"
#include "core/backend/command_run.h"
#include "core/backend/release_pins.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/user_dirs.h"
#include "core/base/words.h"
#include "core/io/json_reader.h"

namespace retort {

namespace fs = std::filesystem;

namespace {

// The interpreter of every PyPI family's environment: Debian's, which the locks are made for
// (CPython 3.11, manylinux_2_36).
constexpr const char* kPython = "/usr/bin/python3";
constexpr const char* kCompleteMarker = ".retort-complete";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string lock_file(const FamilyDef& env) {
  return scripts_dir() + "/backends/locks/" + env.name + ".txt";
}

bool is_default(const FamilyDef& env, const std::string& version) {
  return version.empty() || version == default_version(env);
}

std::string tools_dir() {
  return retort_cache_dir() + "/tools";
}

// A release, not a pre-release: "2.1.0", "1.16.3", "2.0.post1"; not "1.24.0-dev...", "2.2.0rc1".
bool is_release(const std::string& v) {
  return std::all_of(
             v.begin(), v.end(),
             [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }) ||
         v.find(".post") != std::string::npos;
}

// The installer's own words for why it failed, in one line: its last line naming an error.
std::string one_line_reason(const CommandResult& r) {
  std::vector<std::string> lines;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::string pick;
  for (auto it = lines.rbegin(); it != lines.rend() && pick.empty(); ++it)
    if (lower(*it).find("error") != std::string::npos || it->find("×") != std::string::npos ||
        lower(*it).find("no solution") != std::string::npos)
      pick = *it;
  if (pick.empty() && !lines.empty()) pick = lines.back();
  if (pick.empty()) pick = r.how;
  if (pick.size() > 240) pick = pick.substr(0, 240) + "...";
  return pick;
}

CommandResult run_checked(const std::vector<std::string>& argv, const InstallHooks& hooks,
                          const std::string& what, std::map<std::string, std::string> env = {}) {
  CommandResult r =
      run_command(argv, {.env = std::move(env), .on_line = hooks.progress, .cancel = hooks.cancel});
  if (r.exit_status != 0) fail("{}: {}", what, one_line_reason(r));
  return r;
}

// Environment for npm: onnxruntime-node's install script would fetch CUDA libraries; its Linux
// x64 library ships in the package, so the script is skipped (as scripts/setup.sh does).
std::map<std::string, std::string> npm_env() {
  return {{"ONNXRUNTIME_NODE_INSTALL", "skip"}, {"ONNXRUNTIME_NODE_INSTALL_CUDA", "skip"}};
}

// uv, installed once from its lock into the tools environment.
std::string ensure_uv(const InstallHooks& hooks) {
  std::string uv = tools_dir() + "/bin/uv";
  if (fs::exists(uv)) return uv;
  std::string lock = scripts_dir() + "/backends/locks/tools.txt";
  if (hooks.progress) hooks.progress(fmt::format("installing uv from {}", lock));
  try {
    run_checked({kPython, "-m", "venv", tools_dir()}, hooks, "cannot make the tools environment");
    run_checked({tools_dir() + "/bin/python", "-m", "pip", "install", "--disable-pip-version-check",
                 "--require-hashes", "-r", lock},
                hooks, "cannot install uv");
  } catch (const Error&) {
    std::error_code ec;
    fs::remove_all(tools_dir(), ec);
    throw;
  }
  return uv;
}

// The day after the release's last upload: resolving the other packages as of then keeps a
// release with the numpy (and the rest) it was built for.
std::string day_after(const std::string& iso_time) {
  int y = 0;
  unsigned m = 0, d = 0;
  if (std::sscanf(iso_time.c_str(), "%d-%u-%u", &y, &m, &d) != 3)
    fail("PyPI gave no upload date ('{}')", iso_time);
  std::chrono::sys_days day =
      std::chrono::sys_days(std::chrono::year_month_day(std::chrono::year(y), std::chrono::month(m),
                                                        std::chrono::day(d))) +
      std::chrono::days(1);
  std::chrono::year_month_day next(day);
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(next.year()),
                     static_cast<unsigned>(next.month()), static_cast<unsigned>(next.day()));
}

std::string pypi_release_date(const FamilyDef& env, const std::string& version,
                              const InstallHooks& hooks) {
  CommandResult r = run_command(
      {kPython, scripts_dir() + "/pypi_releases.py", "date", env.version_package, version},
      {.cancel = hooks.cancel});
  if (r.exit_status != 0) fail("{}", one_line_reason(r));
  std::string date = r.output.substr(0, r.output.find('\n'));
  return day_after(date);
}

void install_pypi(const FamilyDef& env, const std::string& version, const std::string& dir,
                  const InstallHooks& hooks) {
  std::vector<std::string> packages;
  std::string exclude_newer;
  if (!is_default(env, version)) {
    exclude_newer = pypi_release_date(env, version, hooks);  // also: published? a wheel here?
    for (const auto& p : env.packages) packages.push_back(fmt::format(fmt::runtime(p), version));
  }
  std::string uv = ensure_uv(hooks);
  std::map<std::string, std::string> uv_env = {{"UV_PYTHON_DOWNLOADS", "never"},
                                               {"UV_LINK_MODE", "hardlink"}};
  // --quiet: uv's "Activate with: source ..." is advice for a shell, which a newcomer reading
  // setup's output took for a step left to do.
  run_checked({uv, "venv", "--quiet", "--python", kPython, dir}, hooks,
              "cannot make the environment", uv_env);
  std::vector<std::string> argv = {uv, "pip", "install", "--python", dir + "/bin/python"};
  if (packages.empty()) {
    for (const char* a : {"--require-hashes", "-r"}) argv.push_back(a);
    argv.push_back(lock_file(env));
  } else {
    argv.push_back("--exclude-newer");
    argv.push_back(exclude_newer);
    argv.insert(argv.end(), packages.begin(), packages.end());
  }
  run_checked(argv, hooks, fmt::format("cannot install {}@{}", env.name, version), uv_env);
}

void install_npm(const FamilyDef& env, const std::string& version, const std::string& dir,
                 const InstallHooks& hooks) {
  if (is_default(env, version)) {
    run_checked({"npm", "ci", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund"},
                hooks, fmt::format("cannot install {}@{}", env.name, version), npm_env());
    return;
  }
  bool published = false;
  for (const auto& p : published_versions(env, hooks)) published |= p.version == version;
  if (!published) fail("{} {} is not published on npm", env.version_package, version);
  for (const auto& p : env.packages)
    run_checked({"npm", "install", "--prefix", dir, "--no-save", "--ignore-scripts", "--no-audit",
                 "--no-fund", "--no-package-lock", fmt::format(fmt::runtime(p), version)},
                hooks, fmt::format("cannot install {}@{}", env.name, version), npm_env());
}

}  // namespace

std::string retort_cache_dir() {
  return required_user_dir(UserDir::Cache, "no place for environments").string();
}

std::string envs_dir() {
  const char* dir = std::getenv("RETORT_ENVS_DIR");
  if (dir && *dir) return dir;
  return retort_cache_dir() + "/envs";
}

std::string default_version(const FamilyDef& f) {
  const FamilyDef& env = environment_family(f);
  if (env.installer == Installer::Npm) {
    auto json = parse_json_or_discarded(read_text(scripts_dir() + "/backends/package.json"));
    if (json.is_discarded()) return "";
    auto deps = json.value("dependencies", nlohmann::json::object());
    return deps.value(env.version_package, "");
  }
  std::istringstream in(read_text(lock_file(env)));
  std::string prefix = lower(env.version_package) + "==";
  for (std::string line; std::getline(in, line);) {
    if (lower(line).rfind(prefix, 0) != 0) continue;
    std::string v = line.substr(prefix.size());
    return v.substr(0, v.find_first_of(" \t\\;"));
  }
  return "";
}

std::optional<BackendName> find_backend_release(const std::string& text) {
  std::optional<BackendName> name = find_backend_name(text);
  if (name && name->version.empty()) name->version = default_version(*name->family);
  return name;
}

std::string environment_dir(const FamilyDef& f, const std::string& version) {
  const FamilyDef& env = environment_family(f);
  if (env.installer == Installer::Npm && is_default(env, version))
    return scripts_dir() + "/backends";
  std::string v = version.empty() ? default_version(env) : version;
  if (v.empty())
    fail("{} has no default release: its lock {} is missing; give a version ({}@VERSION)", env.name,
         lock_file(env), env.name);
  return fmt::format("{}/{}@{}", envs_dir(), env.name, v);
}

bool is_installed(const FamilyDef& f, const std::string& version) {
  const FamilyDef& env = environment_family(f);
  if (env.installer == Installer::Npm && is_default(env, version))
    return fs::exists(scripts_dir() + "/backends/node_modules/" + env.version_package);
  if (version.empty() && default_version(env).empty()) return false;
  return fs::exists(environment_dir(f, version) + "/" + kCompleteMarker);
}

std::vector<std::string> installed_versions(const FamilyDef& f) {
  const FamilyDef& env = environment_family(f);
  std::vector<std::string> out;
  if (env.installer == Installer::Npm && is_installed(env, "")) out.push_back(default_version(env));
  std::error_code ec;
  std::string prefix = env.name + "@";
  for (const auto& entry : fs::directory_iterator(envs_dir(), ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::string v = name.substr(prefix.size());
    if (fs::exists(entry.path() / kCompleteMarker) &&
        std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  }
  std::sort(out.begin(), out.end(), version_less);
  return out;
}

PythonEnvironment probe_python_environment(const FamilyDef& f, const std::string& python,
                                           const std::atomic<bool>* cancel) {
  const FamilyDef& env = environment_family(f);
  if (env.installer != Installer::Pypi)
    fail("{} does not run in a Python environment (it is an npm family)", env.name);
  // The packages by name: "jaxlib=={}" is jaxlib.
  std::vector<std::string> packages{env.version_package};
  for (const std::string& p : env.packages) {
    std::string name = p.substr(0, p.find_first_of("=<>![ "));
    if (std::find(packages.begin(), packages.end(), name) == packages.end())
      packages.push_back(name);
  }
  std::vector<std::string> argv{python, "-c",
                                "import importlib.metadata as m, json, sys\n"
                                "def version(p):\n"
                                "    try:\n"
                                "        return m.version(p)\n"
                                "    except m.PackageNotFoundError:\n"
                                "        return None\n"
                                "print(json.dumps({p: version(p) for p in sys.argv[1:]}))\n"};
  argv.insert(argv.end(), packages.begin(), packages.end());
  CommandResult r = run_command(argv, {.cancel = cancel});
  std::string last = r.output.substr(0, r.output.find_last_not_of("\n") + 1);
  last = last.substr(last.find_last_of('\n') + 1);
  nlohmann::json found = parse_json_or_discarded(last);
  if (r.exit_status != 0 || !found.is_object())
    fail("{} cannot tell its packages' versions: {}", python, one_line_reason(r));
  PythonEnvironment out{.python = python, .versions = ""};
  for (const std::string& p : packages) {
    auto it = found.find(p);
    bool has = it != found.end() && it->is_string();
    if (!has && p == env.version_package)
      fail("{} has no {}: {} needs it (and {})", python, p, env.name, fmt::join(packages, ", "));
    out.versions += fmt::format("{}{} {}", out.versions.empty() ? "" : ", ", p,
                                has ? it->get<std::string>() : "missing");
  }
  return out;
}

std::string PythonEnvironment::version_of(std::string_view package) const {
  for (const std::string& item : split_list(versions)) {
    std::string entry = trim_blanks(item);
    size_t space = entry.find(' ');
    if (space != std::string::npos && entry.substr(0, space) == package) {
      std::string version = entry.substr(space + 1);
      return version == "missing" ? "" : version;
    }
  }
  return "";
}

std::string device_unavailable(const std::string& device) {
  if (device.empty()) return "";
  if (device != "cuda" && device != "gpu") return fmt::format("unknown device '{}'", device);
  if (!fs::exists("/dev/nvidiactl")) return "no NVIDIA GPU here: /dev/nvidiactl is absent";
  return "";
}

BackendSpec family_backend_spec(const BackendName& name, const PythonEnvironment* python) {
  const FamilyDef& f = *name.family;
  const FamilyDef& env = environment_family(f);
  const FamilyMode& mode = *find_mode(f, name.mode);
  std::string script =
      scripts_dir() + "/backends/" + (mode.worker.empty() ? f.worker : mode.worker);
  BackendSpec spec;
  spec.name = name.str();
  spec.timeout_s = f.timeout_s;
  spec.options = mode.options;
  spec.unavailable = device_unavailable(mode.device);
  if (python && name.version.empty()) {
    spec.argv = {python->python, script};
    spec.environment = python->str();
  } else if (env.installer == Installer::Npm) {
    spec.argv = {"node", script};
    if (!is_default(env, name.version))
      spec.argv.insert(spec.argv.end(),
                       {"--modules", environment_dir(f, name.version) + "/node_modules"});
  } else {
    spec.argv = {environment_dir(f, name.version) + "/bin/python", script};
  }
  return spec;
}

bool install_version(const FamilyDef& f, const std::string& version, const InstallHooks& hooks) {
  const FamilyDef& env = environment_family(f);
  std::string v = version.empty() ? default_version(env) : version;
  if (is_installed(env, v)) return false;
  std::string dir = environment_dir(env, v);
  std::error_code ec;
  bool own_dir = !(env.installer == Installer::Npm && is_default(env, v));
  if (own_dir) {
    fs::remove_all(dir, ec);  // an earlier install that did not finish
    fs::create_directories(dir, ec);
    if (ec) fail("cannot create {}: {}", dir, ec.message());
  }
  try {
    if (env.installer == Installer::Npm)
      install_npm(env, v, dir, hooks);
    else
      install_pypi(env, v, dir, hooks);
  } catch (const Error&) {
    if (own_dir) fs::remove_all(dir, ec);
    throw;
  }
  if (own_dir) {
    std::ofstream marker(dir + "/" + kCompleteMarker);
    marker << env.name << "@" << v << "\n";
    if (!marker) fail("cannot write {}/{}", dir, kCompleteMarker);
  }
  return true;
}

void remove_version(const FamilyDef& f, const std::string& version) {
  const FamilyDef& env = environment_family(f);
  if (is_default(env, version))
    fail("{}@{} is the default release (pinned by its lock); it stays", env.name,
         default_version(env));
  std::string dir = environment_dir(env, version);
  if (!fs::exists(dir))
    fail("{}@{} is not installed{}", env.name, version,
         did_you_mean(version, installed_versions(env)));
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) fail("cannot remove {}: {}", dir, ec.message());
}

namespace {

std::string published_cache_path(const FamilyDef& env) {
  return retort_cache_dir() + "/releases/" + env.name + ".txt";
}

std::vector<PublishedVersion> query_registry(const FamilyDef& env, const InstallHooks& hooks) {
  std::vector<PublishedVersion> out;
  if (env.installer == Installer::Npm) {
    CommandResult r =
        run_command({"npm", "view", env.version_package, "versions", "time", "--json"},
                    {.cancel = hooks.cancel});
    // npm writes warnings to the same stream before the JSON.
    size_t brace = r.output.find("{\n");
    auto json = parse_json_or_discarded(brace == std::string::npos ? "" : r.output.substr(brace));
    if (r.exit_status != 0 || json.is_discarded() || !json.contains("versions"))
      fail("npm view {} failed: {}", env.version_package, one_line_reason(r));
    for (const auto& v : json["versions"]) {
      std::string version = v.get<std::string>();
      if (!is_release(version)) continue;
      std::string date = json["time"].value(version, "");
      out.push_back({version, date.substr(0, 10), ""});
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return version_less(a.version, b.version); });
    return out;
  }
  CommandResult r =
      run_command({kPython, scripts_dir() + "/pypi_releases.py", "list", env.version_package},
                  {.cancel = hooks.cancel});
  if (r.exit_status != 0)
    fail("cannot list {} on PyPI: {}", env.version_package, one_line_reason(r));
  // Tabs part the fields: the reason is words ("no wheel for cp311 on linux-x86_64").
  std::istringstream in(r.output);
  for (std::string version, date, ok;
       std::getline(in, version, '\t') && std::getline(in, date, '\t') && std::getline(in, ok);) {
    if (!is_release(version)) continue;
    out.push_back({version, date == "-" ? "" : date, ok == "yes" ? "" : ok});
  }
  return out;
}

}  // namespace

std::vector<PublishedVersion> published_versions(const FamilyDef& f, const InstallHooks& hooks) {
  const FamilyDef& env = environment_family(f);
  std::vector<PublishedVersion> out = query_registry(env, hooks);
  // The cache is a convenience for completion: a failure to write it is no failure here.
  std::error_code ec;
  fs::create_directories(fs::path(published_cache_path(env)).parent_path(), ec);
  std::ofstream cache(published_cache_path(env));
  for (const PublishedVersion& p : out)
    if (p.reason.empty()) cache << p.version << "\n";
  return out;
}

std::vector<std::string> cached_published_versions(const FamilyDef& f) {
  std::ifstream cache(published_cache_path(environment_family(f)));
  std::vector<std::string> out;
  for (std::string line; std::getline(cache, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace retort
