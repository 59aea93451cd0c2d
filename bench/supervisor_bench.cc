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
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/unique_fd.h"
#include "bench/spawn_words.h"

namespace bravebot {
namespace {

using Json = nlohmann::json;

const std::string kTinyServer = BRAVEBOT_BIN_DIRECTORY "/tiny_mcp_server";
const std::string kSupervisor = BRAVEBOT_BIN_DIRECTORY "/bravebot-supervisor";
const std::string kBravebotMcp = BRAVEBOT_BIN_DIRECTORY "/bravebot-mcp";

// A child with its standard input and output on pipes, read a line at a time.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
    UniqueFd child_in(in[0]), child_out(out[1]);
    input_.reset(in[1]);
    output_.reset(out[0]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child_in.get(), 0);
    posix_spawn_file_actions_adddup2(&actions, child_out.get(), 1);
    std::vector<char*> args = SpawnWords(argv);
    std::vector<char*> envp = SpawnWords(env);
    posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Child() {
    input_.reset();
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }

  bool Write(std::string whole) {
    whole.push_back('\n');
    for (std::size_t at = 0; at < whole.size();) {
      const ssize_t put = ::write(input_.get(), whole.data() + at, whole.size() - at);
      if (put <= 0) return false;
      at += static_cast<std::size_t>(put);
    }
    return true;
  }
  // The next line, "" once the child's output ended. What is handed out
  // is dropped from the buffer only once it is most of it, so a long
  // exchange neither grows the buffer nor moves it on every line.
  std::string_view ReadLine() {
    if (read_ > buffer_.size() / 2) {
      buffer_.erase(0, read_);
      read_ = 0;
    }
    for (std::size_t scanned = read_;;) {
      if (const std::size_t newline = buffer_.find('\n', scanned); newline != std::string::npos) {
        const std::string_view line(buffer_.data() + read_, newline - read_);
        read_ = newline + 1;
        return line;
      }
      scanned = buffer_.size();
      char chunk[65536];
      const ssize_t got = ::read(output_.get(), chunk, sizeof(chunk));
      if (got <= 0) return "";
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }
  // The answer to request `id`, passing over notifications, and keeping
  // the answers to other requests for later: they come in any order.
  Json AnswerTo(int id) {
    for (;;) {
      if (auto kept = answers_.find(id); kept != answers_.end()) {
        Json answer = std::move(kept->second);
        answers_.erase(kept);
        return answer;
      }
      const std::string_view line = ReadLine();
      if (line.empty()) return Json();
      Json message = Json::parse(line, nullptr, false);
      if (message.is_object() && message.contains("id") && message["id"].is_number_integer()) {
        const int answered = message["id"].get<int>();
        answers_[answered] = std::move(message);
      }
    }
  }
  // Whether request `id` was answered with a result, as AnswerTo reads it
  // but, for the answers measured, without a document: the tiny server and
  // the supervisor both begin an answer with {"jsonrpc":"2.0","id":N, and
  // on two cores the client's own work competes with what it measures.
  // Any other line with an id is read whole.
  bool ResultCame(int id) {
    static constexpr std::string_view kHead = R"({"jsonrpc":"2.0","id":)";
    static constexpr std::string_view kResult = R"(,"result":)";
    for (;;) {
      if (auto kept = results_.find(id); kept != results_.end()) {
        const bool result = kept->second;
        results_.erase(kept);
        return result;
      }
      const std::string_view line = ReadLine();
      if (line.empty()) return false;
      int answered = 0;
      const char* end = line.data() + line.size();
      const auto read = line.starts_with(kHead)
                            ? std::from_chars(line.data() + kHead.size(), end, answered)
                            : std::from_chars_result{nullptr, std::errc::invalid_argument};
      if (read.ec == std::errc() && read.ptr != end && (*read.ptr == ',' || *read.ptr == '}')) {
        results_[answered] = std::string_view(read.ptr, end - read.ptr).starts_with(kResult);
        continue;
      }
      Json message = Json::parse(line, nullptr, false);
      if (message.is_object() && message.contains("id") && message["id"].is_number_integer()) {
        results_[message["id"].get<int>()] = message.contains("result");
      }
    }
  }

 private:
  pid_t pid_ = -1;
  UniqueFd input_;
  UniqueFd output_;
  std::string buffer_;
  std::size_t read_ = 0;  // buffer_ up to here is handed out
  std::map<int, Json> answers_;
  std::map<int, bool> results_;
};

// A request's line built once, each call's id put in front, so that the
// client's own work stays small (see Child::ResultCame).
class RequestLine {
 public:
  RequestLine(const std::string& method, const Json& params)
      : rest_(Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump().substr(1)) {}
  std::string For(int id) const { return R"({"id":)" + std::to_string(id) + "," + rest_; }

