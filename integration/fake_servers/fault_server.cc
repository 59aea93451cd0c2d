// An MCP server that fails in one chosen way, for the tests of the supervisor:
//   fault_server MODE [ARG]
// Unless its mode says otherwise it serves normally: it answers initialize,
// tools/list with one tool, echo, tools/call of echo with the text it is
// given (of another tool with error -32602), ping with {}, and any other
// request with error -32601; it ignores notifications and the client's
// answers, and exits 0 when its input ends (1 once its output is closed, if
// SIGPIPE has not killed it first). ARG, where a mode takes one, is a whole
// number, its default in parentheses below; one that is not fails as an
// unknown mode does. Other modes ignore it. The modes:
//   crash-at-start          writes "cannot find config" and "giving up" to
//                           stderr and exits 3, before reading anything
//   crash-mid-call          at the first tools/call writes "segfault in
//                           handler" to stderr and exits 7 without answering
//   never-answers           reads its input until it ends, writes nothing,
//                           then exits 0
//   slow-start [MS]         sleeps MS ms (1500) before reading anything
//   silent-then-banner [MS] writes "still fetching packages..." to stderr,
//                           sleeps MS ms (60000) without reading or
//                           answering, then exits 0
//   flood                   at its first tools/call (never answered), writes
//                           notifications/message "flood 1", "flood 2", ...
//                           as fast as its output takes them, and reads no more
//   huge-line [MIB]         answers the first tools/call with one line whose
//                           text is MIB MiB (20) of 'a'; later calls normally
//   huge-list [MIB]         answers tools/list with 64 tools whose
//                           descriptions come to MIB MiB (9) of 'a' in all
//   not-json                at each tools/call writes the line
//                           "this is not JSON", then answers it
//   clashing-ids            at each tools/call asks the client roots/list with
//                           id 1 and ping with id "1", waits for both answers
//                           (serving other requests meanwhile), then answers
//                           with the text "roots:" + the roots/list result as
//                           JSON, or "roots-error:" + its error code
//   elicit-with             at each tools/call asks the client
//                           elicitation/create with the call's argument
//                           "message" as its message, whatever its type (or
//                           with the call's argument "params" as its whole
//                           params, where given), then answers with the text
//                           "elicited:" + the answer's result as JSON, or
//                           "elicit-error:" + its code
//   log-with                at each tools/call writes notifications/message
//                           with the call's arguments "logger" and "data",
//                           then answers with the text "logged"
//   double-fork             first leaves a daemon behind: a grandchild in a
//                           session of its own that writes "daemon <pid>" to
//                           stderr and pauses forever, keeping the inherited
//                           stdin, stdout and stderr open; the server reads
//                           its first message only after that line
//   wide-tree [N]           at the first tools/call makes N entries (400000)
//                           in 40 directories in its TMPDIR, each directory's
//                           links to one empty file, takes every right on
//                           those directories away (mode 0), and answers
//                           with the text TMPDIR; later calls normally
//   exit-after-handshake [STATUS]
//                           after answering the first tools/list writes "bye"
//                           to stderr and exits STATUS (0)
//   stderr-lines [N]        first writes "line 1" ... "line N" (50) to stderr
//   notify-then-echo        at each tools/call writes a notifications/progress
//                           first, then answers
//   close-output            closes its standard output before reading
//                           anything, writes "closed my output" to stderr,
//                           and stays until its input ends
//   close-output-mid-call   at the first tools/call closes its standard
//                           output, and stays until its input ends
//   tell-notifications      writes "notification METHOD" to stderr for each
//                           notification it is sent
//   garbage-reply           answers the first tools/call and the first ping
//                           with a line that is not JSON, its id and then
//                           GARBAGE and a screen-clearing escape where the
//                           result belongs; later ones normally
//   garbage-flood [N]       at the first tools/call writes N lines "x" (100000)
//                           and one batch line of two million 1s, then
//                           answers it; later calls normally
//   hang-until-cancelled    answers neither the first tools/call nor the first
//                           ping, writing "call METHOD ID" to stderr for each;
//                           at a notifications/cancelled writes "cancelled ID
//                           REASON" to stderr, then answers the request it
//                           names all the same (a late answer: "late" for a
//                           call); later ones normally
// Any other mode (or none) writes "unknown mode" to stderr and exits 2.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

