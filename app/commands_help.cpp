// help and quit.
#include <fmt/ranges.h>

#include "app/cli.h"
#include "app/commands.h"
#include "app/op_help.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

void no_name_after(const Args& args, std::string_view topic) {
  if (const std::string* extra = args.arg(1))
    fail("`help {}` takes nothing after it, got '{}'", topic, *extra);
}

void run_help(Session&, const Args& args, Output& out) {
  const CommandRegistry& commands = app_commands();
  const std::string* topic = args.arg(0);
  if (args.has("--markdown") || args.has("--man")) {
    if (topic) fail("`help --markdown` and `help --man` print every command; they take no topic");
    out.write(args.has("--man") ? commands.man(cli_usage()) : commands.markdown());
    return;
  }
  if (!topic) {
    out.write(commands.overview());
    return;
  }
  if (*topic == "ops") {
    no_name_after(args, "ops");
    out.write(op_list_text());
    return;
  }
  if (*topic == "op") {
    const std::string* name = args.arg(1);
    if (!name) fail("`help op` needs an op name (`help ops` lists them)");
    out.write(op_help_text(OpRegistry::instance().get(*name)));
    return;
  }
  if (const CommandSpec* command = commands.find(*topic)) {
    const std::string* action_name = args.arg(1);
    if (action_name && !command->actions.empty()) {
      const ActionSpec* action = command->find_action(*action_name);
      if (!action)
        fail("`{}` has no action '{}' (`help {}` lists them)", *topic, *action_name, *topic);
      out.write(command->action_help_text(*action));
      return;
    }
    no_name_after(args, *topic);
    out.write(command->help_text());
    return;
  }
  if (const OpDef* op = OpRegistry::instance().find(*topic)) {
    no_name_after(args, *topic);
    out.write(op_help_text(*op));
    return;
  }
  std::vector<std::string> close = close_matches(*topic, commands.names());
  for (auto& op : close_matches(*topic, OpRegistry::instance().names())) close.push_back(op);
  if (close.empty())
    fail("no command or op is named '{}' (`help` lists the commands, `help ops` the ops)", *topic);
  fail("no command or op is named '{}'; did you mean {}?", *topic, fmt::join(close, " or "));
}

}  // namespace

void register_help_commands(CommandRegistry& r) {
  r.add(
      {.name = "help",
       .args = {{"TOPIC", Completion::Command, true}, {"NAME", Completion::OpName, true}},
       .options = {{"--markdown", "", "print the command reference (docs/commands.md) as Markdown"},
                   {"--man", "", "print the man page retort(1) in roff"}},
       .summary = "List the commands, or describe a command or an op.",
       .help =
           "`help COMMAND` describes a command (`help findings report` one of its actions),\n"
           "`help ops` lists the ops, and `help op NAME` shows what the op registry knows about\n"
           "an op: its inputs and the values they need, its attributes with defaults, its ONNX\n"
           "mapping. `help NAME` works for an op too when no command has that name. --help (or\n"
           "-h) after any command or action prints the same as `help COMMAND [ACTION]`\n"
           "(`retort fuzz --help`, `retort findings report --help` too).",
       .run = run_help,
       .restorable = false});
  r.add({.name = "quit",
         .summary = "End the session.",
         .run = [](Session&, const Args&, Output&) {},
         .ends_session = true,
         .restorable = false});
}

}  // namespace retort
