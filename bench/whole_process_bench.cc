// mcp-run as a person runs it, a whole process (start, handshake, tool list,
// stop), and mcp-run --stdio as a client runs it, against the same tiny
// server started by the plainest client of all (bench/plain_mcp_client.c)
// with no confinement and wrapped by bubblewrap, in the same run.
// bench/run.sh prints the ratios.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bench/bwrap_command.h"
#include "bench/spawn_words.h"

namespace bravebot {
namespace {

const std::string kBin = BRAVEBOT_BIN_DIRECTORY;

// Runs `argv` (an absolute program first) with `env` to its end.
bool RunToEnd(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  std::vector<char*> args = SpawnWords(argv);
  std::vector<char*> envp = SpawnWords(env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void RunEach(benchmark::State& state, const std::vector<std::string>& argv,
             const std::vector<std::string>& env) {
  for (auto _ : state) {
    if (!RunToEnd(argv, env)) {
      state.SkipWithError("the command did not list the server's tools");
      return;
    }
  }
}

const std::vector<std::string> kTiny = {kBin + "/tiny_mcp_server"};

void BM_WholeProcessPlain(benchmark::State& state) {
  std::vector<std::string> argv = {kBin + "/plain_mcp_client"};
  argv.insert(argv.end(), kTiny.begin(), kTiny.end());
  RunEach(state, argv, {"PATH=/usr/bin:/bin"});
}

void BM_WholeProcessBwrap(benchmark::State& state) {
  std::vector<std::string> argv = {kBin + "/plain_mcp_client"};
  const std::vector<std::string> wrapped = BwrapCommand(kTiny, false);
  argv.insert(argv.end(), wrapped.begin(), wrapped.end());
  RunEach(state, argv, {"PATH=/usr/bin:/bin"});
}

// mcp-run with the server given on its command line, as a newcomer tries one:
// nothing declared, only the server's home written, in a profile of its own.
void BM_WholeProcessMcpRun(benchmark::State& state) {
  const std::filesystem::path home =
      std::filesystem::temp_directory_path() / "bravebot-bench-whole-process";
  std::filesystem::create_directories(home);
  std::vector<std::string> argv = {kBin + "/mcp-run", "tiny", "--"};
  argv.insert(argv.end(), kTiny.begin(), kTiny.end());
  RunEach(state, argv,
          {"PATH=/usr/bin:/bin", "HOME=" + home.string(),
           "BRAVEBOT_HOME=" + (home / "profile").string()});
}

// mcp-run --stdio between the plain client and the same server: the bridge's
// start, its relay of the three messages, and the server's end once the
// client closed its input.
void BM_WholeProcessMcpRunStdio(benchmark::State& state) {
  const std::filesystem::path home =
      std::filesystem::temp_directory_path() / "bravebot-bench-whole-process";
  std::filesystem::create_directories(home);
  std::vector<std::string> argv = {kBin + "/plain_mcp_client", kBin + "/mcp-run", "--stdio", "tiny",
                                   "--"};
  argv.insert(argv.end(), kTiny.begin(), kTiny.end());
  RunEach(state, argv,
          {"PATH=/usr/bin:/bin", "HOME=" + home.string(),
           "BRAVEBOT_HOME=" + (home / "profile").string()});
}

BENCHMARK(BM_WholeProcessPlain)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK(BM_WholeProcessBwrap)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK(BM_WholeProcessMcpRun)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK(BM_WholeProcessMcpRunStdio)->Unit(benchmark::kMillisecond)->Iterations(50);

}  // namespace
}  // namespace bravebot