namespace {

constexpr char kTools[] =
    R"({"tools":[{"name":"echo","description":"Echoes its text.",)"
    R"("inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]})";

// The result of a tools/call whose answer is `text`.
std::string TextContent(std::string_view text) {
  return R"({"content":[{"type":"text","text":)" + json(text).dump() + "}]}";
}

// Answers `message` as a server that works answers it.
void AnswerNormally(const json& message) {
  if (!message.is_object() || !message.contains("id") || !message.contains("method")) return;
  const json& id = message["id"];
  const std::string method = fake_server::Method(message);
  if (method == "initialize") {
    fake_server::AnswerInitialize(message);
  } else if (method == "tools/list") {
    fake_server::WriteResult(id, kTools);
  } else if (method == "ping") {
    fake_server::WriteResult(id, "{}");
  } else if (method == "tools/call") {
    const json params = message.value("params", json::object());
    const json name = params.is_object() ? params.value("name", json()) : json();
    if (name != "echo") {
      fake_server::WriteError(id, -32602, "Unknown tool: " + name.dump());
      return;
    }
    const json arguments = params.value("arguments", json::object());
    const json text = arguments.is_object() ? arguments.value("text", json()) : json();
    fake_server::WriteResult(id, TextContent(text.is_string() ? text.get<std::string>() : ""));
  } else {
    fake_server::WriteError(id, -32601, "Method not found: " + method);
  }
}

// Serves until input ends, each message shown first to `special`, which
// returns true when it has dealt with the message itself.
int Serve(const std::function<bool(const json&)>& special = nullptr) {
  for (json message = fake_server::ReadMessage(); !message.is_null();
       message = fake_server::ReadMessage()) {
    if (!special || !special(message)) AnswerNormally(message);
    if (!std::cout) return 1;
  }
  return 0;
}

void Sleep(std::int64_t milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

// Writes notifications until the output refuses one, each line written whole
// by hand, as fast as the output takes them.
int Flood() {
  for (std::uint64_t n = 1;; ++n) {
    std::cout << R"({"jsonrpc":"2.0","method":"notifications/message",)"
              << R"("params":{"level":"info","data":"flood )" << n << "\"}}\n"
              << std::flush;
    if (!std::cout) return 1;
  }
}

// Answers `call` with a text of `mebibytes` MiB of 'a', written a MiB at a time.
void WriteHugeLine(const json& id, std::int64_t mebibytes) {
  std::cout << R"({"jsonrpc":"2.0","id":)" << id.dump()
            << R"(,"result":{"content":[{"type":"text","text":")";
  const std::string mebibyte(1 << 20, 'a');
  for (std::int64_t i = 0; i < mebibytes && std::cout; ++i) std::cout << mebibyte;
  std::cout << "\"}]}}\n" << std::flush;
}

// Asks the client elicitation/create with `call`'s argument "message", and
// answers `call` with what came back.
void AnswerWithElicitation(const json& call) {
  const json& arguments = call["params"]["arguments"];
  json params = {{"message", arguments.value("message", json())},
                 {"requestedSchema", {{"type", "object"}, {"properties", json::object()}}}};
  if (arguments.contains("params")) params = arguments["params"];
  json request = {
      {"jsonrpc", "2.0"}, {"id", 7}, {"method", "elicitation/create"}, {"params", params}};
  fake_server::WriteLine(request.dump());
  for (;;) {
    json message = fake_server::ReadMessage();
    if (message.is_null()) std::exit(0);
    if (!fake_server::IsResponse(message)) {
      AnswerNormally(message);
      continue;
    }
    const std::string text = message.contains("result")
                                 ? "elicited:" + message["result"].dump()
                                 : "elicit-error:" + message["error"]["code"].dump();
    fake_server::WriteLine(json{{"jsonrpc", "2.0"},
                                {"id", call["id"]},
                                {"result", {{"content", {{{"type", "text"}, {"text", text}}}}}}}
                               .dump());
    return;
  }
}

