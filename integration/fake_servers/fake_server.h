// What the fake MCP servers of the integration tests share: one JSON-RPC
// message a line on standard input and output, and the handshake answered as
// a real server answers it. Each fake is a small program that misbehaves in
// one way a real server might.
#ifndef BRAVEBOT_INTEGRATION_FAKE_SERVERS_FAKE_SERVER_H_
#define BRAVEBOT_INTEGRATION_FAKE_SERVERS_FAKE_SERVER_H_

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace fake_server {

using nlohmann::json;

// The next message on standard input; null once it ends. A line that is not
// JSON is skipped.
inline json ReadMessage() {
  std::string line;
  while (std::getline(std::cin, line)) {
    json message = json::parse(line, nullptr, false);
    if (!message.is_discarded()) return message;
  }
  return nullptr;
}

// The next request on standard input, a message with an id (no test answers
// a request of these servers'); null once the input ends. Notifications and
// whatever is not an object are skipped.
inline json ReadRequest() {
  for (json message = ReadMessage(); !message.is_null(); message = ReadMessage()) {
    if (message.is_object() && message.contains("id")) return message;
  }
  return nullptr;
}

// The method `message` names; empty for a response or a method that is not a
// string.
inline std::string Method(const json& message) {
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    return "";
  }
  return message["method"].get<std::string>();
}

inline bool IsRequest(const json& message, std::string_view method) {
  return message.is_object() && message.contains("id") && Method(message) == method;
}

inline bool IsNotification(const json& message, std::string_view method) {
  return message.is_object() && !message.contains("id") && Method(message) == method;
}

// An answer from the client to a request of the server's.
inline bool IsResponse(const json& message) {
  return message.is_object() && message.contains("id") && !message.contains("method");
}

// Writes `line`, a message written by hand, and the newline that ends it.
inline void WriteLine(std::string_view line) { std::cout << line << "\n" << std::flush; }

// Writes the answer to request `id` whose result is `result_text`, JSON
// written by hand (it may be deeper or larger than a json value should hold).
inline void WriteResult(const json& id, std::string_view result_text) {
  std::cout << R"({"jsonrpc":"2.0","id":)" << id.dump() << R"(,"result":)" << result_text << "}\n"
            << std::flush;
}

// Writes the JSON-RPC error answering request `id`.
inline void WriteError(const json& id, int code, std::string_view message) {
  std::cout << R"({"jsonrpc":"2.0","id":)" << id.dump() << R"(,"error":{"code":)" << code
            << R"(,"message":)" << json(message).dump() << "}}\n"
            << std::flush;
}

// Answers initialize in the version it asked for.
inline void AnswerInitialize(const json& request) {
  json result = {{"protocolVersion", request["params"].value("protocolVersion", "2025-11-25")},
                 {"capabilities", {{"tools", json::object()}}},
                 {"serverInfo", {{"name", "fake"}, {"version", "1.0.0"}}}};
  WriteResult(request["id"], result.dump());
}

}  // namespace fake_server

#endif  // BRAVEBOT_INTEGRATION_FAKE_SERVERS_FAKE_SERVER_H_
