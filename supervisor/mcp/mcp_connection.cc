#include "supervisor/mcp/mcp_connection.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>

#include "base/bounded_json.h"
#include "base/json_members.h"

namespace bravebot {
namespace {

using nlohmann::ordered_json;

std::string Line(const ordered_json& message) {
  // dump() escapes any newline inside a string, so a message is one line; a
  // string that is not UTF-8 is replaced rather than thrown about.
  return message.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

std::optional<std::int64_t> OurId(const ordered_json& id) {
  if (id.is_number_unsigned()) {
    const auto value = id.get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(value);
  }
  if (id.is_number_integer()) return id.get<std::int64_t>();
  return std::nullopt;
}

}  // namespace

std::string JsonStringText(const std::string& text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
  });
  if (plain) return '"' + text + '"';
  return Line(ordered_json(text));
}

std::int64_t McpConnection::Remember(std::uint64_t tag, const std::string& method, std::string what,
                                     bool passing_on) {
  const std::int64_t id = next_id_++;
  RememberAs(id, tag, method, std::move(what), passing_on);
  return id;
}

void McpConnection::RememberAs(std::int64_t id, std::uint64_t tag, const std::string& method,
                               std::string what, bool passing_on) {
  // Not `what.empty() ? method : std::move(what)`, whose const result is
  // copied from either side.
  if (what.empty()) what = method;
  pending_[id] = Pending{tag, method, std::move(what), passing_on};
  if (passing_on) ++passing_on_;
}

std::string McpConnection::Request(std::uint64_t tag, const std::string& method,
                                   const ordered_json& params, std::string what) {
  const std::int64_t id = Remember(tag, method, std::move(what), false);
  ordered_json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  return Line(request);
}

std::string McpConnection::RequestAs(std::int64_t id, std::uint64_t tag, const std::string& method,
                                     const ordered_json& params) {
  RememberAs(id, tag, method, "", false);
  ordered_json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  return Line(request);
}

std::string McpConnection::RequestPassingOn(std::uint64_t tag, const std::string& method,
                                            std::string_view params_text, std::string what) {
  const std::int64_t id = Remember(tag, method, std::move(what), true);
  std::string line;
  // One allocation for a line that may be long: the params are most of it.
  line.reserve(64 + method.size() + params_text.size());
  line += R"({"jsonrpc":"2.0","id":)";
  line += std::to_string(id);
  line += R"(,"method":)";
  line += JsonStringText(method);
  if (!params_text.empty()) {
    line += R"(,"params":)";
    line += params_text;
  }
  line += '}';
  return line;
}

std::string McpConnection::Notification(const std::string& method, const ordered_json& params) {
  ordered_json notification = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) notification["params"] = params;
  return Line(notification);
}

