// Service servers (declared with add --http) driven through the supervisor:
// server-everything in its streamable-HTTP mode on a loopback port, and
// scripted services of ours that answer with exactly the bytes a test
// chooses (an HTTP error, a redirect, a handshake after a same-origin move).
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "integration/peers.h"
#include "integration/running_command.h"
#include "integration/scripted_services.h"
#include "integration/supervisor_fixture.h"
#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

// A loopback port nothing listens on as this is called.
int FreePort() {
  int probe = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  (void)::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t size = sizeof(address);
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(probe);
  return ntohs(address.sin_port);
}

std::size_t CountOf(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// Every POST a scripted service read, its GETs and DELETEs left out.
std::vector<std::string> Posts(const ScriptedHttpServer& service) {
  std::vector<std::string> posts = service.requests();
  std::erase_if(posts, [](const std::string& r) { return !r.starts_with("POST "); });
  return posts;
}

class ServiceTest : public SupervisorTest {
 protected:
  // server-everything serving streamable HTTP on a free loopback port; its
  // log (it says each request it took) goes to `log_`.
  std::string StartEverything() {
    const int port = FreePort();
    log_ = temporary_.Join("everything.log");
    everything_ = std::make_unique<RunningCommand>(
        std::vector<std::string>{"/bin/sh", "-c", "exec \"$0\" streamableHttp > \"$1\"",
                                 PeersDirectory() + "/bin/mcp-server-everything", log_},
        std::vector<std::string>{"PORT=" + std::to_string(port),
                                 "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin",
                                 "HOME=" + Home()},
        temporary_.path(), temporary_.Join("everything.err"));
    for (int waited = 0; waited < 100; ++waited) {
      if (Slurp(temporary_.Join("everything.err")).find("listening on port") != std::string::npos)
        break;
      std::this_thread::sleep_for(milliseconds(100));
    }
    return "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  }

  // mcp-run --stdio for `service`, declared as docs, once its answer to an
  // initialize has come; null (and the test failed) where it did not.
  std::unique_ptr<RunningCommand> BridgeAfterHandshake(const ScriptedHttpServer& service) {
    Declare("docs", {"--http", service.Url("/mcp")});
    auto bridge = std::make_unique<RunningCommand>(
        std::vector<std::string>{OurProgram("mcp-run"), "--stdio", "docs"}, Environment(),
        temporary_.path(), temporary_.Join("bridge.err"));
    const bool written =
        bridge->Write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"
                      "\n",
                      In(seconds(5)));
    EXPECT_TRUE(written);
    const bool answered = written && bridge->ReadLines(1, In(seconds(10))).size() == 1u;
    EXPECT_TRUE(answered) << "no answer to initialize";
    return answered ? std::move(bridge) : nullptr;
  }

  std::string log_;
  std::unique_ptr<RunningCommand> everything_;
};

TEST_F(ServiceTest, AServiceIsStartedListedCalledAndEndedOverHttp) {
  SKIP_WITHOUT_PEERS();
  Declare("everything", {"--http", StartEverything()});
  Request({"everything"});
  auto session = Session();
  OpenAndApprove(*session);
  Json started = StartAndOffer(*session, "everything");
  ASSERT_TRUE(started.contains("result")) << started.dump() << session->Log();
  std::vector<std::string> names;
  for (const Json& tool : started["result"]["tools"]) names.push_back(tool["name"]);
  EXPECT_THAT(names, IsSupersetOf({"echo", "get-sum", "trigger-long-running-operation"}));
  EXPECT_EQ(started["result"]["serverInfo"]["name"], "mcp-servers/everything");

  Json echoed = session->Call("tool/call", {{"alias", "everything"},
                                            {"tool", "echo"},
                                            {"arguments", {{"message", "over http"}}},
                                            {"answer", "1"}});
  EXPECT_EQ(echoed["result"]["result"]["content"][0]["text"], "Echo: over http") << echoed.dump();

  // Its progress comes on the call's event stream, before the answer.
  Json long_call = session->Call("tool/call", {{"alias", "everything"},
                                               {"tool", "trigger-long-running-operation"},
                                               {"arguments", {{"duration", 1}, {"steps", 2}}},
                                               {"meta", {{"progressToken", "p-1"}}},
                                               {"answer", "1"}});
  EXPECT_EQ(long_call["result"]["state"], "ran") << long_call.dump();
  auto progress = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/message" &&
               m["params"]["message"]["method"] == "notifications/progress";
      },
      In(seconds(5)));
  EXPECT_TRUE(progress) << session->Log();

  EXPECT_TRUE(session->Call("server/stop", {{"alias", "everything"}}).contains("result"));
  // The stop ended its MCP session with a DELETE.
  EXPECT_THAT(Slurp(log_), HasSubstr("Received session termination request"));
  EXPECT_THAT(Slurp(log_), HasSubstr("Received MCP GET request"));  // its own stream
}

