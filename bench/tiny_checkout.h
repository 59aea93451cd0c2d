// What the benchmarks that start bench/tiny_mcp_server through bravebot share:
// a throw-away profile with tiny servers declared and a checkout that asks
// for them, the 1 KiB call they make, and the loop that times it.
#ifndef BRAVEBOT_BENCH_TINY_CHECKOUT_H_
#define BRAVEBOT_BENCH_TINY_CHECKOUT_H_

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "bench/mcp_child.h"

namespace bravebot {

inline const std::string kTinyServer = BRAVEBOT_BIN_DIRECTORY "/tiny_mcp_server";
inline const std::string kBravebotMcp = BRAVEBOT_BIN_DIRECTORY "/bravebot-mcp";

// The processor time `pid` has used so far, in microseconds, as /proc
// counts it (in ticks of 10 ms: read over a whole benchmark, not a call).
inline double ProcessorMicroseconds(pid_t pid) {
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

// The call every call benchmark makes: the tiny server's one tool, 1 KiB of arguments.
inline Json CallParams() {
  return {{"name", "noop"}, {"arguments", {{"text", std::string(1000, 'x')}}}};
}

// A profile directory with tiny servers declared (`bravebot-mcp add`), the
// i-th as tinyI waiting `delays_ms[i]` before it reads anything (none where
// 0), and a checkout whose .bravebot/settings.json asks for them all.
// `name` keeps the directories of benchmarks apart.
class Setting {
 public:
  Setting(const std::string& name, const std::vector<int>& delays_ms) {
    root_ = std::filesystem::temp_directory_path() /
            ("bravebot-bench-" + name + "-" + std::to_string(::getpid()) + "-" +
             std::to_string(delays_ms.size()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/home");
    std::filesystem::create_directories(root_ + "/checkout/.bravebot");
    Json aliases = Json::array();
    for (std::size_t i = 0; i < delays_ms.size(); ++i) {
      const std::string alias = "tiny" + std::to_string(i);
      // A word of its own, so each is a declaration, and a home, of its own.
      std::vector<std::string> add_words = {kBravebotMcp, "add", alias, "--", kTinyServer, alias};
      if (delays_ms[i] > 0) add_words.push_back(std::to_string(delays_ms[i]));
      Child add(add_words, Environment());
      add.ReadLine();
      aliases.push_back(alias);
    }
    std::ofstream(root_ + "/checkout/.bravebot/settings.json")
        << Json{{"mcp", {{"request", aliases}}}}.dump();
  }
  // `count` servers, each waiting `delay_ms`.
  explicit Setting(int count, int delay_ms = 0)
      : Setting("supervisor", std::vector<int>(static_cast<std::size_t>(count), delay_ms)) {}
  ~Setting() { std::filesystem::remove_all(root_); }

  std::vector<std::string> Environment() const {
    return {"BRAVEBOT_HOME=" + root_ + "/profile", "HOME=" + root_ + "/home", "PATH=/usr/bin:/bin"};
  }
  std::string checkout() const { return root_ + "/checkout"; }

 private:
  std::string root_;
};

// Each iteration writes `in_flight` calls with `line`, then reads their
// answers. `pid` is the process whose processor time a call is reported
// in, as the counter `cpu_name`.
inline void Calls(benchmark::State& state, Child& channel, const RequestLine& line, int in_flight,
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

}  // namespace bravebot

#endif  // BRAVEBOT_BENCH_TINY_CHECKOUT_H_
