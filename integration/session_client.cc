#include "integration/session_client.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "integration/programs.h"

namespace bravebot::testing {

std::string ProtocolLogDirectory() {
  const char* directory = std::getenv("BRAVEBOT_PROTOCOL_LOGS");
  return directory != nullptr && *directory != '\0' ? directory : BRAVEBOT_PROTOCOL_LOG_DIRECTORY;
}

SessionClient::SessionClient(const std::vector<std::string>& environment, const std::string& cwd,
                             const std::string& log_name)
    : log_path_(cwd + "/supervisor.log"),
      process_({OurProgram("bravebot-supervisor")}, environment, cwd, log_path_) {
  std::error_code ignored;
  std::filesystem::create_directories(ProtocolLogDirectory(), ignored);
  // Where the directory cannot be written (as another user), nothing is
  // logged: the check of the logs runs where it can be.
  protocol_log_.open(ProtocolLogDirectory() + "/" + log_name + ".jsonl", std::ios::trunc);
}

int SessionClient::Send(const std::string& method, const Json& params) {
  const int id = next_id_++;
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  methods_[id] = method;
  EXPECT_TRUE(SendLine(request.dump())) << "the supervisor does not read its input";
  return id;
}

std::vector<int> SessionClient::SendTogether(
    const std::vector<std::pair<std::string, Json>>& requests) {
  std::vector<int> ids;
  std::string lines;
  for (const auto& [method, params] : requests) {
    const int id = next_id_++;
    Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) request["params"] = params;
    methods_[id] = method;
    lines += request.dump() + "\n";
    ids.push_back(id);
  }
  lines.pop_back();
  EXPECT_TRUE(SendLine(lines)) << "the supervisor does not read its input";
  return ids;
}

bool SessionClient::SendLine(const std::string& line) {
  return process_.Write(line + "\n", In(std::chrono::seconds(10)));
}

void SessionClient::Record(const Json& message) {
  if (!protocol_log_.is_open()) return;
  Json entry = Json::object();
  if (message.contains("id")) {
    const Json& id = message["id"];
    auto method = id.is_number_integer() ? methods_.find(id.get<int>()) : methods_.end();
    entry["answers"] = method != methods_.end() ? method->second : "session/open";
  }
  entry["message"] = message;
  protocol_log_ << entry.dump() << "\n" << std::flush;
}

bool SessionClient::ReadOne(Deadline deadline) {
  std::vector<std::string> lines = process_.ReadLines(1, deadline);
  if (lines.empty()) return false;
  Json message = Json::parse(lines.front(), nullptr, false);
  EXPECT_FALSE(message.is_discarded())
      << "the supervisor wrote a line that is not JSON: " << lines.front();
  if (message.is_discarded()) return true;
  Record(message);
  if (!message.contains("id")) {
    notifications_.push_back(std::move(message));
  } else if (message["id"].is_number_integer()) {
    const int id = message["id"].get<int>();
    answers_[id] = std::move(message);
  } else {
    unmatched_.push_back(std::move(message));
  }
  return true;
}

std::optional<Json> SessionClient::AnswerTo(int id, Deadline deadline) {
  for (;;) {
    if (auto found = answers_.find(id); found != answers_.end()) {
      Json answer = std::move(found->second);
      answers_.erase(found);
      return answer;
    }
    if (!ReadOne(deadline)) return std::nullopt;
  }
}

Json SessionClient::Call(const std::string& method, const Json& params,
                         std::chrono::milliseconds wait) {
  const int id = Send(method, params);
  std::optional<Json> answer = AnswerTo(id, In(wait));
  EXPECT_TRUE(answer.has_value()) << "no answer to " << method << "; the supervisor's log:\n"
                                  << Log();
  return answer.value_or(Json::object());
}

std::optional<Json> SessionClient::WaitFor(const std::function<bool(const Json&)>& matches,
                                           Deadline deadline) {
  for (;;) {
    for (auto it = notifications_.begin(); it != notifications_.end(); ++it) {
      if (matches(*it)) {
        Json found = std::move(*it);
        notifications_.erase(it);
        return found;
      }
    }
    if (!ReadOne(deadline)) return std::nullopt;
  }
}

std::optional<Json> SessionClient::WaitFor(const std::string& method, Deadline deadline) {
  return WaitFor([&](const Json& message) { return message.value("method", "") == method; },
                 deadline);
}

void SessionClient::Drain(std::chrono::milliseconds wait) {
  const Deadline until = In(wait);
  while (ReadOne(until)) {
  }
}

std::string SessionClient::Log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace bravebot::testing