TEST_F(ServiceTest, AServiceThatCannotBeReachedOrFailsIsSaidSo) {
  Declare("gone", {"--http", "http://127.0.0.1:" + std::to_string(FreePort()) + "/mcp"});
  ScriptedHttpServer failing({{{{Http("500 SERVER WORDS", "", "do not show me")}}}});
  Declare("failing", {"--http", failing.Url("/mcp")});
  Request({"failing", "gone"});
  auto session = Session();
  OpenAndApprove(*session);
  Json gone = session->Call("server/start", {{"alias", "gone"}});
  EXPECT_EQ(gone["error"]["code"], -32003) << gone.dump();
  EXPECT_EQ(gone["error"]["data"]["step"], "unreachable");
  EXPECT_EQ(gone["error"]["message"],
            "gone did not start: gone was not reached: the connection was refused");
  Json failed = session->Call("server/start", {{"alias", "failing"}});
  EXPECT_EQ(failed["error"]["data"]["step"], "unreachable");
  EXPECT_EQ(failed["error"]["message"],
            "failing did not start: failing answered POST with HTTP 500");
  EXPECT_THAT(failed.dump(), ::testing::Not(HasSubstr("SERVER WORDS")));
}

TEST_F(ServiceTest, ABrokenAnswerToTheHandshakeIsSaidInOurWords) {
  ScriptedHttpServer cut(
      {{{{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
          "Connection: close\r\n\r\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,"}}}});
  ScriptedHttpServer html(
      {{{{Http("200 OK", "Content-Type: text/html\r\n", "<html>SERVER WORDS</html>")}}}});
  ScriptedHttpServer garbled(
      {{{{Http("200 OK", "Content-Type: application/json\r\n", "not json \x1b[2J")}}}});
  ScriptedHttpServer silent({ScriptedAnswer{{}, /*close=*/false}});
  Declare("cut", {"--http", cut.Url("/mcp")});
  Declare("html", {"--http", html.Url("/mcp")});
  Declare("garbled", {"--http", garbled.Url("/mcp")});
  Declare("silent", {"--http", silent.Url("/mcp")});
  Request({"cut", "garbled", "html", "silent"});
  auto session = Session();
  OpenAndApprove(*session, {{"startupTimeoutSeconds", 1}});

  Json was_cut = session->Call("server/start", {{"alias", "cut"}});
  EXPECT_EQ(was_cut["error"]["data"]["step"], "unreachable") << was_cut.dump();
  EXPECT_EQ(was_cut["error"]["message"],
            "cut did not start: cut ended its event stream in the middle of an event, before its "
            "answer came");
  Json was_html = session->Call("server/start", {{"alias", "html"}});
  EXPECT_EQ(was_html["error"]["message"],
            "html did not start: html answered POST with HTTP 200 and a body that is neither "
            "application/json nor text/event-stream");
  EXPECT_THAT(was_html.dump(), ::testing::Not(HasSubstr("SERVER WORDS")));
  Json was_garbled = session->Call("server/start", {{"alias", "garbled"}});
  EXPECT_EQ(was_garbled["error"]["data"]["step"], "not-json") << was_garbled.dump();
  EXPECT_THAT(was_garbled["error"]["message"].get<std::string>(), HasSubstr("\\x1b[2J"));
  Json was_silent = session->Call("server/start", {{"alias", "silent"}}, seconds(10));
  EXPECT_EQ(was_silent["error"]["data"]["step"], "timeout") << was_silent.dump();
  EXPECT_EQ(was_silent["error"]["message"],
            "silent did not start: no answer to initialize within 1 s");
}

