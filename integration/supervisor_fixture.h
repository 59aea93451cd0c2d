// A checkout, a throw-away profile directory and servers declared in it, for
// the tests that drive bravebot-supervisor through its pipes.
#ifndef BRAVEBOT_INTEGRATION_SUPERVISOR_FIXTURE_H_
#define BRAVEBOT_INTEGRATION_SUPERVISOR_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "integration/programs.h"
#include "integration/run_command.h"
#include "integration/session_client.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {

class SupervisorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Made traversable, so the same tests run as an unprivileged user.
    ::chmod(temporary_.path().c_str(), 0755);
    std::filesystem::create_directories(Home());
    std::filesystem::create_directories(Checkout() + "/.bravebot");
  }

  std::string Home() const { return temporary_.Join("home"); }
  std::string Profile() const { return temporary_.Join("profile"); }
  std::string Checkout() const { return temporary_.Join("checkout"); }
  std::vector<std::string> Environment() const {
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Home(),
                                            "PATH=/usr/bin:/bin", "TMPDIR=" + temporary_.path()};
    environment.insert(environment.end(), more_environment_.begin(), more_environment_.end());
    return environment;
  }
  // NAME=value words every command and session of the test is given too.
  std::vector<std::string> more_environment_;

  // Declares `alias` with add's words, as a piped add does: not approved.
  void Declare(const std::string& alias, std::vector<std::string> words) {
    words.insert(words.begin(), {OurProgram("bravebot-mcp"), "add", alias});
    CommandOutput added = RunCommand(words, Environment(), temporary_.path());
    ASSERT_EQ(added.status, 0) << added.err;
  }
  // A fault_server declared in `mode`.
  void DeclareFault(const std::string& alias, const std::string& mode,
                    const std::string& argument = "") {
    std::vector<std::string> words = {"--", OurProgram("fake_servers/fault_server"), mode};
    if (!argument.empty()) words.push_back(argument);
    Declare(alias, words);
  }
  // The checkout's .bravebot/settings.json asks for `aliases`.
  void Request(const std::vector<std::string>& aliases) {
    std::ofstream(Checkout() + "/.bravebot/settings.json")
        << Json{{"mcp", {{"request", aliases}}}}.dump();
  }

  // A session in the checkout, its protocol log named for the test.
  std::unique_ptr<SessionClient> Session() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(test->test_suite_name()) + "." + test->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    return std::make_unique<SessionClient>(Environment(), Checkout(),
                                           name + "." + std::to_string(sessions_++));
  }
  // Opens `session` in the checkout with `params` added, and answers 1 to
  // each server it asks about. Servers have the usual 30 s to start, times
  // TestSlowness() (a real server under QEMU takes longer), unless `params`
  // says otherwise.
  Json OpenAndApprove(SessionClient& session, Json params = Json::object()) {
    params["directory"] = Checkout();
    if (!params.contains("startupTimeoutSeconds")) {
      params["startupTimeoutSeconds"] = std::min(600, 30 * TestSlowness());
    }
    Json opened = session.Call("session/open", params);
    for (const Json& server : opened["result"]["servers"]) {
      if (server["state"] == "ask") {
        Json answered =
            session.Call("server/answer", {{"alias", server["alias"]}, {"answer", "1"}});
        EXPECT_EQ(answered["result"]["state"], "start") << answered.dump();
      }
    }
    return opened;
  }

  // Starts `alias` and, where its list waits for an answer, says yes to it,
  // as a person at a terminal would: its tools are offered to the model.
  // Gives server/start's answer.
  Json StartAndOffer(SessionClient& session, const std::string& alias) {
    // Longer than the start may take, so its own timeout answers first.
    Json started = session.Call("server/start", {{"alias", alias}}, std::chrono::seconds(40));
    if (started.contains("result") && started["result"]["offered"] == false &&
        !started["result"].contains("note")) {
      Json offered = session.Call("tools/answer", {{"alias", alias}, {"answer", "1"}});
      EXPECT_EQ(offered["result"]["offered"], true) << offered.dump();
    }
    return started;
  }

  std::string Slurp(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

  TemporaryDirectory temporary_;
  int sessions_ = 0;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_SUPERVISOR_FIXTURE_H_
