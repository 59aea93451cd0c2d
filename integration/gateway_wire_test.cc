// bravebot-mcp gateway spoken to line by line, as a client that misbehaves
// would: one that writes far more than it reads, one that says roots
// changed before it said it was initialized, one ended by SIGTERM while it
// floods the gateway with calls. Each once ended the gateway by a crash or
// tore a line; none needs a real server.
#include <signal.h>

#include <set>
#include <string>

#include "integration/gateway_fixture.h"
#include "integration/resident_memory.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

using namespace std::chrono_literals;

constexpr char kInitialize[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"wire\",\"version\":\"1\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

class GatewayWireTest : public GatewayTest {
 protected:
  std::unique_ptr<RunningCommand> StartGateway() {
    return std::make_unique<RunningCommand>(
        std::vector<std::string>{OurProgram("bravebot-mcp"), "gateway"}, Environment(), Checkout(),
        temporary_.Join("gateway.err"));
  }
};

TEST_F(GatewayWireTest, EveryLineStaysWholeWhenTheClientReadsNothingForAWhile) {
  // Answers written as they are read and by coroutines of their own (a
  // call of a tool not offered is refused as it is read, in words naming
  // it, here 8 KiB long, more than a pipe takes in one write; the status
  // tool is answered once the supervisor answers it) fill the pipe to the
  // client many times over while it reads nothing. Each must come whole,
  // a line cut by the full pipe finished before the next
  // (tests/cli/gateway/json_rpc_peer_test.cc makes that moment often).
  Request({});
  auto gateway = StartGateway();
  std::string requests = kInitialize;
  constexpr int kCalls = 6000;
  const std::string long_name(8192, 'x');
  for (int id = 2; id < 2 + kCalls; ++id) {
    const std::string name = id % 2 == 0 ? long_name : "bravebot_status";
    requests += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\"}}\n";
  }
  ASSERT_TRUE(gateway->Write(requests, In(60s)));
  std::vector<std::string> lines = gateway->ReadLines(1 + kCalls, In(60s));
  ASSERT_EQ(lines.size(), 1u + kCalls);
  std::set<int> answered;
  for (const std::string& line : lines) {
    Json message = Json::parse(line, nullptr, false);
    ASSERT_FALSE(message.is_discarded()) << line.substr(0, 200);
    answered.insert(message["id"].get<int>());
  }
  EXPECT_EQ(answered.size(), 1u + kCalls);
  gateway->CloseInput();
  EXPECT_EQ(gateway->Wait(In(20s)), 0);
}

TEST_F(GatewayWireTest, AClientThatReadsNothingCostsTheGatewayItsBoundAndASignalStillEndsIt) {
  // Each call of a tool not offered is refused in words naming it, here
  // 8 KiB: 20,000 of them are about 170 MB, far past the 64 MiB the gateway
  // keeps for a client that reads nothing. It reads no more once that much
  // waits, so what the client writes is taken no further.
  Request({});
  auto gateway = StartGateway();
  std::string requests = kInitialize;
  constexpr int kCalls = 20000;
  const std::string long_name(8192, 'x');
  for (int id = 2; id < 2 + kCalls; ++id) {
    requests += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + long_name + "\"}}\n";
  }
  EXPECT_FALSE(gateway->Write(requests, In(15s))) << "the gateway read every request";
#ifndef BRAVEBOT_ADDRESS_SANITIZER
  // Under AddressSanitizer the quarantine keeps what was freed resident
  // (resident_memory.h): the bound is checked by the other builds.
  const long peak_mib = PeakResidentKib(gateway->pid()) / 1024;
  EXPECT_LT(peak_mib, 64 + 48) << "the gateway held " << peak_mib << " MiB";
#endif
  // What it wrote is whole lines.
  std::vector<std::string> lines = gateway->ReadLines(100, In(10s));
  ASSERT_EQ(lines.size(), 100u);
  for (const std::string& line : lines) {
    EXPECT_FALSE(Json::parse(line, nullptr, false).is_discarded()) << line.substr(0, 200);
  }
  ::kill(gateway->pid(), SIGTERM);
  EXPECT_EQ(gateway->Wait(In(30s)), 128 + SIGTERM);
}

TEST_F(GatewayWireTest, RootsThatChangeBeforeTheSessionOpensEndNothing) {
  Request({});
  auto gateway = StartGateway();
  ASSERT_TRUE(gateway->Write(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      "\"2025-06-18\",\"capabilities\":{\"roots\":{}},\"clientInfo\":{\"name\":\"wire\","
      "\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/"
      "list_changed\"}\n",
      In(5s)));
  EXPECT_EQ(gateway->ReadLines(1, In(10s)).size(), 1u);
  gateway->CloseInput();
  EXPECT_EQ(gateway->Wait(In(20s)), 0);
}

TEST_F(GatewayWireTest, SigtermWhileCallsPourInEndsItAsTheSignalDoes) {
  Request({});
  for (int round = 0; round < 3; ++round) {
    auto gateway = StartGateway();
    ASSERT_TRUE(gateway->Write(kInitialize, In(5s)));
    std::string calls;
    for (int id = 2; id < 3000; ++id) {
      calls += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
               ",\"method\":\"tools/call\",\"params\":{\"name\":\"nothing__here\"}}\n";
    }
    gateway->Write(calls, In(2s));
    ::kill(gateway->pid(), SIGTERM);
    // As SIGTERM ends a program: never a crash (139, 134) or a hang.
    EXPECT_EQ(gateway->Wait(In(30s)), 128 + SIGTERM) << "round " << round;
  }
}

TEST_F(GatewayWireTest, TheProtocolVersionIsTheClientsWhereItIsOneWeSpeak) {
  Request({});
  for (const auto& [asked, answered] :
       std::vector<std::pair<std::string, std::string>>{{"2024-11-05", "2024-11-05"},
                                                        {"2025-11-25", "2025-11-25"},
                                                        {"1999-01-01", "2025-11-25"}}) {
    auto gateway = StartGateway();
    ASSERT_TRUE(gateway->Write(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"" +
            asked + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"w\",\"version\":\"1\"}}}\n",
        In(5s)));
    std::vector<std::string> lines = gateway->ReadLines(1, In(10s));
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(Json::parse(lines[0])["result"]["protocolVersion"], answered) << asked;
    gateway->CloseInput();
    EXPECT_EQ(gateway->Wait(In(20s)), 0);
  }
}

TEST_F(GatewayWireTest, AMessageOfTheWrongShapeIsRefusedAndNothingElseIsLost) {
  Request({});
  auto gateway = StartGateway();
  ASSERT_TRUE(
      gateway->Write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":[]}\n"
                     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{"
                     "\"protocolVersion\":5}}\n"
                     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n",
                     In(5s)));
  std::vector<std::string> lines = gateway->ReadLines(3, In(10s));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(Json::parse(lines[0])["error"]["code"], -32602) << lines[0];
  EXPECT_EQ(Json::parse(lines[1])["error"]["code"], -32602) << lines[1];
  EXPECT_EQ(Json::parse(lines[2])["result"], Json::object()) << lines[2];
  gateway->CloseInput();
  EXPECT_EQ(gateway->Wait(In(20s)), 0);
}

}  // namespace
}  // namespace bravebot::testing
