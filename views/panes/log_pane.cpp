// The log pane: command lines, their output and errors, Graphviz's warnings. Its content is the
// workbench's LogBuffer, not the session; it follows the last line until the user scrolls up.
#include "views/panes/panes.h"

namespace retort {

namespace {

class LogPane : public TextPane {
 public:
  explicit LogPane(const LogBuffer& log) : log_(log) {
    set_follow_tail(true);
    set_wrap(true);
  }
  const PaneSpec& spec() const override {
    static const PaneSpec spec{
        .name = "log", .dock = Dock::Bottom, .pages_from_command_line = true};
    return spec;
  }
  void refresh(const Session&, TopicSet) override {}
  void draw(Canvas& canvas) override {
    if (uint64_t v = log_.version(); v != version_) {
      set_lines(log_.lines());
      version_ = v;
    }
    TextPane::draw(canvas);
  }

 private:
  const LogBuffer& log_;
  uint64_t version_ = UINT64_MAX;
};

}  // namespace

std::unique_ptr<Pane> make_log_pane(const LogBuffer& log) {
  return std::make_unique<LogPane>(log);
}

}  // namespace retort
