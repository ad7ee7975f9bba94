#include "app/completion.h"

#include <algorithm>
#include <set>

#include "app/command_line.h"
#include "core/backend/family_env.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

std::vector<std::string> names_of_kind(Completion kind, const CommandRegistry& commands,
                                       const Session& session) {
  switch (kind) {
    case Completion::Command:
      return commands.names();
    case Completion::OpName:
      return OpRegistry::instance().names();
    case Completion::VariantName:
      return session.variant_names();
    case Completion::RuleName: {
      std::vector<std::string> names;
      for (const auto& set : session.rules().sets()) names.push_back(set.name);
      for (const auto& rule : session.rules().all().rules) names.push_back(rule.name);
      return names;
    }
    case Completion::BackendName: {
      std::vector<std::string> names = session.backends().names();
      names.push_back("all");
      for (const auto& f : families()) {
        names.push_back(f.name);
        for (const auto& v : installed_versions(f)) names.push_back(f.name + "@" + v);
      }
      return names;
    }
    case Completion::FamilyName: {
      std::vector<std::string> names;
      for (const auto& f : families()) names.push_back(f.name);
      return names;
    }
    case Completion::Release: {
      std::vector<std::string> names;
      for (const auto& f : families()) names.push_back(f.name + "@");
      return names;
    }
    case Completion::NodeName: {
      if (!session.has_graph()) return {};
      const Graph& g = session.graph();
      // Values only: a statement names values, and a generated graph's internal node names
      // (n0, n1...) are shown nowhere else.
      std::vector<std::string> names;
      for (const auto& [value, type] : g.types) names.push_back(value);
      return names;
    }
    case Completion::FilePath:
    case Completion::None:
      return {};
  }
  return {};
}

struct WordKind {
  Completion kind = Completion::None;
  std::vector<std::string> words{};  // fixed words offered too: actions, modes, keywords
};

// The argument the positional word `i` fills (the last one again when it repeats), or null.
const ArgSpec* nth_arg(const std::vector<ArgSpec>& args, size_t i) {
  if (i < args.size()) return &args[i];
  return !args.empty() && args.back().repeated ? &args.back() : nullptr;
}

WordKind kind_of(const ArgSpec* arg) {
  if (!arg) return {};
  return {arg->completion, arg->words};
}

// The completion of the word at position `index` (index 0 is the command name).
WordKind kind_at(const CommandSpec& command, const std::vector<std::string>& words, size_t index) {
  if (command.raw_text)
    return {command.args.empty() ? Completion::None : command.args.front().completion};
  size_t positional = 0;
  const std::string* first = nullptr;
  for (size_t i = 1; i < index; ++i) {
    const OptionSpec* option = command.find_option(words[i]);
    if (!option) {
      if (positional++ == 0) first = &words[i];
      continue;
    }
    if (option->value_name.empty()) continue;
    if (i + 1 == index) return {option->completion};
    ++i;  // skip the option's value
  }
  if (command.actions.empty()) return kind_of(nth_arg(command.args, positional));
  if (positional == 0) {
    WordKind actions;
    for (const auto& a : command.actions) actions.words.push_back(a.name);
    return actions;
  }
  const ActionSpec* action = command.find_action(*first);
  return action ? kind_of(nth_arg(action->args, positional - 1)) : WordKind{};
}

}  // namespace

namespace {

// The releases of FAMILY after `FAMILY@` (readline breaks words at '@', so the word typed is
// the version): the installed ones and those the registry offered last time.
std::vector<std::string> releases_after(std::string_view glued) {
  size_t start = glued.find_last_of(",=");
  std::string family(glued.substr(start == std::string_view::npos ? 0 : start + 1));
  if (!family.ends_with('@')) return {};
  family.pop_back();
  const FamilyDef* f = find_family(family);
  if (!f) return {};
  std::set<std::string> versions;
  for (const auto& v : installed_versions(*f)) versions.insert(v);
  for (const auto& v : cached_published_versions(*f)) versions.insert(v);
  return {versions.begin(), versions.end()};
}

bool has_word(const std::vector<std::string>& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

}  // namespace

CompletionResult complete_word(const CommandRegistry& commands, const Session& session,
                               std::string_view before, std::string_view word) {
  PartialWords parts = split_partial_words(before);
  // A word glued to the text before it (`add(x`) continues that word's argument.
  size_t index = parts.ends_in_word ? parts.words.size() - 1 : parts.words.size();

  CompletionResult result;
  std::vector<std::string> pool;
  if (index == 0) {
    pool = commands.names();
  } else if (const CommandSpec* command = commands.find(parts.words[0])) {
    if (!command->raw_text && word.starts_with("--")) {
      for (const auto& o : command->options) pool.push_back(o.name);
    } else {
      WordKind at = kind_at(*command, parts.words, index);
      result.file_path = at.kind == Completion::FilePath;
      bool backends = at.kind == Completion::BackendName || at.kind == Completion::Release;
      if (backends && parts.ends_in_word) {
        pool = releases_after(parts.words.back());
      } else {
        pool = names_of_kind(at.kind, commands, session);
        pool.insert(pool.end(), at.words.begin(), at.words.end());
        // `compare --backends ref ind`: the words after the list are backends too.
        if (at.kind == Completion::VariantName && command->find_option("--backends") &&
            has_word(parts.words, "--backends")) {
          std::vector<std::string> more = names_of_kind(Completion::BackendName, commands, session);
          pool.insert(pool.end(), more.begin(), more.end());
        }
      }
    }
  }
  for (auto& name : pool)
    if (name.starts_with(word)) result.candidates.push_back(std::move(name));
  std::sort(result.candidates.begin(), result.candidates.end());
  result.candidates.erase(std::unique(result.candidates.begin(), result.candidates.end()),
                          result.candidates.end());
  return result;
}

}  // namespace retort
