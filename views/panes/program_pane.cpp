// The program pane: TorchProbe's program (seeds/002). The mutations the current graph's
// generated Python program gets, then the program a backend last showed (`program show`),
// mutated. Hidden while there is neither.
#include <fmt/format.h>

#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

std::vector<StyledLine> program_text(const Session& s) {
  std::vector<StyledLine> lines;
  const auto& mutations = s.program_mutations();
  lines.push_back(
      {fmt::format("{} program mutation(s){}", mutations.size(),
                   s.program_backend().empty() ? "" : ", as " + s.program_backend() + " writes it"),
       Style::Title});
  for (size_t k = 0; k < mutations.size(); ++k)
    lines.push_back({fmt::format("  {}. {} (seed {})", k + 1, mutations[k].kind, mutations[k].seed),
                     Style::Dim});
  if (s.program_text().empty()) {
    lines.push_back({"`program show` asks a torch backend for the program", Style::Dim});
    return lines;
  }
  size_t start = 0;
  const std::string& text = s.program_text();
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back({text.substr(start, end - start)});
    start = end + 1;
  }
  return lines;
}

namespace {

class ProgramPane : public SessionTextPane {
 public:
  ProgramPane()
      : SessionTextPane({.name = "program", .weight = 30, .topics = {Topic::Program, Topic::Graph}},
                        program_text) {}
  void refresh(const Session& s, TopicSet changed) override {
    visible_ = !s.program_mutations().empty() || !s.program_text().empty();
    SessionTextPane::refresh(s, changed);
  }
  bool visible() const override { return visible_; }

 private:
  bool visible_ = false;
};

}  // namespace

std::unique_ptr<Pane> make_program_pane() {
  return std::make_unique<ProgramPane>();
}

}  // namespace retort