std::string McpConnection::Reply(const ordered_json& id, const ordered_json& result) {
  return Line({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

std::string McpConnection::ReplyError(const ordered_json& id, const ordered_json& error) {
  return Line({{"jsonrpc", "2.0"}, {"id", id}, {"error", error}});
}

std::optional<McpIncoming> McpConnection::TakeAnswerPassedOn(std::string_view line) {
  if (passing_on_ == 0) return std::nullopt;
  auto members = ReadJsonObjectMembers(line);
  if (!members) return std::nullopt;
  const std::string_view result = FindJsonMember(*members, "result");
  if (result.empty() || !FindJsonMember(*members, "method").empty() ||
      !FindJsonMember(*members, "error").empty()) {
    return std::nullopt;
  }
  const std::string_view id_text = FindJsonMember(*members, "id");
  std::int64_t id = 0;
  const auto read = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (id_text.empty() || read.ec != std::errc() || read.ptr != id_text.data() + id_text.size()) {
    return std::nullopt;
  }
  auto pending = pending_.find(id);
  if (pending == pending_.end() || !pending->second.passing_on) return std::nullopt;
  McpIncoming incoming = AnswerTo(pending, line.size());
  incoming.result_text = result;
  return incoming;
}

McpRead<std::vector<McpIncoming>> McpConnection::Take(std::string_view line) {
  std::vector<McpIncoming> taken;
  if (IsBlankLine(line)) return taken;
  // The answers a relay passes on, the most of what a server writes, are
  // read without a document where they can be.
  if (auto answer = TakeAnswerPassedOn(line)) {
    taken.push_back(std::move(*answer));
    return taken;
  }
  ordered_json parsed;
  JsonBounds bounds;
  bounds.max_batch = kMaxBatchMessages;  // no batch a server sends: read no further
  const JsonRefusal refusal = ReadBoundedJson(line, parsed, bounds);
  switch (refusal) {
    case JsonRefusal::kNone:
      break;
    case JsonRefusal::kTooDeep:
      return McpFault{McpFailureKind::kMalformed,
                      "the server wrote JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                          " levels" + AwaitedText() + "; bravebot-mcp reads no deeper",
                      std::nullopt};
    case JsonRefusal::kTooWide:
      return McpFault{McpFailureKind::kMalformed,
                      "the server wrote a JSON object of more than " +
                          std::to_string(kMaxJsonObjectMembers) + " members" + AwaitedText() +
                          "; bravebot-mcp reads no more",
                      std::nullopt};
    case JsonRefusal::kNotJson:
    case JsonRefusal::kBatchTooWide: {
      // One line that is no message (a batch too wide: JSON, as far as read).
      auto skipped = NotAMessage(line, refusal == JsonRefusal::kBatchTooWide);
      if (auto* fault = std::get_if<McpFault>(&skipped)) return *fault;
      taken.push_back(std::move(*std::get<0>(skipped)));
      return taken;
    }
  }
  std::vector<ordered_json> messages;
  // A batch (2025-03-26 allowed them) is taken one message at a time.
  if (parsed.is_array() && !parsed.empty()) {
    for (auto& element : parsed) messages.push_back(std::move(element));
  } else {
    messages.push_back(std::move(parsed));
  }
  bool skipped = false;
  for (auto& message : messages) {
    auto one = TakeMessage(std::move(message), line);
    if (auto* fault = std::get_if<McpFault>(&one)) return *fault;
    auto& incoming = std::get<0>(one);
    if (!incoming) continue;
    // What a line holds that is no message is said once for the line.
    if (incoming->kind == McpIncoming::Kind::kSkipped && std::exchange(skipped, true)) continue;
    taken.push_back(std::move(*incoming));
  }
  return taken;
}

McpRead<std::optional<McpIncoming>> McpConnection::TakeMessage(ordered_json message,
                                                               std::string_view line) {
  if (!message.is_object()) return NotAMessage(line, true);
  auto method = message.find("method");
  auto id = message.find("id");
  if (method != message.end() && method->is_string()) {
    McpIncoming incoming;
    incoming.kind =
        id == message.end() ? McpIncoming::Kind::kNotification : McpIncoming::Kind::kServerRequest;
    incoming.method = method->get<std::string>();
    incoming.message = std::move(message);
    return std::optional<McpIncoming>(std::move(incoming));
  }
  auto result = message.find("result");
  auto error = message.find("error");
  if (method != message.end() || id == message.end() ||
      (result == message.end() && error == message.end())) {
    return NotAMessage(Line(message), true);
  }
  std::optional<std::int64_t> ours = OurId(*id);
  auto pending = ours ? pending_.find(*ours) : pending_.end();
  // An answer to a request given up on, or to none of ours: dropped.
  if (pending == pending_.end()) return std::optional<McpIncoming>();
  const bool passing_on = pending->second.passing_on;
  McpIncoming incoming = AnswerTo(pending, line.size());
  if (error != message.end()) {
    incoming.fault = ErrorAnswerFault(*error, incoming.what);
  } else if (passing_on) {
    incoming.result_text = Line(*result);
  } else {
    incoming.result = std::move(*result);
  }
  if (incoming.method == "initialize") initialize_answered_ = true;
  return std::optional<McpIncoming>(std::move(incoming));
}

McpRead<std::optional<McpIncoming>> McpConnection::NotAMessage(std::string_view line,
                                                               bool is_json) {
  if (!initialize_answered_) return NotAMessageFault(line, is_json);
  McpIncoming incoming;
  incoming.kind = McpIncoming::Kind::kSkipped;
  incoming.skipped = is_json ? "a line that is not a JSON-RPC message" : "a line that is not JSON";
  incoming.skipped_code = is_json ? -32600 : -32700;
  incoming.line_bytes = line.size();
  return std::optional<McpIncoming>(std::move(incoming));
}

McpIncoming McpConnection::AnswerTo(std::map<std::int64_t, Pending>::iterator pending,
                                    std::size_t line_bytes) {
  McpIncoming incoming;
  incoming.kind = McpIncoming::Kind::kAnswer;
  incoming.tag = pending->second.tag;
  incoming.method = std::move(pending->second.method);
  incoming.what = std::move(pending->second.what);
  incoming.line_bytes = line_bytes;
  Erase(pending);
  return incoming;
}

void McpConnection::Erase(std::map<std::int64_t, Pending>::iterator pending) {
  if (pending->second.passing_on) --passing_on_;
  pending_.erase(pending);
}

std::string McpConnection::AwaitedText() const {
  if (pending_.empty()) return "";
  std::string names;
  std::size_t i = 0;
  for (const auto& [id, pending] : pending_) {
    if (i > 0) names += i + 1 == pending_.size() ? " and " : ", ";
    names += pending.what;
    ++i;
  }
  return std::string(" while bravebot-mcp waited for its ") +
         (pending_.size() == 1 ? "answer" : "answers") + " to " + names;
}

std::optional<McpIncoming> McpConnection::Fail(std::int64_t id, McpFault why) {
  auto pending = pending_.find(id);
  if (pending == pending_.end()) return std::nullopt;
  McpIncoming incoming = AnswerTo(pending, 0);
  incoming.fault = std::move(why);
  return incoming;
}

std::optional<std::uint64_t> McpConnection::TagOf(std::int64_t id) const {
  auto pending = pending_.find(id);
  if (pending == pending_.end()) return std::nullopt;
  return pending->second.tag;
}

std::optional<std::int64_t> McpConnection::IdOf(std::uint64_t tag) const {
  for (const auto& [id, pending] : pending_) {
    if (pending.tag == tag) return id;
  }
  return std::nullopt;
}

std::vector<std::int64_t> McpConnection::PendingIds() const {
  std::vector<std::int64_t> ids;
  ids.reserve(pending_.size());
  for (const auto& [id, pending] : pending_) ids.push_back(id);
  return ids;
}

std::optional<std::int64_t> McpConnection::Forget(std::uint64_t tag) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->second.tag == tag) {
      const std::int64_t id = it->first;
      Erase(it);
      return id;
    }
  }
  return std::nullopt;
}

std::vector<std::pair<std::uint64_t, std::string>> McpConnection::ForgetAll() {
  std::vector<std::pair<std::uint64_t, std::string>> forgotten;
  for (auto& [id, pending] : pending_) forgotten.emplace_back(pending.tag, pending.method);
  pending_.clear();
  passing_on_ = 0;
  return forgotten;
}

}  // namespace bravebot
