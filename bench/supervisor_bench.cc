// What the supervisor costs a session, in the same run as its baseline:
//
// - relaying a 1 KiB tool call (tool/call, as a session makes one) to
//   bench/tiny_mcp_server and its answer back,
//   one at a time (latency) and 64 in flight (throughput), against the same
//   calls over a direct pipe to the same server started plainly;
// - opening a session whose settings file asks for 1,000 to 100,000 names;
// - starting 50 servers at once through one supervisor, against starting one;
//   the supervisor's own resident memory with the 50 running is reported as
//   the counter supervisor_rss_kib. Twice: servers that answer at once (what
//   is measured is then the work of 50 starts, on this machine's cores), and
//   servers that each wait a second before they read anything, as one that
//   loads or fetches does (what is measured is then whether the starts
//   overlap).
//
// The supervisor is the real bravebot-supervisor, spoken to through its pipes
// as a session speaks to it; its servers are confined as a session's are.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bench/tiny_checkout.h"

namespace bravebot {
namespace {

const std::string kSupervisor = BRAVEBOT_BIN_DIRECTORY "/bravebot-supervisor";

// A supervisor with a session open in `setting`'s checkout, unasked.
std::unique_ptr<Child> OpenSession(const Setting& setting) {
  auto supervisor =
      std::make_unique<Child>(std::vector<std::string>{kSupervisor}, setting.Environment());
  supervisor->Write(
      Request(1, "session/open", {{"directory", setting.checkout()}, {"skipPermissions", true}}));
  supervisor->AnswerTo(1);
  return supervisor;
}

void BM_DirectCall(benchmark::State& state) {
  Child server({kTinyServer}, {"PATH=/usr/bin:/bin"});
  server.Write(Request(1, "initialize", Json::object()));
  server.AnswerTo(1);
  Calls(state, server, RequestLine("tools/call", CallParams()), static_cast<int>(state.range(0)),
        server.pid(), "server_cpu_us_per_call");
}

void BM_SupervisorCall(benchmark::State& state) {
  Setting setting(1);
  auto supervisor = OpenSession(setting);
  supervisor->Write(Request(2, "server/start", {{"alias", "tiny0"}}));
  if (!supervisor->AnswerTo(2).contains("result")) {
    state.SkipWithError("the supervisor did not start the server");
    return;
  }
  // As a session calls a tool: tool/call, decided (skipPermissions: it
  // runs) and sent as tools/call; its answer is {"state": "ran", "result"}.
  const Json call = CallParams();
  const RequestLine line(
      "tool/call", {{"alias", "tiny0"}, {"tool", call["name"]}, {"arguments", call["arguments"]}});
  Calls(state, *supervisor, line, static_cast<int>(state.range(0)), supervisor->pid(),
        "supervisor_cpu_us_per_call");
}

long ResidentKib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
  }
  return -1;
}

void BM_SupervisorStarts(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  Setting setting(count, static_cast<int>(state.range(1)));
  long rss = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto supervisor = OpenSession(setting);
    state.ResumeTiming();
    for (int i = 0; i < count; ++i) {
      if (!supervisor->Write(
              Request(2 + i, "server/start", {{"alias", "tiny" + std::to_string(i)}}))) {
        return state.SkipWithError("the supervisor took no more requests: it ended");
      }
    }
    for (int i = 0; i < count; ++i) {
      const Json answer = supervisor->AnswerTo(2 + i);
      if (answer.is_null()) return state.SkipWithError("the supervisor ended before it answered");
      if (!answer.contains("result")) return state.SkipWithError("a start failed");
    }
    state.PauseTiming();
    rss = ResidentKib(supervisor->pid());
    supervisor->Write(Request(1000, "session/close", Json::object()));
    supervisor->AnswerTo(1000);
    state.ResumeTiming();
  }
  state.counters["supervisor_rss_kib"] = static_cast<double>(rss);
}

// session/open in a checkout whose settings file asks for `range(0)` aliases,
// none of them declared: what reading and checking a settings file costs the
// session, which must grow with its length and no faster (docs/performance.md,
// "Many requested names"). Past 4096 the list is refused whole. The
// supervisor's start is not timed.
void BM_SessionOpenWithRequestedNames(benchmark::State& state) {
  const int names = static_cast<int>(state.range(0));
  const std::string root =
      std::filesystem::temp_directory_path() /
      ("bravebot-bench-requested-" + std::to_string(::getpid()) + "-" + std::to_string(names));
  std::filesystem::create_directories(root + "/home");
  std::filesystem::create_directories(root + "/checkout/.bravebot");
  Json aliases = Json::array();
  for (int i = 0; i < names; ++i) aliases.push_back("server-" + std::to_string(i));
  const std::string text = Json{{"mcp", {{"request", aliases}}}}.dump();
  std::ofstream(root + "/checkout/.bravebot/settings.json") << text;
  const std::vector<std::string> environment = {"BRAVEBOT_HOME=" + root + "/profile",
                                                "HOME=" + root + "/home", "PATH=/usr/bin:/bin"};
  long peak = 0;
  for (auto _ : state) {
    state.PauseTiming();
    {
      Child supervisor({kSupervisor}, environment);
      state.ResumeTiming();
      supervisor.Write(Request(1, "session/open", {{"directory", root + "/checkout"}}));
      const Json opened = supervisor.AnswerTo(1);
      state.PauseTiming();
      // A list longer than mcp.json can declare servers (4096) is refused
      // whole, and asks for none.
      const std::size_t asked = names <= 4096 ? aliases.size() : 0;
      if (!opened.contains("result") || opened["result"]["servers"].size() != asked) {
        state.SkipWithError("session/open did not answer as it should");
      }
      std::ifstream status("/proc/" + std::to_string(supervisor.pid()) + "/status");
      for (std::string line; std::getline(status, line);) {
        if (line.starts_with("VmHWM:")) peak = std::stol(line.substr(6));
      }
    }
    state.ResumeTiming();
  }
  state.counters["settings_file_bytes"] = static_cast<double>(text.size());
  state.counters["supervisor_peak_rss_kib"] = static_cast<double>(peak);
  std::filesystem::remove_all(root);
}

// Timed by the clock, not the client's processor time: what is compared is
// how long the calls take, and items_per_second is then calls a second.
BENCHMARK(BM_DirectCall)->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_SupervisorCall)->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_SupervisorStarts)
    ->Args({1, 0})
    ->Args({50, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK(BM_SupervisorStarts)
    ->Args({1, 1000})
    ->Args({50, 1000})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_SessionOpenWithRequestedNames)
    ->Arg(1000)
    ->Arg(4096)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace bravebot
