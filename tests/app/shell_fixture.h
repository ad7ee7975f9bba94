// A session driven through the command shell, as every front end drives it: commands run by
// text, their output and errors captured.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "app/commands.h"
#include "app/shell.h"

namespace retort::testing {

class ShellTest : public ::testing::Test {
 protected:
  // Runs a line that must succeed; returns what it printed.
  std::string run_ok(const std::string& line) {
    out.clear();
    err.clear();
    EXPECT_EQ(shell.run(line), LineStatus::Ok) << line << ": " << err.text();
    return out.text();
  }
  // Runs a line that must fail; returns its error output.
  std::string run_failing(const std::string& line) {
    out.clear();
    err.clear();
    EXPECT_EQ(shell.run(line), LineStatus::Failed) << line << ": " << out.text();
    return err.text();
  }

  Session session;
  StringOutput out, err;
  Shell shell{session, app_commands(), out, err};
};

}  // namespace retort::testing