TEST_F(ServiceTest, ASameOriginMoveIsFollowedAndAnotherPlaceGetsNothing) {
  // Elsewhere: a service on another port, which must receive nothing.
  ScriptedHttpServer elsewhere({});
  ScriptedHttpServer moving(
      {{{{Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("moving", {"--http", moving.Url("/mcp")});
  // Here: a trailing-slash move, then a whole handshake at the new path.
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.insert(script.begin(), {{{Http("308 Permanent Redirect", "Location: /mcp/\r\n", "")}}});
  ScriptedHttpServer here(script);
  Declare("here", {"--http", here.Url("/mcp")});
  Request({"here", "moving"});
  auto session = Session();
  OpenAndApprove(*session);

  // Another place is asked about, and gets nothing meanwhile.
  Json moved = session->Call("server/start", {{"alias", "moving"}});
  EXPECT_EQ(moved["result"]["state"], "redirect") << moved.dump();
  EXPECT_EQ(moved["result"]["to"], elsewhere.Url("/mcp"));
  EXPECT_EQ(elsewhere.requests().size(), 0u);

  Json started = session->Call("server/start", {{"alias", "here"}});
  ASSERT_TRUE(started.contains("result")) << started.dump() << session->Log();
  EXPECT_EQ(started["result"]["tools"][0]["name"], "ping");
  std::vector<std::string> requests = here.requests();
  ASSERT_GE(requests.size(), 4u);
  std::erase_if(requests, [](const std::string& r) { return r.starts_with("GET "); });
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_THAT(requests[0], ::testing::StartsWith("POST /mcp HTTP/1.1"));
  EXPECT_THAT(requests[1], ::testing::StartsWith("POST /mcp/ HTTP/1.1"));
  // After the handshake: the session and the version agreed on each request,
  // at the place it moved to for good.
  EXPECT_THAT(requests[2], ::testing::StartsWith("POST /mcp/ HTTP/1.1"));
  EXPECT_THAT(requests[2], HasSubstr("\r\nMCP-Session-Id: s-9\r\n"));
  EXPECT_THAT(requests[2], HasSubstr("\r\nMCP-Protocol-Version: 2025-11-25\r\n"));
  EXPECT_THAT(requests[2], HasSubstr("notifications/initialized"));
  EXPECT_THAT(requests[3], HasSubstr("\"tools/list\""));
}

TEST_F(ServiceTest, EachKindOfRedirectIsDecidedAndOnlyAMoveElsewhereIsAsked) {
  ScriptedHttpServer elsewhere({});
  const std::string to_elsewhere = "Location: " + elsewhere.Url("/mcp") + "\r\n";
  const std::string port = std::to_string(elsewhere.port());
  // Each start below is one POST here, in this order.
  ScriptedHttpServer redirector(
      {{{{Http("302 Found", to_elsewhere, "")}}},
       {{{Http("303 See Other", "Location: /other\r\n", "")}}},
       {{{Http("307 Temporary Redirect",
               "Location: http://me:s3cret@127.0.0.1:" + port + "/mcp\r\n", "")}}},
       {{{Http("308 Permanent Redirect", "Location: http://localhost:" + port + "/mcp\r\n",
               "")}}}});
  // Twenty moves within one place, each to the next path.
  std::vector<ScriptedAnswer> chain;
  for (int step = 1; step <= 20; ++step) {
    chain.push_back({{{Http("307 Temporary Redirect",
                            "Location: /mcp/" + std::to_string(step) + "\r\n", "")}}});
  }
  ScriptedHttpServer looping(chain);
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed) << R"({"mcp": {"deny": [{"host": "localhost"}]}})";
  more_environment_.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  for (const char* alias : {"found", "see-other", "password", "denied"}) {
    Declare(alias, {"--http", redirector.Url("/mcp")});
  }
  Declare("looping", {"--http", looping.Url("/mcp")});
  Request({"denied", "found", "looping", "password", "see-other"});
  auto session = Session();
  OpenAndApprove(*session);

  // 302: another port is another place, asked about.
  Json found = session->Call("server/start", {{"alias", "found"}});
  EXPECT_EQ(found["result"]["state"], "redirect") << found.dump();
  EXPECT_EQ(
      session->Call("redirect/answer", {{"alias", "found"}, {"answer", "n"}})["error"]["code"],
      -32003);
  // 303, even within one place, would turn the message into a GET:
  // refused, nothing asked. (Elsewhere, it is a move like the others.)
  Json see_other = session->Call("server/start", {{"alias", "see-other"}});
  EXPECT_EQ(see_other["error"]["code"], -32003) << see_other.dump();
  EXPECT_THAT(see_other["error"]["message"].get<std::string>(), HasSubstr("303 See Other"));
  // A place no declaration can hold, or one the administrator refuses:
  // refused without asking, and the password never shown.
  Json password = session->Call("server/start", {{"alias", "password"}});
  EXPECT_THAT(password["error"]["message"].get<std::string>(),
              HasSubstr("that url holds a user or a password"))
      << password.dump();
  EXPECT_THAT(password.dump(), ::testing::Not(HasSubstr("s3cret")));
  Json denied = session->Call("server/start", {{"alias", "denied"}});
  EXPECT_THAT(denied["error"]["message"].get<std::string>(),
              HasSubstr("which this machine's administrator manages, denies this one in its "
                        "mcp.deny"))
      << denied.dump();
  // Moves within one place are followed, but not without end.
  Json looped = session->Call("server/start", {{"alias", "looping"}});
  EXPECT_THAT(looped["error"]["message"].get<std::string>(),
              HasSubstr("its replies redirected 11 times within 127.0.0.1:" +
                        std::to_string(looping.port()) + ", more than bravebot-mcp follows"))
      << looped.dump();
  EXPECT_EQ(looping.requests().size(), 11u);
  EXPECT_EQ(elsewhere.requests().size(), 0u);  // nothing was ever sent there
}

TEST_F(ServiceTest, McpRunListsAndCallsAServiceAndRefusesItsMoveAsAOneShotRunDoes) {
  SKIP_WITHOUT_PEERS();
  Declare("everything", {"--http", StartEverything()});
  CommandOutput listed =
      RunCommand({OurProgram("mcp-run"), "everything"}, Environment(), temporary_.path());
  EXPECT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("everything offers 13 tools"));
  CommandOutput called = RunCommand(
      {OurProgram("mcp-run"), "everything", "--call", "echo", R"({"message": "via mcp-run"})"},
      Environment(), temporary_.path());
  EXPECT_EQ(called.status, 0) << called.err;
  EXPECT_THAT(called.out, HasSubstr("Echo: via mcp-run"));

  ScriptedHttpServer elsewhere({});
  const ScriptedAnswer moved = {
      {{Http("301 Moved Permanently", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}};
  ScriptedHttpServer moving({moved, moved});
  Declare("moving", {"--http", moving.Url("/mcp")});
  CommandOutput refused =
      RunCommand({OurProgram("mcp-run"), "moving"}, Environment(), temporary_.path());
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.err, HasSubstr("moving was not reached at " + elsewhere.Url("/mcp") +
                                     ", where its reply points: a one-shot run asks nobody "
                                     "whether a server moved, so nothing was sent there"));
  EXPECT_EQ(elsewhere.requests().size(), 0u);

  // Bridged, the client's request meets the move and is answered in the
  // same words; still nothing is sent there.
  CommandOutput bridged = RunWithoutTerminal(
      {OurProgram("mcp-run"), "--stdio", "moving"}, Environment(), temporary_.path(),
      R"({"jsonrpc":"2.0","id":"hello","method":"initialize","params":{}})"
      "\n");
  EXPECT_EQ(bridged.status, 0) << bridged.err;
  Json answer = Json::parse(bridged.out, nullptr, false);
  EXPECT_EQ(answer["id"], "hello") << bridged.out;
  EXPECT_EQ(answer["error"]["code"], -32603);
  EXPECT_THAT(answer["error"]["message"].get<std::string>(),
              HasSubstr("a one-shot run asks nobody whether a server moved"));
  EXPECT_THAT(bridged.err, HasSubstr("mcp-run: moving was not reached at "));
  EXPECT_EQ(elsewhere.requests().size(), 0u);
}

TEST_F(ServiceTest, McpRunBridgesAServiceToTheSdksStdioClient) {
  SKIP_WITHOUT_PEERS();
  Declare("everything", {"--http", StartEverything()});
  const std::string script = WriteSdkClientScript(temporary_.path(), "service-bridge.mjs", R"(
const { tools } = await client.listTools();
const sum = await client.callTool({ name: "get-sum", arguments: { a: 20, b: 22 } });
let progress = 0;
await client.callTool(
  { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
  undefined, { onprogress: () => { progress += 1; } });
console.log(JSON.stringify({ count: tools.length, sum: sum.content[0].text, progress }));
await client.close();
)");
  std::vector<std::string> environment = Environment();
  CommandOutput run = RunCommand({"/usr/bin/timeout", "60", "/usr/bin/node", script,
                                  OurProgram("mcp-run"), "--stdio", "everything"},
                                 environment, temporary_.path());
  ASSERT_EQ(run.status, 0) << run.err;
  Json answer = Json::parse(run.out, nullptr, false);
  ASSERT_TRUE(answer.is_object()) << run.out;
  EXPECT_EQ(answer["count"], 13);
  EXPECT_EQ(answer["sum"], "The sum of 20 and 22 is 42.");
  // Sent by the service on the call's stream, before its answer. Not both
  // for sure: the SDK calls a progress handler on a later turn of its loop,
  // and drops it once the answer is read, so the last progress read in the
  // same chunk as the answer is not seen (so too with a stdio server).
  EXPECT_GE(answer["progress"], 1);
  // The client's end ended the service's session: the DELETE came.
  for (int waited = 0; waited < 50 && Slurp(log_).find("session termination") == std::string::npos;
       ++waited) {
    std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_THAT(Slurp(log_), HasSubstr("Received session termination request"));
}

// Its result is passed on within the session's one line: read member by
// member it would bring the service's newlines with it, so it is read whole
// and written again.
TEST_F(ServiceTest, AnAnswerWrittenOverSeveralLinesReachesTheSessionInOne) {
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.push_back({{{Http("200 OK", "Content-Type: application/json\r\n",
                           "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"result\": {\n"
                           "    \"content\": [{\"type\": \"text\", \"text\": \"pretty\"}]\n"
                           "  }\n}\n")}}});
  script.push_back({{{Http("200 OK", "", "")}}});  // the DELETE that ends its session
  ScriptedHttpServer service(script);
  Declare("pretty", {"--http", service.Url("/mcp")});
  Request({"pretty"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "pretty").contains("result")) << session->Log();
  Json called =
      session->Call("tool/call", {{"alias", "pretty"}, {"tool", "ping"}, {"answer", "1"}});
  EXPECT_EQ(called["result"]["state"], "ran") << called.dump() << session->Log();
  EXPECT_EQ(called["result"]["result"]["content"][0]["text"], "pretty") << called.dump();
}

TEST_F(ServiceTest, ASessionTheServiceEndedIsSaidAndANewOneBeginsWhenTheClientAsks) {
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.erase(script.begin() + 2);  // the client lists nothing here
  script.push_back({{{Http("404 Not Found", "", "SERVER WORDS")}}});
  // The new handshake is the bridge's third request.
  script.push_back(
      {{{Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-10\r\n",
              R"({"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"2025-11-25",)"
              R"("capabilities":{},"serverInfo":{"name":"scripted","version":"1"}}})")}}});
  ScriptedHttpServer service(script);
  Declare("docs", {"--http", service.Url("/mcp")});
  RunningCommand bridge({OurProgram("mcp-run"), "--stdio", "docs"}, Environment(),
                        temporary_.path(), temporary_.Join("bridge.err"));
  ASSERT_TRUE(bridge.Write(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{}})"
                           "\n",
                           In(seconds(5))));
  std::vector<std::string> hello = bridge.ReadLines(1, In(seconds(10)));
  ASSERT_EQ(hello.size(), 1u);
  EXPECT_EQ(Json::parse(hello[0])["id"], "a");
  ASSERT_TRUE(bridge.Write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                           "\n"
                           R"({"jsonrpc":"2.0","id":"b","method":"tools/list"})"
                           "\n",
                           In(seconds(5))));
  std::vector<std::string> ended = bridge.ReadLines(1, In(seconds(10)));
  ASSERT_EQ(ended.size(), 1u);
  Json failed = Json::parse(ended[0]);
  EXPECT_EQ(failed["id"], "b");
  EXPECT_EQ(failed["error"]["message"],
            "docs answered POST with HTTP 404 for its MCP session: the service ended that "
            "session, and a new one begins only with a new handshake");
  // Nothing more is sent in that session; the client's new handshake goes
  // without it, and makes a new one.
  ASSERT_TRUE(bridge.Write(R"({"jsonrpc":"2.0","id":"c","method":"initialize","params":{}})"
                           "\n",
                           In(seconds(5))));
  std::vector<std::string> again = bridge.ReadLines(1, In(seconds(10)));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(Json::parse(again[0])["result"]["serverInfo"]["name"], "scripted");
  bridge.CloseInput();
  EXPECT_EQ(bridge.Wait(In(seconds(10))), 0);
  std::vector<std::string> posts = Posts(service);
  ASSERT_EQ(posts.size(), 4u);
  EXPECT_THAT(posts[2], HasSubstr("\r\nMCP-Session-Id: s-9\r\n"));
  EXPECT_THAT(posts[3], HasSubstr("\"initialize\""));
  EXPECT_THAT(posts[3], ::testing::Not(HasSubstr("MCP-Session-Id")));
  EXPECT_THAT(Slurp(temporary_.Join("bridge.err")), ::testing::Not(HasSubstr("SERVER WORDS")));
}

TEST_F(ServiceTest, ASignalToTheBridgeEndsTheServicesSessionFirst) {
  ScriptedHttpServer service(Handshakes(1));
  auto bridge = BridgeAfterHandshake(service);
  ASSERT_TRUE(bridge);
  ::kill(bridge->pid(), SIGTERM);
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 128 + SIGTERM);
  std::vector<std::string> requests = service.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_THAT(requests.back(), ::testing::StartsWith("DELETE /mcp HTTP/1.1"));
  EXPECT_THAT(requests.back(), HasSubstr("\r\nMCP-Session-Id: s-9\r\n"));
}