 private:
  std::string rest_;  // the line without its '{'
};

std::string Request(int id, const std::string& method, const Json& params) {
  return RequestLine(method, params).For(id);
}

// The processor time `pid` has used so far, in microseconds, as /proc
// counts it (in ticks of 10 ms: read over a whole benchmark, not a call).
double ProcessorMicroseconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // Fields after the command's closing parenthesis: utime is the 12th, stime the 13th.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 1; i <= 13 && fields >> field; ++i) {
    if (i >= 12) ticks += std::stod(field);
  }
  return ticks * 1e6 / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

Json CallParams() { return {{"name", "noop"}, {"arguments", {{"text", std::string(1000, 'x')}}}}; }

// A profile directory with `count` tiny servers declared, each waiting
// `delay_ms` before it reads, and a checkout that asks for them all.
class Setting {
 public:
  explicit Setting(int count, int delay_ms = 0) {
    root_ =
        std::filesystem::temp_directory_path() /
        ("bravebot-bench-supervisor-" + std::to_string(::getpid()) + "-" + std::to_string(count));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/home");
    std::filesystem::create_directories(root_ + "/checkout/.bravebot");
    Json aliases = Json::array();
    for (int i = 0; i < count; ++i) {
      const std::string alias = "tiny" + std::to_string(i);
      // A word of its own, so each is a declaration, and a home, of its own.
      std::vector<std::string> add_words = {kBravebotMcp, "add", alias, "--", kTinyServer, alias};
      if (delay_ms > 0) add_words.push_back(std::to_string(delay_ms));
      Child add(add_words, Environment());
      add.ReadLine();
      aliases.push_back(alias);
    }
    std::ofstream(root_ + "/checkout/.bravebot/settings.json")
        << Json{{"mcp", {{"request", aliases}}}}.dump();
  }
  ~Setting() { std::filesystem::remove_all(root_); }

  std::vector<std::string> Environment() const {
    return {"BRAVEBOT_HOME=" + root_ + "/profile", "HOME=" + root_ + "/home", "PATH=/usr/bin:/bin"};
  }
  std::string checkout() const { return root_ + "/checkout"; }

 private:
  std::string root_;
};

// A supervisor with a session open in `setting`'s checkout, unasked.
std::unique_ptr<Child> OpenSession(const Setting& setting) {
  auto supervisor =
      std::make_unique<Child>(std::vector<std::string>{kSupervisor}, setting.Environment());
  supervisor->Write(
      Request(1, "session/open", {{"directory", setting.checkout()}, {"skipPermissions", true}}));
  supervisor->AnswerTo(1);
  return supervisor;
}

// Each iteration writes `in_flight` calls with `line`, then reads their
// answers. `pid` is the process whose processor time a call is reported
// in, as the counter `cpu_name`.
void Calls(benchmark::State& state, Child& channel, const RequestLine& line, int in_flight,
           pid_t pid, const std::string& cpu_name) {
  int id = 3;
  const double cpu_before = ProcessorMicroseconds(pid);
  for (auto _ : state) {
    for (int i = 0; i < in_flight; ++i) channel.Write(line.For(id + i));
    for (int i = 0; i < in_flight; ++i) {
      if (!channel.ResultCame(id + i)) state.SkipWithError("no answer");
    }
    id += in_flight;
  }
  const double calls = static_cast<double>(state.iterations() * in_flight);
  state.counters[cpu_name] = (ProcessorMicroseconds(pid) - cpu_before) / calls;
  state.SetItemsProcessed(state.iterations() * in_flight);
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
      supervisor->Write(Request(2 + i, "server/start", {{"alias", "tiny" + std::to_string(i)}}));
    }
    for (int i = 0; i < count; ++i) {
      if (!supervisor->AnswerTo(2 + i).contains("result")) state.SkipWithError("a start failed");
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
