// A Supervisor on pipes, its loop run by the test: the test writes requests
// as a session would, and reads the lines the supervisor writes, running
// the loop until the line it waits for comes. A line that does not come
// within a generous deadline fails the test, with every line that came; no
// test here times how fast anything is.
//
//   SessionDriver session(machine, channels);
//   Json opened = session.Call("session/open", {{"directory", checkout}});
//   const Json id = session.Send("server/start", {{"alias", "weather"}});
//   Json exited = session.WaitFor([](const Json& line) { return line["method"] == ...; });
//   Json started = session.AnswerTo(id);
#ifndef BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_DRIVER_H_
#define BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_DRIVER_H_

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/unique_fd.h"
#include "supervisor/servers/channel_factory.h"
#include "supervisor/session/session_opening.h"

namespace bravebot {
class Supervisor;
}

namespace bravebot::testing {

class SessionDriver {
 public:
  using Json = nlohmann::ordered_json;
  // How long a line awaited may take before the test fails: long enough for
  // a loaded machine under the sanitizers, since nothing here is timed.
  static constexpr std::chrono::seconds kDeadline{30};

  // `channels` must outlive it.
  SessionDriver(SupervisorMachine machine, const ChannelFactory& channels);
  // Ends the session as a session that goes away does, its input closed, and
  // runs the loop until every server has ended.
  ~SessionDriver();

  // Writes the request `method` with `params` (none where null), and gives
  // its id.
  Json Send(const std::string& method, const Json& params = Json());
  // Writes a line as it is.
  void SendLine(const std::string& line);
  // The answer to the request `id`.
  Json AnswerTo(const Json& id);
  // Send, then AnswerTo.
  Json Call(const std::string& method, const Json& params = Json());
  // The first line the supervisor wrote that `wanted` takes, however long
  // ago it came; null, and the test failed, where none came in time.
  Json WaitFor(const std::function<bool(const Json& line)>& wanted, const std::string& what);
  // A notification of `method` whose params.alias is `alias`.
  Json WaitForNotification(const std::string& method, const std::string& alias);
  // Runs the loop until `done` holds; false, and the test failed, where it
  // did not in time.
  bool RunUntil(const std::function<bool()>& done, const std::string& what);
  // Runs the loop until nothing is left to do now; gives the lines so far.
  const std::vector<Json>& Settle();

  const std::vector<Json>& lines() const { return lines_; }
  // Whether the supervisor has ended its loop (session/close, its input's end).
  bool ended() const { return io_.stopped(); }
  int exit_status() const;

 private:
  void Drain();
  std::string Transcript() const;

  boost::asio::io_context io_;
  UniqueFd to_supervisor_;    // its input, written here
  UniqueFd from_supervisor_;  // its output, read here
  std::unique_ptr<Supervisor> supervisor_;
  std::string partial_;  // what came after the last newline
  std::vector<Json> lines_;
  long long next_id_ = 1;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_SUPERVISOR_SESSION_SESSION_DRIVER_H_
