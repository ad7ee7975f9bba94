#define NCURSES_WIDECHAR 1
#define NCURSES_NOMACROS 1
#include "views/workbench.h"

#include <curses.h>
#include <langinfo.h>

#include <algorithm>
#include <clocale>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/base/words.h"
#include "views/panes/panes.h"

namespace retort {

namespace {

// Colour pairs by style; 0 means the terminal's own colours.
short pair_of(Style s) {
  switch (s) {
    case Style::Edge:
      return 1;
    case Style::Highlight:
      return 2;
    case Style::Error:
      return 3;
    case Style::Good:
      return 4;
    case Style::Border:
      return 5;
    default:
      return 0;
  }
}

attr_t attr_of(Style s) {
  switch (s) {
    case Style::Highlight:
      return A_BOLD;
    case Style::Selected:
      return A_REVERSE;
    case Style::Title:
      return A_BOLD;
    case Style::Dim:
      return A_DIM;
    case Style::Error:
      return A_BOLD;
    default:
      return A_NORMAL;
  }
}

PaneKey::Kind pane_key_kind(int key, bool& ok) {
  ok = true;
  switch (key) {
    case KEY_UP:
      return PaneKey::Up;
    case KEY_DOWN:
      return PaneKey::Down;
    case KEY_LEFT:
      return PaneKey::Left;
    case KEY_RIGHT:
      return PaneKey::Right;
    case KEY_PPAGE:
      return PaneKey::PageUp;
    case KEY_NPAGE:
      return PaneKey::PageDown;
    case KEY_HOME:
      return PaneKey::Home;
    case KEY_END:
      return PaneKey::End;
    default:
      ok = false;
      return PaneKey::Char;
  }
}

void copy_into(Canvas& screen, const Canvas& part, int row, int col) {
  for (int r = 0; r < part.rows(); ++r)
    for (int c = 0; c < part.cols(); ++c) {
      const Cell& cell = part.at(r, c);
      screen.put(row + r, col + c, cell.ch, cell.style);
    }
}

void fill_row(Canvas& screen, int row, Style style) {
  for (int c = 0; c < screen.cols(); ++c) screen.put(row, c, U' ', style);
}

// Splits `total` rows among panes by weight; the last pane takes what rounding leaves.
std::vector<int> split_by_weight(int total, const std::vector<int>& weights) {
  int sum = 0;
  for (int w : weights) sum += w;
  std::vector<int> sizes;
  int cum = 0, used = 0;
  for (int w : weights) {
    cum += w;
    int end = sum > 0 ? (total * cum + sum - 1) / sum : total;
    sizes.push_back(end - used);
    used = end;
  }
  return sizes;
}

}  // namespace

ScreenLayout layout_screen(int rows, int cols, const std::vector<const PaneSpec*>& panes,
                           std::optional<size_t> zoomed) {
  ScreenLayout l;
  l.panes.resize(panes.size());
  l.status_row = rows - 2;
  l.command_row = rows - 1;
  int area = std::max(0, rows - 3);
  if (zoomed && *zoomed < panes.size()) {
    l.panes[*zoomed] = {1, 0, area, cols};
    return l;
  }
  std::vector<size_t> docked[3];
  for (size_t i = 0; i < panes.size(); ++i)
    if (panes[i]) docked[static_cast<size_t>(panes[i]->dock)].push_back(i);
  const auto& left = docked[static_cast<size_t>(Dock::Left)];
  const auto& right = docked[static_cast<size_t>(Dock::Right)];
  const auto& bottom = docked[static_cast<size_t>(Dock::Bottom)];
  // The log gets at least five lines of text where the screen has room (80x24 keeps 14 rows
  // above it, four for each pane on the right); its long lines wrap, so a usage message or an
  // error shows whole.
  int least = area >= 20 ? 7 : 5;
  int bottom_rows = bottom.empty() ? 0 : std::min(area, std::max(least, area * 3 / 10));
  int top = area - bottom_rows;
  int left_cols = right.empty() ? cols : left.empty() ? 0 : cols * 55 / 100;
  // A dock's panes are stacked (left, right) or side by side (bottom), sized by weight.
  auto stack = [&](const std::vector<size_t>& ids, Rect dock, bool vertical) {
    std::vector<int> weights;
    for (size_t i : ids) weights.push_back(panes[i]->weight);
    std::vector<int> sizes = split_by_weight(vertical ? dock.rows : dock.cols, weights);
    int at = 0;
    for (size_t k = 0; k < ids.size(); ++k) {
      l.panes[ids[k]] = vertical ? Rect{dock.row + at, dock.col, sizes[k], dock.cols}
                                 : Rect{dock.row, dock.col + at, dock.rows, sizes[k]};
      at += sizes[k];
    }
  };
  stack(left, {1, 0, top, left_cols}, true);
  stack(right, {1, left_cols, top, cols - left_cols}, true);
  stack(bottom, {1 + top, 0, bottom_rows, cols}, false);
  return l;
}

Workbench::Workbench() {
  std::setlocale(LC_ALL, "");
  unicode_ = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
  // Esc returns from a pane to the command line; do not make it wait a second for a sequence.
  set_escdelay(25);
  initscr();
  raw();  // Ctrl-C arrives as a key: it cancels the running command, not the program
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  init_colors();
  panes_ = workbench_panes(log_, unicode_);
  seen_.resize(panes_.size());
  drawn_.resize(panes_.size());
}

Workbench::~Workbench() {
  endwin();
}

void Workbench::init_colors() {
  // NO_COLOR (https://no-color.org): any non-empty value turns colours off.
  const char* no_color = std::getenv("NO_COLOR");
  if ((no_color && *no_color) || !has_colors()) return;
  start_color();
  use_default_colors();  // -1: the terminal's own foreground and background
  init_pair(1, COLOR_CYAN, -1);
  init_pair(2, COLOR_YELLOW, -1);
  init_pair(3, COLOR_RED, -1);
  init_pair(4, COLOR_GREEN, -1);
  init_pair(5, COLOR_BLUE, -1);
  colors_ = true;
}

void Workbench::update(const Session& s, bool idle) {
  TopicVersions now = s.topics().now();
  for (size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = *panes_[i];
    if (!idle && !p.spec().live) continue;
    TopicSet changed = seen_[i] ? TopicClock::changed(*seen_[i], now) : TopicSet::all();
    if (seen_[i] && !changed.intersects(p.spec().topics)) continue;
    seen_[i] = now;
    try {
      p.refresh(s, changed);
    } catch (const std::exception& e) {
      log_.append(
          fmt::format("error: the {} pane cannot show the session: {}\n", p.spec().name, e.what()),
          Style::Error);
    }
  }
  // Focus and zoom do not stay on a pane that went away.
  if (focus_ && !panes_[*focus_]->visible()) focus_.reset();
  if (zoomed_ && !panes_[*zoomed_]->visible()) zoomed_.reset();
}

void Workbench::focus(size_t pane) {
  if (!panes_[pane]->visible()) return;
  focus_ = last_pane_ = pane;
  if (zoomed_) zoomed_ = focus_;
}

ScreenLayout Workbench::layout(int rows, int cols) const {
  std::vector<const PaneSpec*> specs;
  for (const auto& p : panes_) specs.push_back(p->visible() ? &p->spec() : nullptr);
  return layout_screen(rows, cols, specs, zoomed_);
}

int Workbench::read_key(int timeout_ms) {
  timeout(timeout_ms);
  return getch();
}

bool Workbench::handle_key(int key) {
  if (help_) {
    help_ = false;
    return true;
  }
  if (key == KEY_RESIZE) return true;
  for (size_t i = 0; i < panes_.size(); ++i) {
    if (key == KEY_F(static_cast<int>(i) + 1)) {
      focus(i);
      return true;
    }
  }
  if (key == KEY_F(11)) {
    zoomed_ = zoomed_ ? std::nullopt : std::optional<size_t>(focus_ ? *focus_ : last_pane_);
    return true;
  }
  if (!focus_) {
    if (key == KEY_BTAB) {
      focus(last_pane_);
      return true;
    }
    if (key == KEY_PPAGE || key == KEY_NPAGE) {
      for (size_t i = 0; i < panes_.size(); ++i)
        if (panes_[i]->spec().pages_from_command_line)
          panes_[i]->key({key == KEY_PPAGE ? PaneKey::PageUp : PaneKey::PageDown, 0},
                         drawn_[i].rows - 2);
      return true;
    }
    return false;
  }
  size_t at = *focus_;
  if (key == '\t' || key == KEY_BTAB) {
    // Tab walks the visible panes in F-key order, then back to the command line.
    int step = key == '\t' ? 1 : -1;
    int next = static_cast<int>(at) + step;
    while (next >= 0 && next < static_cast<int>(panes_.size()) &&
           !panes_[static_cast<size_t>(next)]->visible())
      next += step;
    if (next < 0 || next >= static_cast<int>(panes_.size()))
      focus_.reset();
    else
      focus(static_cast<size_t>(next));
    return true;
  }
  if (key == 27 || key == '\r' || key == '\n' || key == KEY_ENTER) {
    focus_.reset();
    return true;
  }
  if (key == 'z') {
    zoomed_ = zoomed_ ? std::nullopt : focus_;
    return true;
  }
  if (key == '?') {
    help_ = true;
    return true;
  }
  bool ok = false;
  PaneKey pk{pane_key_kind(key, ok), 0};
  int page = drawn_[at].rows - 2;
  if (ok) {
    panes_[at]->key(pk, page);
    return true;
  }
  if (key > 0 && key < 128) {
    pk = {PaneKey::Char, static_cast<char>(key)};
    if (panes_[at]->key(pk, page)) return true;
    // Any other character starts typing a command.
    if (key >= 32 && key < 127) {
      focus_.reset();
      return false;
    }
  }
  return true;
}

void Workbench::set_command_line(const std::string& prompt, const std::string& text,
                                 size_t cursor_byte) {
  prompt_ = prompt;
  line_ = text;
  cursor_ = std::min(cursor_byte, text.size());
}

void Workbench::set_status(std::string text, bool busy) {
  status_ = std::move(text);
  busy_ = busy;
}

void Workbench::draw_frame(Canvas& screen, const Rect& r, size_t pane) {
  const Glyphs& g = unicode_ ? Glyphs::unicode() : Glyphs::ascii();
  bool focused = focus_ == pane;
  Style border = focused ? Style::Highlight : Style::Border;
  int bottom = r.row + r.rows - 1, right = r.col + r.cols - 1;
  for (int c = r.col + 1; c < right; ++c) {
    screen.put(r.row, c, g.h, border);
    screen.put(bottom, c, g.h, border);
  }
  for (int row = r.row + 1; row < bottom; ++row) {
    screen.put(row, r.col, g.v, border);
    screen.put(row, right, g.v, border);
  }
  screen.put(r.row, r.col, g.tl, border);
  screen.put(r.row, right, g.tr, border);
  screen.put(bottom, r.col, g.bl, border);
  screen.put(bottom, right, g.br, border);
  std::string title = fmt::format(" F{} {} ", pane + 1, panes_[pane]->title());
  int room = r.cols - 4;
  if (room > 0) {
    std::u32string t = utf8_decode(title);
    if (static_cast<int>(t.size()) > room) t.resize(static_cast<size_t>(room));
    for (size_t i = 0; i < t.size(); ++i)
      screen.put(r.row, r.col + 2 + static_cast<int>(i), t[i],
                 focused ? Style::Selected : Style::Title);
  }
}

namespace {

// Help lines ("KEY   what it does") fitted to the screen: a line wider than `width` wraps with
// its continuation under the description, and lines past `height` give way to a last "...".
std::vector<std::string> fit_help_lines(const std::vector<std::string>& lines, size_t width,
                                        size_t height) {
  std::vector<std::string> out;
  for (const auto& line : lines) {
    if (line.size() <= width) {
      out.push_back(line);
      continue;
    }
    size_t gap = line.find("  ");
    size_t indent = gap == std::string::npos ? 0 : line.find_first_not_of(' ', gap);
    if (indent == std::string::npos || indent * 2 > width) indent = 0;
    std::vector<std::string> wrapped = wrap_words(line.substr(indent), width - indent);
    out.push_back(line.substr(0, indent) + wrapped.front());
    for (size_t i = 1; i < wrapped.size(); ++i)
      out.push_back(std::string(indent, ' ') + wrapped[i]);
  }
  if (out.size() > height) {
    out.resize(height);
    out.back() = "...";
  }
  return out;
}

}  // namespace

void Workbench::draw_help(Canvas& screen) {
  std::string names;
  for (const auto& p : panes_) names += (names.empty() ? "" : ", ") + p->spec().name;
  std::vector<std::string> lines = {
      "Keys",
      fmt::format("F1..F{:<8} focus {}", panes_.size(), names),
      "Shift-Tab     from the command line: focus the last pane",
      "Tab           in a pane: next pane (after log: the command line)",
      "Esc, Enter    back to the command line (or just start typing)",
      "F11, z        zoom the focused pane to the full screen and back",
      "PgUp/PgDn     on the command line: scroll the log",
      "Ctrl-C        cancel the running command (saturate); clear the line",
      "Ctrl-D, quit  leave the workbench",
      "log save FILE write the log's command output to FILE",
      ""};
  if (focus_) {
    lines.push_back(fmt::format("In the {} pane", panes_[*focus_]->spec().name));
    for (auto& l : panes_[*focus_]->key_help()) lines.push_back(l);
  }
  lines.push_back("");
  lines.push_back("any key closes this help");
  lines = fit_help_lines(lines, static_cast<size_t>(std::max(1, screen.cols() - 4)),
                         static_cast<size_t>(std::max(1, screen.rows() - 2)));
  int width = 0;
  for (const auto& l : lines) width = std::max(width, text_cells(l));
  int h = static_cast<int>(lines.size()) + 2, w = width + 4;
  int top = std::max(0, (screen.rows() - h) / 2), left = std::max(0, (screen.cols() - w) / 2);
  Canvas box(h, w);
  for (int row = 0; row < h; ++row) fill_row(box, row, Style::Plain);
  const Glyphs& g = unicode_ ? Glyphs::unicode() : Glyphs::ascii();
  for (int c = 1; c < w - 1; ++c)
    box.put(0, c, g.h, Style::Highlight), box.put(h - 1, c, g.h, Style::Highlight);
  for (int row = 1; row < h - 1; ++row)
    box.put(row, 0, g.v, Style::Highlight), box.put(row, w - 1, g.v, Style::Highlight);
  box.put(0, 0, g.tl, Style::Highlight);
  box.put(0, w - 1, g.tr, Style::Highlight);
  box.put(h - 1, 0, g.bl, Style::Highlight);
  box.put(h - 1, w - 1, g.br, Style::Highlight);
  for (size_t i = 0; i < lines.size(); ++i)
    box.text(1 + static_cast<int>(i), 2, lines[i],
             i == 0 || lines[i].starts_with("In the") ? Style::Title : Style::Plain);
  copy_into(screen, box, top, left);
}

void Workbench::draw() {
  int rows = 0, cols = 0;
  getmaxyx(stdscr, rows, cols);
  Canvas screen(rows, cols);
  if (rows < 10 || cols < 40) {
    screen.text(0, 0, "retort: the terminal is too small (at least 40x10)", Style::Error);
    blit(screen, rows - 1, 0);
    return;
  }
  ScreenLayout layout = this->layout(rows, cols);
  fill_row(screen, 0, Style::Selected);
  screen.text(0, 1, "retort workbench", Style::Selected);
  size_t last_key = 0;  // the F key of the last visible pane
  for (size_t i = 0; i < panes_.size(); ++i)
    if (panes_[i]->visible()) last_key = i + 1;
  std::string keys = fmt::format("F1-F{} panes  S-Tab/Tab focus  F11 zoom  ? keys", last_key);
  if (cols > 60) screen.text(0, cols - text_cells(keys) - 1, keys, Style::Selected);
  bool messages = false;
  for (size_t i = 0; i < panes_.size(); ++i) {
    const Rect& r = layout.panes[i];
    drawn_[i] = r;
    if (r.rows < 3 || r.cols < 4) continue;
    Canvas content(r.rows - 2, r.cols - 2);
    panes_[i]->draw(content);
    copy_into(screen, content, r.row + 1, r.col + 1);
    draw_frame(screen, r, i);
    if (std::string m = panes_[i]->take_messages(); !m.empty()) {
      log_.append(m, Style::Dim);
      messages = true;
    }
  }
  // A pane drawn just now had something to say; the log pane, maybe drawn already, must show it.
  if (messages) {
    draw();
    return;
  }
  fill_row(screen, layout.status_row, Style::Selected);
  std::string focus =
      fmt::format("focus: {}", focus_ ? panes_[*focus_]->spec().name : "command line");
  int focus_col = cols - text_cells(focus) - 1;
  screen.text(layout.status_row, focus_col, focus, Style::Selected);
  // The status gets the rest of the row, cut short when it does not fit: inside the command it
  // quotes (`...`), so that what follows (how long it took) stays.
  std::u32string status = utf8_decode(status_);
  int room = focus_col - 3;
  if (static_cast<int>(status.size()) > room && room > 1) {
    size_t quote = status.rfind(U'`');
    std::u32string tail = quote == std::u32string::npos ? U"" : status.substr(quote);
    if (static_cast<int>(tail.size()) * 2 > room) tail.clear();
    status.resize(static_cast<size_t>(room - 1) - tail.size());
    status += U'…' + tail;
  }
  for (size_t i = 0; i < status.size() && static_cast<int>(i) + 1 < focus_col - 1; ++i)
    screen.put(layout.status_row, 1 + static_cast<int>(i), status[i],
               busy_ ? Style::Highlight : Style::Selected);

  // The command line scrolls sideways so that the cursor stays visible.
  std::u32string before = utf8_decode(prompt_ + line_.substr(0, cursor_));
  std::u32string all = utf8_decode(prompt_ + line_);
  int skip = std::max(0, static_cast<int>(before.size()) - (cols - 2));
  for (int c = 0; c < cols && static_cast<size_t>(skip + c) < all.size(); ++c)
    screen.put(layout.command_row, c, all[static_cast<size_t>(skip + c)],
               c < static_cast<int>(prompt_.size()) - skip ? Style::Title : Style::Plain);
  if (help_) draw_help(screen);
  blit(screen, layout.command_row, static_cast<int>(before.size()) - skip);
}

void Workbench::blit(const Canvas& screen, int cursor_row, int cursor_col) {
  for (int r = 0; r < screen.rows(); ++r) {
    for (int c = 0; c < screen.cols(); ++c) {
      const Cell& cell = screen.at(r, c);
      wchar_t text[2] = {static_cast<wchar_t>(unicode_ || cell.ch < 128 ? cell.ch : U'?'), 0};
      cchar_t cc;
      attr_t attr = attr_of(cell.style);
      short pair = colors_ ? pair_of(cell.style) : 0;
      if (!colors_ && cell.style == Style::Highlight) attr |= A_UNDERLINE;
      setcchar(&cc, text, attr, pair, nullptr);
      mvadd_wch(r, c, &cc);
    }
  }
  bool on_command = !focus_ && !help_;
  curs_set(on_command ? 1 : 0);
  if (on_command) move(cursor_row, cursor_col);
  refresh();
}

}  // namespace retort
