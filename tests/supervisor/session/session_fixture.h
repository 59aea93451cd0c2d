// The fixture of the session's unit tests: a profile, a checkout and a
// home in a temporary directory, servers declared and approved there as an
// earlier session would have, and scripted servers under a Supervisor
// through the channel seam (scripted_channels.h), driven by SessionDriver.
#ifndef BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_FIXTURE_H_
#define BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "confine/digest.h"
#include "confine/filesystem.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/tools/model_tools.h"
#include "tests/supervisor/session/scripted_channels.h"
#include "tests/supervisor/session/session_driver.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {

using Json = nlohmann::ordered_json;

inline constexpr char kDeclaredAt[] = "https://docs.example.com/mcp";
inline constexpr char kMovedTo[] = "https://mcp.example.net/mcp";

inline Json Tool(const std::string& name, const std::string& description) {
  return {{"name", name},
          {"description", description},
          {"inputSchema", {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}}};
}

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::chmod(temporary_.path().c_str(), 0755);
    std::filesystem::create_directories(Home());
    std::filesystem::create_directories(Checkout() + "/.bravebot");
    Result<ProfileDirectory> profile = ProfileDirectory::Open(Profile(), Create::kYes);
    ASSERT_TRUE(profile.ok()) << profile.error().message();
    profile_.emplace(std::move(*profile));
    environment_ = {{"HOME", Home()},
                    {"PATH", "/usr/bin:/bin"},
                    {"BRAVEBOT_HOME", Profile()},
                    // No administrator file of this machine decides here.
                    {"BRAVEBOT_MANAGED_FILE", temporary_.Join("no-managed.json")}};
  }

  std::string Home() const { return temporary_.Join("home"); }
  std::string Profile() const { return temporary_.Join("profile"); }
  std::string Checkout() const { return temporary_.Join("checkout"); }

  // A program server, declared (not approved): never run, its channel is
  // the script's.
  Declaration Program(const std::string& alias) {
    Declaration declaration;
    declaration.alias = alias;
    declaration.program = "/usr/bin/" + alias + "-mcp";
    Declare(declaration);
    return declaration;
  }
  Declaration Service(const std::string& alias) {
    Declaration declaration;
    declaration.alias = alias;
    declaration.transport = Transport::kHttp;
    declaration.url = kDeclaredAt;
    Declare(declaration);
    return declaration;
  }
  void Declare(const Declaration& declaration) {
    Result<FileLock> lock = profile_->Lock();
    ASSERT_TRUE(lock.ok());
    ASSERT_TRUE(DeclarationStore(*profile_).Put(declaration, *lock).ok());
  }
  // Approved, as answer 1 at an earlier session's question records it.
  void Approve(const Declaration& declaration) {
    ChangeApprovals([&](ApprovalFile& file) { file.Approve(declaration); });
  }
  // Its list `tools` said yes to, as tools/answer 1 records it.
  void ApproveList(const Declaration& declaration, const std::vector<Json>& tools) {
    ChangeApprovals([&](ApprovalFile& file) {
      file.ApproveToolList(ComputeDigest(declaration).hex, ToolListDigest(tools));
    });
  }
  void ChangeApprovals(const std::function<void(ApprovalFile&)>& change) {
    Result<FileLock> lock = profile_->Lock();
    ASSERT_TRUE(lock.ok());
    ASSERT_TRUE(ApprovalStore(*profile_).Change(*lock, change).ok());
  }
  std::string DeclaredUrl(const std::string& alias) {
    Result<DeclarationFile> file = DeclarationStore(*profile_).Read();
    const Declaration* declared = file.ok() ? file->Find(alias) : nullptr;
    return declared ? declared->url : "";
  }

  // The checkout's settings ask for `aliases`, with `permissions` where given.
  void Request(const std::vector<std::string>& aliases, const Json& permissions = Json()) {
    Json settings = {{"mcp", {{"request", aliases}}}};
    if (!permissions.is_null()) settings["permissions"] = permissions;
    std::ofstream(Checkout() + "/.bravebot/settings.json") << settings.dump();
  }

  SupervisorMachine Machine() {
    return {[this](const char* name) -> const char* {
              auto found = environment_.find(name);
              return found == environment_.end() ? nullptr : found->second.c_str();
            },
            &fs_, Home(), Profile()};
  }
  // A session opened in the checkout with `params`; session/open's result
  // in `opened`.
  std::unique_ptr<SessionDriver> Open(Json params = Json::object(), Json* opened = nullptr) {
    auto session = std::make_unique<SessionDriver>(Machine(), channels_);
    params["directory"] = Checkout();
    Json answer = session->Call("session/open", params);
    EXPECT_TRUE(answer.contains("result")) << answer.dump();
    if (opened) *opened = answer["result"];
    return session;
  }
  // A session at a terminal whose running `alias` offers its list.
  std::unique_ptr<SessionDriver> Running(const std::string& alias,
                                         const Json& params = Json::object()) {
    auto session = Open(params);
    Json started = session->Call("server/start", {{"alias", alias}});
    EXPECT_TRUE(started.contains("result")) << started.dump();
    if (started["result"]["offered"] == false) {
      EXPECT_EQ(
          session->Call("tools/answer", {{"alias", alias}, {"answer", "1"}})["result"]["offered"],
          true);
    }
    return session;
  }
  // A weather server, approved, whose list of `echo` and `forecast` is too.
  ScriptedServer& ApprovedWeather(const Json& permissions = Json()) {
    ScriptedServer& weather = channels_.Script("weather");
    weather.tools = {Tool("echo", "Says it back."), Tool("forecast", "Gets the forecast.")};
    Declaration declared = Program("weather");
    Approve(declared);
    ApproveList(declared, weather.tools);
    Request({"weather"}, permissions);
    return weather;
  }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
  std::map<std::string, std::string> environment_;
  RealFileSystem fs_;
  ScriptedChannels channels_;  // outlives each test's session
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_FIXTURE_H_
