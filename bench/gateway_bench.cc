// What `bravebot-mcp gateway` costs an MCP client, against the same client
// speaking to the same server started directly, in the same run:
//
// - a 1 KiB tools/call and its answer, one at a time, to bench/tiny_mcp_server
//   behind the gateway, against the same call to tiny_mcp_server started by
//   the client itself (bench/run.sh prints the median added latency);
// - the whole process as a client opening it: start, initialize, the first
//   complete tools/list, close; five tiny servers behind one gateway, each
//   waiting before it reads as a server that loads does (0.2 s to 1 s),
//   against the slowest of them (1 s) behind a gateway alone and started
//   directly by the client.
//
// The gateway is the real one, started as a client starts it, in a checkout
// whose .bravebot/settings.json asks for servers declared with
// `bravebot-mcp add` in a throw-away BRAVEBOT_HOME, and with
// --dangerously-skip-permissions: nothing is approved, so every question
// (each server, its list, each call) is answered yes unasked. Its servers
// are confined by its supervisor as a session's are. The client declares
// no capabilities.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/tiny_checkout.h"

namespace bravebot {
namespace {

// Each of the five servers' waits, in milliseconds; the slowest last.
const std::vector<int> kStartDelays = {200, 400, 600, 800, 1000};

std::vector<std::string> GatewayCommand() {
  return {kBravebotMcp, "gateway", "--dangerously-skip-permissions"};
}

// The client's handshake: initialize, notifications/initialized, tools/list.
// Whether the list came, holding every one of `tools`.
bool Handshake(Child& server, const std::vector<std::string>& tools) {
  server.Write(Request(1, "initialize",
                       {{"protocolVersion", "2025-11-25"},
                        {"capabilities", Json::object()},
                        {"clientInfo", {{"name", "bravebot-bench"}, {"version", "1"}}}}));
  if (!server.AnswerTo(1).contains("result")) return false;
  server.Write(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump());
  server.Write(Request(2, "tools/list", Json::object()));
  const Json listed = server.AnswerTo(2);
  if (!listed.contains("result") || !listed["result"].contains("tools")) return false;
  for (const std::string& tool : tools) {
    bool found = false;
    for (const Json& offered : listed["result"]["tools"])
      found |= offered.value("name", "") == tool;
    if (!found) return false;
  }
  return true;
}

// One call at a time to `tool` of what `argv` starts, once it listed it;
// the processor time a call costs the process started is the counter
// `cpu_name` (the gateway's own, not its supervisor's or server's).
void CallsTo(benchmark::State& state, const std::vector<std::string>& argv,
             const std::vector<std::string>& env, const std::string& directory,
             const std::string& tool, const std::string& cpu_name) {
  Child server(argv, env, directory);
  if (!Handshake(server, {tool})) {
    state.SkipWithError("the tool was not listed");
    return;
  }
  Json call = CallParams();
  call["name"] = tool;
  Calls(state, server, RequestLine("tools/call", call), 1, server.pid(), cpu_name);
}

void BM_GatewayCall(benchmark::State& state) {
  Setting setting("gateway-call", {0});
  CallsTo(state, GatewayCommand(), setting.Environment(), setting.checkout(), "tiny0__noop",
          "gateway_cpu_us_per_call");
}

void BM_GatewayCallDirect(benchmark::State& state) {
  Setting setting("gateway-call-direct", {});
  CallsTo(state, {kTinyServer}, setting.Environment(), setting.checkout(), "noop",
          "server_cpu_us_per_call");
}

// Start, handshake up to the whole tools/list, close, each iteration.
void FirstLists(benchmark::State& state, const std::vector<std::string>& argv,
                const std::vector<std::string>& env, const std::string& directory,
                const std::vector<std::string>& tools) {
  for (auto _ : state) {
    Child server(argv, env, directory);
    if (!Handshake(server, tools)) {
      state.SkipWithError("the tools were not all listed");
      return;
    }
  }  // ~Child: the input closed, SIGTERM, waited for
}

// range(0) servers behind one gateway: the five, or the slowest alone.
void BM_GatewayFirstList(benchmark::State& state) {
  const std::vector<int> delays(kStartDelays.end() - state.range(0), kStartDelays.end());
  Setting setting("gateway-first-list", delays);
  std::vector<std::string> tools;
  for (std::size_t i = 0; i < delays.size(); ++i)
    tools.push_back("tiny" + std::to_string(i) + "__noop");
  FirstLists(state, GatewayCommand(), setting.Environment(), setting.checkout(), tools);
}

// The slowest of the five started by the client itself.
void BM_GatewayFirstListDirect(benchmark::State& state) {
  Setting setting("gateway-first-list-direct", {});
  FirstLists(state, {kTinyServer, "tiny", std::to_string(kStartDelays.back())},
             setting.Environment(), setting.checkout(), {"noop"});
}

BENCHMARK(BM_GatewayCall)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_GatewayCallDirect)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_GatewayFirstList)
    ->Arg(5)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_GatewayFirstListDirect)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace bravebot
