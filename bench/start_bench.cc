// What confinement costs at start: the same server started plainly, confined
// by bravebot-mcp, and confined by bubblewrap with comparable options, each
// through the MCP handshake and its tool list, in the same run. bench/run.sh
// prints the ratios against the plain start.
//
// Servers: bench/tiny_mcp_server (start-up cost alone) and, when installed by
// scripts/install-peers.sh, server-everything (a real server).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "base/unique_fd.h"
#include "bench/bwrap_command.h"
#include "bench/spawn_words.h"
#include "confine/filesystem.h"
#include "supervisor/mcp/json_rpc_lines.h"
#include "supervisor/mcp/mcp_startup.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {
namespace {

struct Server {
  std::string name;
  std::vector<std::string> argv;  // absolute program first
  std::string path;               // the PATH it is given
};

std::vector<Server> Servers() {
  std::vector<Server> servers = {
      {"tiny", {BRAVEBOT_BIN_DIRECTORY "/tiny_mcp_server"}, "/usr/bin:/bin"}};
  const std::string peers = BRAVEBOT_PEERS_DIRECTORY;
  if (std::filesystem::exists(peers + "/bin/mcp-server-everything")) {
    servers.push_back(
        {"everything",
         {"/usr/bin/node", peers + "/lib/node_modules/@modelcontextprotocol/server-everything/dist/"
                                   "index.js"},
         peers + "/bin:/usr/bin:/bin"});
  }
  return servers;
}

// The handshake and the tool list over the two pipes, as a session would,
// by the same sans-I/O start the supervisor drives from its loop.
void Handshake(benchmark::State& state, int to_server, int from_server) {
  const Deadline deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  McpConnection connection;
  McpStartup startup(connection, 0);
  LineReader reader(from_server);
  if (!WriteLine(to_server, startup.Begin(), deadline)) {
    return state.SkipWithError("the server does not read its input");
  }
  for (;;) {
    Result<LineRead> read = reader.ReadLine(deadline);
    if (!read || read->status != LineStatus::kLine) {
      return state.SkipWithError("the server did not answer");
    }
    auto taken = connection.Take(read->line);
    if (std::holds_alternative<McpFault>(taken)) return state.SkipWithError("not MCP");
    for (McpIncoming& incoming : std::get<0>(taken)) {
      if (incoming.kind != McpIncoming::Kind::kAnswer) continue;
      McpStartup::Step step = startup.Take(std::move(incoming));
      if (step.fault) return state.SkipWithError(step.fault->message.c_str());
      for (const std::string& line : step.lines) {
        if (!WriteLine(to_server, line, deadline)) {
          return state.SkipWithError("the server does not read its input");
        }
      }
      if (step.done) return;
    }
  }
}

// Starts `argv` with plain pipes, no confinement, and returns its pid.
pid_t SpawnPlain(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                 int stdin_fd, int stdout_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
  posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  // What a server says as it starts would fill the benchmark's own report.
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args = SpawnWords(argv);
  std::vector<char*> envp = SpawnWords(env);
  pid_t pid = -1;
  posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

void RunUnconfined(benchmark::State& state, const std::vector<std::string>& argv,
                   const std::string& path) {
  const std::string home = std::filesystem::temp_directory_path() / "bravebot-bench-home";
  std::filesystem::create_directories(home);
  for (auto _ : state) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
      state.SkipWithError("pipe");
      return;
    }
    UniqueFd to_server(in[1]), from_server(out[0]), child_in(in[0]), child_out(out[1]);
    pid_t pid = SpawnPlain(argv, {"PATH=" + path, "HOME=" + home}, child_in.get(), child_out.get());
    child_in.reset();
    child_out.reset();
    Handshake(state, to_server.get(), from_server.get());
    // Stopping is the same for every way of starting; it is not timed.
    state.PauseTiming();
    to_server.reset();
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
    state.ResumeTiming();
  }
}

void BM_PlainStart(benchmark::State& state, const Server& server) {
  RunUnconfined(state, server.argv, server.path);
}

void BM_BwrapStart(benchmark::State& state, const Server& server) {
  RunUnconfined(state, BwrapCommand(server.argv, server.name == "everything"), server.path);
}

// `hide_socket_places` false: the start without the mounts that keep the
// socket promise below Landlock ABI 9, to measure what they cost.
void ConfinedStart(benchmark::State& state, const Server& server, bool hide_socket_places) {
  const std::string profile_path =
      std::filesystem::temp_directory_path() / "bravebot-bench-profile";
  auto profile = ProfileDirectory::Open(profile_path, Create::kYes);
  if (!profile) {
    state.SkipWithError("profile directory");
    return;
  }
  Declaration declaration;
  declaration.alias = server.name;
  declaration.program = server.argv[0];
  declaration.arguments.assign(server.argv.begin() + 1, server.argv.end());
  declaration.stored_variables = {{"PATH", server.path}};
  RealFileSystem fs;
  ServerStartOptions options;
  options.profile = &*profile;
  const char* home = ::getenv("HOME");
  options.user_home = home != nullptr ? home : "";
  options.getenv = ::getenv;
  options.fs = &fs;
  options.layers.hide_socket_places = hide_socket_places;
  for (auto _ : state) {
    auto started = ConfinedServer::Start(declaration, options);
    if (!started) {
      state.SkipWithError(started.error().message().c_str());
      return;
    }
    Handshake(state, started->stdin_fd(), started->stdout_fd());
    // Stopping is not timed: it is killed as it goes.
    state.PauseTiming();
    { ConfinedServer done = std::move(*started); }
    state.ResumeTiming();
  }
}

void BM_ConfinedStart(benchmark::State& state, const Server& server) {
  ConfinedStart(state, server, true);
}

void BM_ConfinedStartShowingSocketPlaces(benchmark::State& state, const Server& server) {
  ConfinedStart(state, server, false);
}

void RegisterAll() {
  for (const Server& server : Servers()) {
    // A fixed count: a real server takes a third of a second to start.
    const int iterations = server.name == "tiny" ? 50 : 10;
    benchmark::RegisterBenchmark(("BM_PlainStart/" + server.name).c_str(), BM_PlainStart, server)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(iterations);
    benchmark::RegisterBenchmark(("BM_ConfinedStart/" + server.name).c_str(), BM_ConfinedStart,
                                 server)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(iterations);
    benchmark::RegisterBenchmark(("BM_ConfinedStartShowingSocketPlaces/" + server.name).c_str(),
                                 BM_ConfinedStartShowingSocketPlaces, server)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(iterations);
    if (std::filesystem::exists("/usr/bin/bwrap")) {
      benchmark::RegisterBenchmark(("BM_BwrapStart/" + server.name).c_str(), BM_BwrapStart, server)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(iterations);
    }
  }
}

const bool registered = (RegisterAll(), true);

}  // namespace
}  // namespace bravebot
