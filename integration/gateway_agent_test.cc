// The agent the gateway's tests drive it with, checked against a real server
// started directly: what it declares, answers and records is what the
// gateway's tests read in its transcripts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "integration/gateway_client.h"
#include "integration/peers.h"
#include "integration/programs.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

class GatewayAgentTest : public ::testing::Test {
 protected:
  std::vector<std::string> Environment() const {
    return {"PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin", "HOME=" + temporary_.path(),
            "AGENT_MARK=given"};
  }
  Json Everything() const {
    return AgentScenario({PeersDirectory() + "/bin/mcp-server-everything"}, Environment(),
                         temporary_.path());
  }
  TemporaryDirectory temporary_;
};

TEST_F(GatewayAgentTest, ItAnswersWhatItDeclaresAndRecordsWhatTheServerSent) {
  SKIP_WITHOUT_PEERS();
  Json scenario = Everything();
  scenario["capabilities"] = {
      {"elicitation", true}, {"roots", {"file:///tmp/agent-root"}}, {"sampling", "sampled words"}};
  scenario["elicitations"] = {{{"action", "accept"}, {"answer", "first"}}, {{"action", "decline"}}};
  scenario["steps"] = Json::array(
      {// server-everything says its list changed as it starts.
       {{"do", "waitForListChanged"}, {"timeoutMs", 5000}},
       {{"do", "listTools"}},
       {{"do", "callTool"}, {"name", "get-env"}},
       {{"do", "callTool"}, {"name", "trigger-sampling-request"}, {"arguments", {{"prompt", "p"}}}},
       {{"do", "callTool"}, {"name", "get-roots-list"}},
       {{"do", "callTool"}, {"name", "trigger-elicitation-request"}},
       {{"do", "callTool"}, {"name", "trigger-elicitation-request"}},
       {{"do", "callTool"},
        {"name", "trigger-long-running-operation"},
        {"arguments", {{"duration", 1}, {"steps", 2}}}},
       {{"do", "close"}}});
  Json transcript = RunAgent(temporary_.path(), scenario);
  ASSERT_FALSE(transcript.contains("fatal")) << transcript.dump();

  EXPECT_EQ(transcript["initialize"]["protocolVersion"], "2025-11-25");
  EXPECT_THAT(ToolNames(StepsOf(transcript, "listTools")[0]), Contains("get-roots-list"));
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(6));
  EXPECT_THAT(CallText(calls[0]), HasSubstr("\"AGENT_MARK\": \"given\""));  // the env given
  EXPECT_THAT(CallText(calls[1]), HasSubstr("sampled words"));
  EXPECT_THAT(CallText(calls[2]), HasSubstr("file:///tmp/agent-root"));
  EXPECT_THAT(CallText(calls[3]), HasSubstr("\"answer\": \"first\""));
  EXPECT_THAT(CallText(calls[4]), HasSubstr("decline"));
  // Its steps are timed by the server: one or both come before its answer.
  EXPECT_THAT(calls[5]["progress"], Not(IsEmpty()));
  ASSERT_THAT(transcript["elicitations"], SizeIs(2));
  EXPECT_EQ(transcript["elicitations"][0]["answer"]["content"]["answer"], "first");
  EXPECT_EQ(transcript["elicitations"][1]["answer"]["action"], "decline");
  EXPECT_EQ(transcript["rootsLists"], 1);
  EXPECT_THAT(transcript["samplings"], SizeIs(1));
  EXPECT_EQ(StepsOf(transcript, "waitForListChanged")[0]["result"]["came"], true);
  EXPECT_THAT(transcript["stderr"].get<std::string>(), HasSubstr("Starting default (STDIO)"));
}

TEST_F(GatewayAgentTest, WithoutCapabilitiesItAnswersNoneAndAnOlderVersionCanBeAskedFor) {
  SKIP_WITHOUT_PEERS();
  Json scenario = Everything();
  scenario["protocolVersion"] = "2025-06-18";
  scenario["steps"] = Json::array({{{"do", "listTools"}},
                                   {{"do", "callTool"},
                                    {"name", "trigger-long-running-operation"},
                                    {"arguments", {{"duration", 5}, {"steps", 5}}},
                                    {"cancelAfterMs", 300}}});
  Json transcript = RunAgent(temporary_.path(), scenario);
  ASSERT_FALSE(transcript.contains("fatal")) << transcript.dump();
  EXPECT_EQ(transcript["initialize"]["protocolVersion"], "2025-06-18");
  // The tools that ask the client are offered only to one that can answer.
  EXPECT_THAT(ToolNames(StepsOf(transcript, "listTools")[0]), Not(Contains("get-roots-list")));
  Json cancelled = StepsOf(transcript, "callTool")[0];
  EXPECT_LT(cancelled["ms"].get<int>(), 3000) << cancelled.dump();
  EXPECT_TRUE(cancelled.contains("error")) << cancelled.dump();
  EXPECT_EQ(transcript["elicitations"], Json::array());
}

TEST_F(GatewayAgentTest, AWaitForAListChangeThatNeverComesEndsAtItsTimeout) {
  SKIP_WITHOUT_PEERS();
  Json scenario = AgentScenario({OurProgram("fake_servers/fault_server"), "stderr-lines", "1"},
                                Environment(), temporary_.path());
  scenario["steps"] = Json::array({{{"do", "waitForListChanged"}, {"timeoutMs", 300}},
                                   {{"do", "kill"}, {"signal", "SIGTERM"}}});
  Json transcript = RunAgent(temporary_.path(), scenario);
  ASSERT_FALSE(transcript.contains("fatal")) << transcript.dump();
  Json waited = StepsOf(transcript, "waitForListChanged").at(0);
  EXPECT_EQ(waited["result"]["came"], false);
  EXPECT_GE(waited["ms"].get<int>(), 300);
  EXPECT_EQ(StepsOf(transcript, "kill").at(0)["result"]["closed"], true);
  EXPECT_THAT(transcript["stderr"].get<std::string>(), HasSubstr("line 1"));
}

TEST_F(GatewayAgentTest, AServerThatCannotStartIsAFatalTranscript) {
  SKIP_WITHOUT_PEERS();
  Json scenario = AgentScenario({temporary_.Join("no-such-server")}, Environment(), "/");
  Json transcript = RunAgent(temporary_.path(), scenario);
  EXPECT_TRUE(transcript.contains("fatal")) << transcript.dump();
}

TEST_F(GatewayAgentTest, TheInspectorListsAndCallsAServer) {
  SKIP_WITHOUT_PEERS();
  if (!InspectorInstalled())
    GTEST_SKIP() << "the inspector is not installed: scripts/install-peers.sh";
  const std::vector<std::string> server = {PeersDirectory() + "/bin/mcp-server-everything"};
  CommandOutput listed = RunInspector(server, Environment(), {"--method", "tools/list"});
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("\"name\": \"echo\""));
  CommandOutput called = RunInspector(server, Environment(),
                                      {"--method", "tools/call", "--tool-name", "echo",
                                       "--tool-arg", "message=from the inspector"});
  ASSERT_EQ(called.status, 0) << called.err;
  EXPECT_THAT(called.out, HasSubstr("Echo: from the inspector"));
}

}  // namespace
}  // namespace bravebot::testing
