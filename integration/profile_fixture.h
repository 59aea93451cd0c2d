// A throw-away profile directory and the commands to run against it.
#ifndef BRAVEBOT_INTEGRATION_PROFILE_FIXTURE_H_
#define BRAVEBOT_INTEGRATION_PROFILE_FIXTURE_H_

#include <gtest/gtest.h>
#include <unistd.h>

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

  // The row `get` shows under a declaration of `alias` whose program is
  // named through that PATH: "runs /usr/bin/npx", indented under its
  // command line, with its line end; "" where the program is found in
  // neither directory of it.
  static std::string RunsRow(const std::string& alias, const std::string& program) {
    for (const char* directory : {"/usr/bin", "/bin"}) {
      const std::string path = std::string(directory) + "/" + program;
      if (::access(path.c_str(), X_OK) == 0) {
        return std::string(2 + alias.size() + 3, ' ') + "runs " + path + "\n";
      }
    }
    return "";
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