// Asks the client its own requests, with ids its own requests likely use, and
// answers `call` with what the answer to roots/list held.
void AnswerWithClashingIds(const json& call) {
  fake_server::WriteLine(R"({"jsonrpc":"2.0","id":1,"method":"roots/list"})");
  fake_server::WriteLine(R"({"jsonrpc":"2.0","id":"1","method":"ping"})");
  json roots;
  bool pinged = false;
  while (roots.is_null() || !pinged) {
    json message = fake_server::ReadMessage();
    if (message.is_null()) std::exit(0);
    if (!fake_server::IsResponse(message)) {
      AnswerNormally(message);
    } else if (message["id"] == json(1) && roots.is_null()) {
      roots = message;
    } else if (message["id"] == json("1")) {
      pinged = true;
    }
  }
  std::string text;
  if (roots.contains("result")) {
    text = "roots:" + roots["result"].dump();
  } else {
    const json error = roots.value("error", json());
    text = "roots-error:" + (error.is_object() ? error.value("code", json()) : json()).dump();
  }
  fake_server::WriteResult(call["id"], TextContent(text));
}

// Leaves a daemon behind, and returns once it has written its pid.
void ForkDaemon() {
  int written[2];
  if (pipe2(written, O_CLOEXEC) != 0) std::exit(1);
  const pid_t child = fork();
  if (child < 0) std::exit(1);
  if (child == 0) {
    close(written[0]);
    setsid();
    if (fork() != 0) _exit(0);
    const std::string line = "daemon " + std::to_string(getpid()) + "\n";
    if (write(STDERR_FILENO, line.data(), line.size()) < 0) _exit(1);
    close(written[1]);
    for (;;) pause();
  }
  close(written[1]);
  waitpid(child, nullptr, 0);
  // The pipe ends once the daemon has closed its end, after writing its pid.
  char byte;
  for (;;) {
    const ssize_t got = read(written[0], &byte, 1);
    if (got == 0 || (got < 0 && errno != EINTR)) break;
  }
  close(written[0]);
}

