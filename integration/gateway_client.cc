#include "integration/gateway_client.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "integration/peers.h"

namespace bravebot::testing {
namespace {

// The first `program` on the tests' own PATH (where Node.js was found when
// they were started), else /usr/bin's.
std::string OnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path != nullptr ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (!folder.empty() && ::access((folder + "/" + program).c_str(), X_OK) == 0) {
      return folder + "/" + program;
    }
  }
  return "/usr/bin/" + program;
}

// A PATH that finds Node.js, for the programs that start it by name.
std::string NodePath() {
  return "PATH=" + std::filesystem::path(OnPath("node")).parent_path().string() + ":/usr/bin:/bin";
}

Json Fatal(const std::string& why, const CommandOutput& run) {
  return {{"fatal", why + " (status " + std::to_string(run.status) + ")"},
          {"out", run.out},
          {"err", run.err},
          {"steps", Json::array()}};
}

}  // namespace

Json AgentScenario(const std::vector<std::string>& argv,
                   const std::vector<std::string>& environment, const std::string& cwd) {
  Json env = Json::object();
  for (const std::string& word : environment) {
    const size_t equals = word.find('=');
    if (equals != std::string::npos) env[word.substr(0, equals)] = word.substr(equals + 1);
  }
  return {{"command", argv.at(0)},
          {"args", std::vector<std::string>(argv.begin() + 1, argv.end())},
          {"env", env},
          {"cwd", cwd},
          {"capabilities", Json::object()},
          {"steps", Json::array()}};
}

Json RunAgent(const std::string& directory, const Json& scenario, std::chrono::seconds limit) {
  // Beside a link to the SDK, since ES modules do not read NODE_PATH; a copy,
  // since Node.js resolves a linked script's imports from where it points.
  const std::string modules = directory + "/node_modules";
  if (!std::filesystem::exists(modules)) {
    std::filesystem::create_directory_symlink(PeersDirectory() + "/client/node_modules", modules);
  }
  const std::string script = directory + "/agent.mjs";
  // BRAVEBOT_AGENT_SCRIPT where set: a copy staged where an unprivileged
  // user can read it (scripts/test-as-user.sh), as the source may not be.
  const char* staged = std::getenv("BRAVEBOT_AGENT_SCRIPT");
  std::filesystem::copy_file(staged != nullptr && *staged != '\0' ? staged : BRAVEBOT_AGENT_SCRIPT,
                             script, std::filesystem::copy_options::overwrite_existing);
  const std::string scenario_file = directory + "/scenario.json";
  std::ofstream(scenario_file) << scenario.dump();

  CommandOutput run =
      RunCommand({OnPath("timeout"), "--kill-after=5", std::to_string(limit.count()),
                  OnPath("node"), script, scenario_file},
                 {NodePath(), "HOME=" + directory}, directory);
  if (run.status == 124 || run.status == 137) return Fatal("the agent outlived its limit", run);
  Json transcript = Json::parse(run.out, nullptr, false);
  if (transcript.is_discarded() || !transcript.is_object()) {
    return Fatal("the agent printed no transcript", run);
  }
  return transcript;
}

std::vector<Json> StepsOf(const Json& transcript, const std::string& step) {
  std::vector<Json> found;
  for (const Json& done : transcript.value("steps", Json::array())) {
    if (done.value("do", "") == step) found.push_back(done);
  }
  return found;
}

std::vector<std::string> ToolNames(const Json& list_step) {
  std::vector<std::string> names;
  if (!list_step.contains("result")) return names;
  for (const Json& tool : list_step["result"].value("tools", Json::array())) {
    names.push_back(tool.value("name", ""));
  }
  return names;
}

std::string CallText(const Json& call_step) {
  if (call_step.contains("error")) return call_step["error"].value("message", "");
  std::string text;
  for (const Json& content : call_step["result"].value("content", Json::array())) {
    if (content.value("type", "") != "text") continue;
    if (!text.empty()) text += "\n";
    text += content.value("text", "");
  }
  return text;
}

bool InspectorInstalled() {
  return std::filesystem::exists(PeersDirectory() + "/inspector/node_modules/.bin/mcp-inspector");
}

CommandOutput RunInspector(const std::vector<std::string>& argv,
                           const std::vector<std::string>& environment,
                           const std::vector<std::string>& method) {
  std::vector<std::string> words = {OnPath("npx"), "--no-install",
                                    "@modelcontextprotocol/inspector", "--cli"};
  words.insert(words.end(), argv.begin(), argv.end());
  words.insert(words.end(), method.begin(), method.end());
  // npx and the inspector are Node.js scripts, started by name.
  std::vector<std::string> with_node;
  for (const std::string& word : environment) {
    if (word.rfind("PATH=", 0) != 0) with_node.push_back(word);
  }
  with_node.push_back(NodePath());
  return RunCommand(words, with_node, PeersDirectory() + "/inspector");
}

}  // namespace bravebot::testing