TEST_F(ServiceTest, TheBridgeWritesEachMessageOfTheServiceAsOneLineAndNoForgedAnswer) {
  // The answer to initialize comes on an event stream, after an event whose
  // two data lines would be two messages if passed on as they came (the
  // second an answer to a request the client may have made), and a thousand
  // answers to no request at all.
  std::string stream =
      "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n"
      "data: {\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{\"forged\":true}}\n\n";
  for (int i = 0; i < 1000; ++i)
    stream += "data: {\"jsonrpc\":\"2.0\",\"id\":424242,\"result\":{}}\n\n";
  stream +=
      "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n\n";
  ScriptedHttpServer service(
      {{{{Http("200 OK", "Content-Type: text/event-stream\r\nMcp-Session-Id: s-9\r\n", stream)}}}});
  Declare("docs", {"--http", service.Url("/mcp")});
  RunningCommand bridge({OurProgram("mcp-run"), "--stdio", "docs"}, Environment(),
                        temporary_.path(), temporary_.Join("bridge.err"));
  ASSERT_TRUE(bridge.Write(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{}})"
                           "\n",
                           In(seconds(5))));
  std::vector<std::string> lines = bridge.ReadLines(1, In(seconds(10)));
  ASSERT_EQ(lines.size(), 1u);
  const Json first = Json::parse(lines[0], nullptr, false);
  ASSERT_TRUE(first.is_object()) << lines[0];
  EXPECT_EQ(first["id"], "a");  // the answer to initialize, and nothing before it
  bridge.CloseInput();
  EXPECT_EQ(bridge.Wait(In(seconds(10))), 0);
  const std::string said = Slurp(temporary_.Join("bridge.err"));
  EXPECT_THAT(said, HasSubstr("docs sent what is not one JSON-RPC message"));
  // Said once, however often it came: a standard error nobody reads would
  // otherwise hold the bridge.
  EXPECT_EQ(CountOf(said, "sent an answer to no request under way"), 1u) << said;
}

