// An MCP server with one tool, echo, that answers with the text it is given,
// for relaying floods of large messages:
//   echo_server synchronous   writes each answer whole before it reads the
//                             next request, as simple servers do
//   echo_server concurrent    reads requests while it writes answers, as SDK
//                             servers do
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

namespace {

constexpr char kTools[] =
    R"({"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]})";

// The answer to `message`, written into `answer` as a whole line; false for
// a message that wants none.
bool AnswerTo(const json& message, std::string& answer) {
  if (!message.is_object() || !message.contains("id") || !message.contains("method")) return false;
  const json& id = message["id"];
  const std::string method = message["method"];
  json result = json::object();
  if (method == "initialize") {
    result = {{"protocolVersion", message["params"].value("protocolVersion", "2025-11-25")},
              {"capabilities", {{"tools", json::object()}}},
              {"serverInfo", {{"name", "echo"}, {"version", "1.0.0"}}}};
  } else if (method == "tools/list") {
    result = json::parse(kTools);
  } else if (method == "tools/call") {
    std::string text = message["params"]["arguments"].value("text", "");
    result = {{"content", {{{"type", "text"}, {"text", std::move(text)}}}}};
  }
  answer = json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}.dump() + "\n";
  return true;
}

int Synchronous() {
  std::string answer;
  for (json message = fake_server::ReadMessage(); !message.is_null();
       message = fake_server::ReadMessage()) {
    if (AnswerTo(message, answer)) std::cout << answer << std::flush;
  }
  return 0;
}

int Concurrent() {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> answers;
  bool input_ended = false;
  std::thread reader([&] {
    std::string answer;
    for (json message = fake_server::ReadMessage(); !message.is_null();
         message = fake_server::ReadMessage()) {
      if (!AnswerTo(message, answer)) continue;
      std::lock_guard<std::mutex> lock(mutex);
      answers.push_back(std::move(answer));
      ready.notify_one();
    }
    std::lock_guard<std::mutex> lock(mutex);
    input_ended = true;
    ready.notify_one();
  });
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [&] { return !answers.empty() || input_ended; });
    if (answers.empty()) break;
    std::string answer = std::move(answers.front());
    answers.pop_front();
    lock.unlock();
    std::cout << answer << std::flush;
  }
  reader.join();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "synchronous";
  // Reading must not flush the output another thread is writing.
  std::cin.tie(nullptr);
  return mode == "concurrent" ? Concurrent() : Synchronous();
}