// Fills `root` with `entries` names spread over 40 directories, then closes
// each directory to its own user: a tree that takes seconds to remove. The
// names of a directory are links to one empty file, which a filesystem makes
// many times faster than files (each an inode of its own) and removes about
// as slowly. False when something could not be made.
bool MakeWideTree(const std::string& root, std::int64_t entries) {
  constexpr int kDirectories = 40;
  for (int d = 0; d < kDirectories; ++d) {
    const std::string directory = root + "/wide-" + std::to_string(d);
    if (mkdir(directory.c_str(), 0700) != 0) return false;
    const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return false;
    const std::int64_t here = entries / kDirectories + (d < entries % kDirectories ? 1 : 0);
    bool made = true;
    if (here > 0) {
      const int file = openat(fd, "0", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      made = file >= 0;
      if (made) close(file);
    }
    for (std::int64_t f = 1; made && f < here; ++f) {
      made = linkat(fd, "0", fd, std::to_string(f).c_str(), 0) == 0;
    }
    close(fd);
    if (!made || chmod(directory.c_str(), 0) != 0) return false;
  }
  return true;
}

void WriteStderr(std::string_view line) { std::cerr << line << "\n" << std::flush; }

// ARG as a whole number, `fallback` when it is absent; nullopt when it is not
// a whole number of at least 0.
std::optional<std::int64_t> Argument(int argc, char** argv, std::int64_t fallback) {
  if (argc < 3) return fallback;
  const std::string_view text = argv[2];
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

int UnknownMode() {
  WriteStderr("unknown mode");
  return 2;
}

// The line garbage-reply answers request `id` with: it begins as an answer
// and is no JSON.
void WriteGarbage(const json& id) {
  fake_server::WriteLine(R"({"jsonrpc":"2.0","id":)" + id.dump() + R"(,"result":GARBAGE)" +
                         "\x1b[2J");
}

// Holds the first tools/call and the first ping until they are cancelled,
// then answers them late.
int HangUntilCancelled() {
  std::map<std::string, json> held;  // by the id's JSON text
  std::set<std::string> hung;        // the methods whose first request was held
  return Serve([&](const json& message) {
    const std::string method = fake_server::Method(message);
    if ((method == "tools/call" || method == "ping") && message.contains("id") &&
        hung.insert(method).second) {
      WriteStderr("call " + method + " " + message["id"].dump());
      held[message["id"].dump()] = message;
      return true;
    }
    if (!fake_server::IsNotification(message, "notifications/cancelled")) return false;
    const json params = message.value("params", json::object());
    const json id = params.is_object() ? params.value("requestId", json()) : json();
    const json reason = params.is_object() ? params.value("reason", json()) : json();
    WriteStderr("cancelled " + id.dump() + " " +
                (reason.is_string() ? reason.get<std::string>() : reason.dump()));
    auto request = held.find(id.dump());
    if (request == held.end()) return true;
    if (fake_server::Method(request->second) == "ping") {
      fake_server::WriteResult(id, "{}");
    } else {
      fake_server::WriteResult(id, TextContent("late"));
    }
    held.erase(request);
    return true;
  });
}

// Reads its input until it ends, answering nothing; 0.
int ReadUntilTheEnd() {
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(STDIN_FILENO, buffer, sizeof buffer);
    if (got == 0 || (got < 0 && errno != EINTR)) return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "crash-at-start") {
    WriteStderr("cannot find config");
    WriteStderr("giving up");
    return 3;
  }
  if (mode == "crash-mid-call") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      WriteStderr("segfault in handler");
      std::exit(7);
    });
  }
  if (mode == "never-answers") return ReadUntilTheEnd();
  if (mode == "slow-start") {
    const std::optional<std::int64_t> milliseconds = Argument(argc, argv, 1500);
    if (!milliseconds) return UnknownMode();
    Sleep(*milliseconds);
    return Serve();
  }
  if (mode == "silent-then-banner") {
    const std::optional<std::int64_t> milliseconds = Argument(argc, argv, 60000);
    if (!milliseconds) return UnknownMode();
    WriteStderr("still fetching packages...");
    Sleep(*milliseconds);
    return 0;
  }
  if (mode == "flood") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      std::exit(Flood());
    });
  }
  if (mode == "huge-line") {
    const std::optional<std::int64_t> mebibytes = Argument(argc, argv, 20);
    if (!mebibytes) return UnknownMode();
    bool written = false;
    return Serve([&](const json& message) {
      if (written || !fake_server::IsRequest(message, "tools/call")) return false;
      WriteHugeLine(message["id"], *mebibytes);
      written = true;
      return true;
    });
  }
  if (mode == "huge-list") {
    const std::optional<std::int64_t> mebibytes = Argument(argc, argv, 9);
    if (!mebibytes) return UnknownMode();
    return Serve([&](const json& message) {
      if (!fake_server::IsRequest(message, "tools/list")) return false;
      json tools = json::array();
      const std::string description(static_cast<std::size_t>(*mebibytes << 20) / 64, 'a');
      for (int i = 0; i < 64; ++i) {
        tools.push_back({{"name", "tool" + std::to_string(i)},
                         {"description", description},
                         {"inputSchema", {{"type", "object"}}}});
      }
      fake_server::WriteResult(message["id"], json{{"tools", tools}}.dump());
      return true;
    });
  }
  if (mode == "not-json") {
    return Serve([](const json& message) {
      if (fake_server::IsRequest(message, "tools/call")) fake_server::WriteLine("this is not JSON");
      return false;
    });
  }
  if (mode == "clashing-ids") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      AnswerWithClashingIds(message);
      return true;
    });
  }
  if (mode == "elicit-with") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      AnswerWithElicitation(message);
      return true;
    });
  }
  if (mode == "log-with") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      const json& arguments = message["params"]["arguments"];
      fake_server::WriteLine(json{{"jsonrpc", "2.0"},
                                  {"method", "notifications/message"},
                                  {"params",
                                   {{"level", "info"},
                                    {"logger", arguments.value("logger", "")},
                                    {"data", arguments.value("data", json())}}}}
                                 .dump());
      fake_server::WriteResult(message["id"], TextContent("logged"));
      return true;
    });
  }
  if (mode == "double-fork") {
    ForkDaemon();
    return Serve();
  }
  if (mode == "wide-tree") {
    const std::optional<std::int64_t> files = Argument(argc, argv, 400000);
    const char* root = std::getenv("TMPDIR");
    if (!files || root == nullptr) return UnknownMode();
    bool made = false;
    return Serve([&](const json& message) {
      if (made || !fake_server::IsRequest(message, "tools/call")) return false;
      made = true;
      if (!MakeWideTree(root, *files)) {
        fake_server::WriteError(message["id"], -32603, "the tree could not be made");
      } else {
        fake_server::WriteResult(message["id"], TextContent(root));
      }
      return true;
    });
  }
  if (mode == "exit-after-handshake") {
    const std::optional<std::int64_t> status = Argument(argc, argv, 0);
    if (!status || *status > 255) return UnknownMode();
    return Serve([&](const json& message) {
      if (!fake_server::IsRequest(message, "tools/list")) return false;
      AnswerNormally(message);
      WriteStderr("bye");
      std::exit(static_cast<int>(*status));
    });
  }
  if (mode == "stderr-lines") {
    const std::optional<std::int64_t> lines = Argument(argc, argv, 50);
    if (!lines) return UnknownMode();
    for (std::int64_t n = 1; n <= *lines; ++n) WriteStderr("line " + std::to_string(n));
    return Serve();
  }
  if (mode == "close-output") {
    close(STDOUT_FILENO);
    WriteStderr("closed my output");
    return ReadUntilTheEnd();
  }
  if (mode == "close-output-mid-call") {
    return Serve([](const json& message) {
      if (!fake_server::IsRequest(message, "tools/call")) return false;
      close(STDOUT_FILENO);
      std::exit(ReadUntilTheEnd());
    });
  }
  if (mode == "notify-then-echo") {
    return Serve([](const json& message) {
      if (fake_server::IsRequest(message, "tools/call")) {
        fake_server::WriteLine(R"({"jsonrpc":"2.0","method":"notifications/progress",)"
                               R"("params":{"progressToken":"t","progress":1}})");
      }
      return false;
    });
  }
  if (mode == "tell-notifications") {
    return Serve([](const json& message) {
      if (message.is_object() && !message.contains("id")) {
        WriteStderr("notification " + fake_server::Method(message));
      }
      return false;
    });
  }
  if (mode == "garbage-flood") {
    const std::optional<std::int64_t> lines = Argument(argc, argv, 100000);
    if (!lines) return UnknownMode();
    bool flooded = false;
    return Serve([&](const json& message) {
      if (flooded || !fake_server::IsRequest(message, "tools/call")) return false;
      for (std::int64_t i = 0; i < *lines; ++i) std::cout << "x\n";
      std::string batch = "[1";
      for (int i = 1; i < 2'000'000; ++i) batch += ",1";
      fake_server::WriteLine(batch + "]");
      flooded = true;
      return false;  // answered as usual, once the flood is written
    });
  }
  if (mode == "garbage-reply") {
    std::set<std::string> garbled;  // the methods whose first request was answered so
    return Serve([&](const json& message) {
      const std::string method = fake_server::Method(message);
      if ((method != "tools/call" && method != "ping") || !message.contains("id") ||
          !garbled.insert(method).second) {
        return false;
      }
      WriteGarbage(message["id"]);
      return true;
    });
  }
  if (mode == "hang-until-cancelled") return HangUntilCancelled();
  return UnknownMode();
}