TEST_F(ServiceTest, TheBridgeReadsNoMoreFromAClientThatDoesNotReadItsAnswers) {
  ScriptedHttpServer service({});
  Declare("docs", {"--http", service.Url("/mcp")});
  RunningCommand bridge({OurProgram("mcp-run"), "--stdio", "docs"}, Environment(),
                        temporary_.path(), temporary_.Join("bridge.err"));
  // Each line not JSON is answered with a parse error at once, which this
  // client never reads: past 256 KiB waiting for it, its input is not read.
  std::string junk;
  for (int i = 0; i < (8 << 20) / 2; ++i) junk += "x\n";
  EXPECT_FALSE(bridge.Write(junk, In(seconds(5))))
      << "8 MiB of lines were all taken from a client that read none of their answers";
  EXPECT_EQ(service.requests().size(), 0u);
  ::kill(bridge.pid(), SIGTERM);
  EXPECT_EQ(bridge.Wait(In(seconds(10))), 128 + SIGTERM);
}

TEST_F(ServiceTest, TheClientsLastWordReachesTheServiceBeforeItsSessionEnds) {
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.erase(script.begin() + 2);
  // The last notification is taken slowly; it is waited for all the same.
  script[1].when = "notifications/initialized";
  script.push_back(
      {{{"", milliseconds(300)}, {Http("202 Accepted", "", "")}}, true, "roots/list_changed"});
  ScriptedHttpServer service(script);
  auto bridge = BridgeAfterHandshake(service);
  ASSERT_TRUE(bridge);
  ASSERT_TRUE(bridge->Write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                            "\n"
                            R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})"
                            "\n",
                            In(seconds(5))));
  bridge->CloseInput();
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 0);
  std::vector<std::string> requests = service.requests();
  std::erase_if(requests, [](const std::string& r) { return r.starts_with("GET "); });
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_THAT(requests[1] + requests[2], HasSubstr("notifications/roots/list_changed"));
  EXPECT_THAT(requests[3], ::testing::StartsWith("DELETE /mcp HTTP/1.1"));
}

