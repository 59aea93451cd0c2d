// A throw-away profile directory and the commands to run against it.
#ifndef BRAVEBOT_INTEGRATION_PROFILE_FIXTURE_H_
#define BRAVEBOT_INTEGRATION_PROFILE_FIXTURE_H_

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "integration/programs.h"
#include "integration/run_command.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {

class ProfileTest : public ::testing::Test {
 protected:
  std::string Profile() const { return temporary_.Join("profile"); }
  std::string DeclarationFile() const { return Profile() + "/mcp.json"; }

  std::vector<std::string> Environment() const {
    return {"BRAVEBOT_HOME=" + Profile(), "HOME=" + temporary_.path(), "PATH=/usr/bin:/bin"};
  }

  // Runs `bravebot-mcp WORDS...` with the throw-away profile directory.
  CommandOutput Mcp(std::vector<std::string> words) const {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    return RunCommand(words, Environment(), temporary_.path());
  }

  std::string Slurp(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

  TemporaryDirectory temporary_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_PROFILE_FIXTURE_H_
