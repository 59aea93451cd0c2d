// A session of the tests' own, speaking to the real bravebot-supervisor
// through its pipes as a bravebot session would: requests sent with ids from
// 1, answers matched by id whenever they come, notifications kept in order.
// Every message the supervisor sends is also written to a protocol log, which
// the protocol_messages test checks against docs/supervisor-protocol.schema.json.
//
//   SessionClient session(environment, checkout, "opens_a_session");
//   Json opened = session.Call("session/open", {{"directory", checkout}});
//   auto exited = session.WaitFor("server/exited", In(5s));
#ifndef BRAVEBOT_INTEGRATION_SESSION_CLIENT_H_
#define BRAVEBOT_INTEGRATION_SESSION_CLIENT_H_

#include <chrono>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "integration/running_command.h"

namespace bravebot::testing {

using Json = nlohmann::ordered_json;

class SessionClient {
 public:
  // Starts bravebot-supervisor with exactly `environment`, in `cwd`; its log
  // (standard error) goes to `cwd`/supervisor.log, and its messages to the
  // protocol log named `log_name`.
  SessionClient(const std::vector<std::string>& environment, const std::string& cwd,
                const std::string& log_name);

  // Sends request `method`; gives its id.
  int Send(const std::string& method, const Json& params = nullptr);
  // Sends these requests in one write, so that the supervisor reads them
  // together; gives their ids, in order.
  std::vector<int> SendTogether(const std::vector<std::pair<std::string, Json>>& requests);
  // Sends a line as it is.
  bool SendLine(const std::string& line);
  // The answer to request `id`, reading until it comes or the deadline passes.
  std::optional<Json> AnswerTo(int id, Deadline deadline);
  // Send, then the answer; an empty object when none came (the test fails).
  Json Call(const std::string& method, const Json& params = nullptr,
            std::chrono::milliseconds wait = std::chrono::milliseconds(20000));
  // The next notification that `matches`, reading until it comes; those
  // passed over stay for later.
  std::optional<Json> WaitFor(const std::function<bool(const Json&)>& matches, Deadline deadline);
  std::optional<Json> WaitFor(const std::string& method, Deadline deadline);
  // The answers to no request of ours (id null) read so far.
  const std::vector<Json>& unmatched() const { return unmatched_; }
  // Every notification read so far and not taken.
  const std::deque<Json>& notifications() const { return notifications_; }
  // Reads what is there for `wait`, keeping it.
  void Drain(std::chrono::milliseconds wait);

  RunningCommand& process() { return process_; }
  // The supervisor's own log so far.
  std::string Log() const;

 private:
  // Reads one message; false when none came before the deadline.
  bool ReadOne(Deadline deadline);
  void Record(const Json& message);

  std::string log_path_;
  RunningCommand process_;
  std::ofstream protocol_log_;
  std::map<int, std::string> methods_;  // what each id asked
  std::map<int, Json> answers_;
  std::deque<Json> notifications_;
  std::vector<Json> unmatched_;  // answers to no id of ours (id null)
  int next_id_ = 1;
};

// The directory the protocol logs are written to.
std::string ProtocolLogDirectory();

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_SESSION_CLIENT_H_