TEST_F(ServiceTest, ASessionTheServiceEndedEndsTheServerUntilTheSessionStartsItAgain) {
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.push_back({{{Http("404 Not Found", "", "")}}});
  for (ScriptedAnswer& answer : Handshakes(1)) script.push_back(answer);
  ScriptedHttpServer service(script);
  Declare("docs", {"--http", service.Url("/mcp")});
  Request({"docs"});
  auto session = Session();
  OpenAndApprove(*session);
  StartAndOffer(*session, "docs");
  Json call = session->Call("tool/call", {{"alias", "docs"}, {"tool", "ping"}, {"answer", "1"}});
  EXPECT_THAT(call.dump(), HasSubstr("HTTP 404 for its MCP session")) << call.dump();
  auto exited = session->WaitFor([](const Json& m) { return m["method"] == "server/exited"; },
                                 In(seconds(5)));
  ASSERT_TRUE(exited) << session->Log();
  EXPECT_EQ((*exited)["params"]["alias"], "docs");

  // Only now, asked, is a new handshake made: without the old session.
  Json restarted = session->Call("server/start", {{"alias", "docs"}});
  ASSERT_TRUE(restarted.contains("result")) << restarted.dump() << session->Log();
  EXPECT_EQ(restarted["result"]["tools"][0]["name"], "ping");
  std::vector<std::string> posts = Posts(service);
  ASSERT_EQ(posts.size(), 7u);
  EXPECT_THAT(posts[4], HasSubstr("\"initialize\""));
  EXPECT_THAT(posts[4], ::testing::Not(HasSubstr("MCP-Session-Id")));
  // Running again, it is not started twice.
  EXPECT_EQ(session->Call("server/start", {{"alias", "docs"}})["error"]["code"], -32002);
}

TEST_F(ServiceTest, AMoveElsewhereIsAskedAndAYesDeclaresItThereAndAsksForItsListAgain) {
  ScriptedHttpServer elsewhere(Handshakes(2));
  ScriptedHttpServer moving(
      {{{{Http("301 Moved Permanently", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("docs", {"--http", moving.Url("/mcp")});
  Request({"docs"});
  auto session = Session();
  OpenAndApprove(*session);
  Json asked = session->Call("server/start", {{"alias", "docs"}});
  ASSERT_EQ(asked["result"]["state"], "redirect") << asked.dump();
  EXPECT_EQ(asked["result"]["from"], moving.Url("/mcp"));
  EXPECT_EQ(asked["result"]["to"], elsewhere.Url("/mcp"));
  EXPECT_EQ(asked["result"]["question"],
            "  docs is declared at " + moving.Url("/mcp") + "\n  and its reply points to " +
                elsewhere.Url("/mcp") +
                "\n  reaching 127.0.0.1:" + std::to_string(elsewhere.port()) +
                "\n  Nothing was sent there. A yes declares the server at that address and sends "
                "it what was being\n  sent, and every later request to the server goes there "
                "too, in this session and the next. Say\n  no unless you know the server "
                "moved.\n\n  declare this server where its reply points? [y/N]");
  EXPECT_EQ(elsewhere.requests().size(), 0u);  // nothing before the yes

  Json moved = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}});
  ASSERT_TRUE(moved.contains("result")) << moved.dump() << session->Log();
  EXPECT_EQ(moved["result"]["tools"][0]["name"], "ping");
  EXPECT_EQ(moved["result"]["movedTo"], elsewhere.Url("/mcp"));
  EXPECT_GE(elsewhere.requests().size(), 3u);
  session->Call("session/close");

  // Declared and approved there: the next session starts it unasked, and
  // puts its list again, read at the new place.
  CommandOutput got = RunCommand({OurProgram("bravebot-mcp"), "get", "docs"}, Environment());
  EXPECT_THAT(got.out, HasSubstr(elsewhere.Url("/mcp")));
  EXPECT_THAT(got.out, ::testing::Not(HasSubstr("unapproved")));
  auto next = Session();
  Json opened = next->Call("session/open", {{"directory", Checkout()}});
  EXPECT_EQ(opened["result"]["servers"][0]["state"], "start") << opened.dump();
  Json again = next->Call("server/start", {{"alias", "docs"}});
  EXPECT_EQ(again["result"]["toolsState"], "ask") << again.dump();
  EXPECT_EQ(moving.requests().size(), 1u);
}

TEST_F(ServiceTest, ANoToAMoveChangesNothingAndAYesToACallsMoveShakesHandsThereFirst) {
  // Elsewhere is another service: a yes makes the handshake there first,
  // and its list is read there. The second call is request 4 (after
  // initialize, tools/list and the call refused), the list read there 5;
  // those two are sent at once.
  ScriptedHttpServer elsewhere(
      {{{{Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-new\r\n",
               R"({"jsonrpc":"2.0","id":-1,"result":{"protocolVersion":"2025-06-18",)"
               R"("capabilities":{},"serverInfo":{"name":"moved","version":"1"}}})")}}},
       {{{Http("202 Accepted", "", "")}}},
       {{{Http("200 OK", "Content-Type: application/json\r\n",
               R"({"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"pong","inputSchema":)"
               R"({"type":"object"}}]}})")}},
        true,
        "tools/list"},
       {{{Http("200 OK", "Content-Type: application/json\r\n",
               R"({"jsonrpc":"2.0","id":4,"result":{"content":[]}})")}},
        true,
        "tools/call"}});
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.push_back(
      {{{Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}});
  script.push_back(
      {{{Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}});
  ScriptedHttpServer here(script);
  ScriptedHttpServer moving(
      {{{{Http("307 Temporary Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("moving", {"--http", moving.Url("/mcp")});
  Declare("here", {"--http", here.Url("/mcp")});
  Request({"here", "moving"});
  auto session = Session();
  OpenAndApprove(*session);

  ASSERT_EQ(session->Call("server/start", {{"alias", "moving"}})["result"]["state"], "redirect");
  Json no = session->Call("redirect/answer", {{"alias", "moving"}, {"answer", "n"}});
  EXPECT_EQ(no["error"]["code"], -32003) << no.dump();
  EXPECT_THAT(no["error"]["message"].get<std::string>(),
              HasSubstr("you said no, so nothing was sent there and it stays declared where it "
                        "was"));
  EXPECT_EQ(elsewhere.requests().size(), 0u);
  CommandOutput got = RunCommand({OurProgram("bravebot-mcp"), "get", "moving"}, Environment());
  EXPECT_THAT(got.out, HasSubstr(moving.Url("/mcp")));
  EXPECT_EQ(
      session->Call("redirect/answer", {{"alias", "moving"}, {"answer", "y"}})["error"]["code"],
      -32002);

  StartAndOffer(*session, "here");
  Json call = {{"alias", "here"}, {"tool", "ping"}, {"answer", "1"}};
  Json asked = session->Call("tool/call", call);
  ASSERT_EQ(asked["result"]["state"], "redirect") << asked.dump();
  Json refused = session->Call("redirect/answer", {{"alias", "here"}, {"answer", "n"}});
  EXPECT_EQ(refused["result"]["state"], "refused") << refused.dump();
  EXPECT_THAT(refused["result"]["text"].get<std::string>(),
              HasSubstr("the user said no, so nothing was sent there. Do not retry here:ping"));
  EXPECT_EQ(elsewhere.requests().size(), 0u);

  ASSERT_EQ(session->Call("tool/call", call)["result"]["state"], "redirect");
  Json ran = session->Call("redirect/answer", {{"alias", "here"}, {"answer", "y"}});
  EXPECT_EQ(ran["result"]["state"], "ran") << ran.dump() << session->Log();
  // The list read again there (tools/list) may go after the call's answer.
  std::vector<std::string> there = Posts(elsewhere);
  for (int i = 0; i < 250 && there.size() < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    there = Posts(elsewhere);
  }
  ASSERT_EQ(there.size(), 4u);
  EXPECT_THAT(there[0], HasSubstr("\"initialize\""));
  EXPECT_THAT(there[0], ::testing::Not(HasSubstr("MCP-Session-Id")));  // not here's session
  EXPECT_THAT(there[1], HasSubstr("notifications/initialized"));
  std::erase_if(there,
                [](const std::string& r) { return r.find("tools/call") == std::string::npos; });
  ASSERT_EQ(there.size(), 1u);
  EXPECT_THAT(there[0], HasSubstr("\r\nMCP-Session-Id: s-new\r\n"));
  EXPECT_THAT(there[0], HasSubstr("\r\nMCP-Protocol-Version: 2025-06-18\r\n"));
  // The list there is put to the person as the new declaration's.
  auto changed = session->WaitFor(
      [](const Json& m) { return m["method"] == "server/toolsChanged"; }, In(seconds(5)));
  ASSERT_TRUE(changed) << session->Log();
  EXPECT_EQ((*changed)["params"]["tools"][0]["name"], "pong");
  // Kept as a start's move is: declared and approved there.
  CommandOutput moved = RunCommand({OurProgram("bravebot-mcp"), "get", "here"}, Environment());
  EXPECT_THAT(moved.out, HasSubstr(elsewhere.Url("/mcp")));
  EXPECT_THAT(moved.out, ::testing::Not(HasSubstr("unapproved")));
}

// A header declared with --header goes with every request to the service
// where it is declared, and to no other place: not to where a reply
// redirects (nothing at all goes there before a yes), and not to where a yes
// moved it, in that session or the next, which declares it there without
// its headers.
TEST_F(ServiceTest, ADeclaredHeaderReachesTheDeclaredServiceAndNoPlaceItMovedTo) {
  ScriptedHttpServer here(Handshakes(1));
  ScriptedHttpServer elsewhere(Handshakes(2));
  ScriptedHttpServer moving(
      {{{{Http("301 Moved Permanently", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("here", {"--http", here.Url("/mcp"), "--header", "X-Api-Key=k-here-51"});
  Declare("docs", {"--http", moving.Url("/mcp"), "--header", "Authorization=Bearer k-moving-52"});
  Request({"docs", "here"});
  auto session = Session();
  OpenAndApprove(*session);

  Json started = session->Call("server/start", {{"alias", "here"}});
  ASSERT_TRUE(started.contains("result")) << started.dump() << session->Log();
  EXPECT_TRUE(session->Call("server/stop", {{"alias", "here"}}).contains("result"));
  std::vector<std::string> at_here = here.requests();
  ASSERT_GE(at_here.size(), 3u);
  for (const std::string& request : at_here) {
    EXPECT_THAT(request, HasSubstr("\r\nX-Api-Key: k-here-51\r\n")) << request;
  }

  Json asked = session->Call("server/start", {{"alias", "docs"}});
  ASSERT_EQ(asked["result"]["state"], "redirect") << asked.dump();
  EXPECT_THAT(asked["result"]["question"].get<std::string>(),
              HasSubstr("Its headers (add --header) are for where it is declared: a yes declares "
                        "it there without\n  them, and they are never sent there."));
  ASSERT_EQ(moving.requests().size(), 1u);
  EXPECT_THAT(moving.requests()[0], HasSubstr("\r\nAuthorization: Bearer k-moving-52\r\n"));
  EXPECT_EQ(elsewhere.requests().size(), 0u);
  Json moved = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}});
  ASSERT_TRUE(moved.contains("result")) << moved.dump() << session->Log();
  session->Call("session/close");
  ASSERT_GE(elsewhere.requests().size(), 3u);

  // Declared there without it, and approved so: the next session sends it
  // there unasked, and still without the header.
  CommandOutput got = RunCommand({OurProgram("bravebot-mcp"), "get", "docs"}, Environment());
  EXPECT_THAT(got.out, HasSubstr(elsewhere.Url("/mcp")));
  EXPECT_THAT(got.out, ::testing::Not(HasSubstr("headers:")));
  EXPECT_THAT(Slurp(Profile() + "/mcp.json"), ::testing::Not(HasSubstr("k-moving-52")));
  auto next = Session();
  next->Call("session/open", {{"directory", Checkout()}});
  Json again = next->Call("server/start", {{"alias", "docs"}});
  EXPECT_TRUE(again.contains("result")) << again.dump();
  EXPECT_GE(elsewhere.requests().size(), 6u);
  for (const std::string& request : elsewhere.requests()) {
    EXPECT_THAT(request, ::testing::Not(HasSubstr("k-moving-52"))) << request;
    EXPECT_THAT(request, ::testing::Not(HasSubstr("Authorization"))) << request;
  }
  EXPECT_EQ(moving.requests().size(), 1u);
}

// mcp-run takes --header as add does, by name from the environment too.
TEST_F(ServiceTest, McpRunSendsTheHeadersItIsGiven) {
  ScriptedHttpServer service(Handshakes(1));
  std::vector<std::string> environment = Environment();
  environment.push_back("X-Api-Key=k-run-53");
  CommandOutput listed = RunCommand({OurProgram("mcp-run"), "docs", "--http", service.Url("/mcp"),
                                     "--header", "X-Api-Key", "--header", "X-Team=t-54"},
                                    environment, temporary_.path());
  EXPECT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("docs offers 1 tool"));
  std::vector<std::string> requests = service.requests();
  ASSERT_GE(requests.size(), 3u);
  for (const std::string& request : requests) {
    EXPECT_THAT(request, HasSubstr("\r\nX-Api-Key: k-run-53\r\n")) << request;
    EXPECT_THAT(request, HasSubstr("\r\nX-Team: t-54\r\n")) << request;
  }
  EXPECT_THAT(listed.out + listed.err, ::testing::Not(HasSubstr("k-run-53")));

  CommandOutput unset = RunCommand(
      {OurProgram("mcp-run"), "docs", "--http", service.Url("/mcp"), "--header", "X-Unset-Key"},
      Environment(), temporary_.path());
  EXPECT_EQ(unset.status, 2);
  EXPECT_THAT(unset.err, HasSubstr("the header X-Unset-Key is read from your environment"));
}

}  // namespace
}  // namespace bravebot::testing
