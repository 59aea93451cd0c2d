#include "cli/supervisor_connection.h"

#include <poll.h>

#include <cerrno>
#include <iostream>

namespace bravebot {

int SupervisorConnection::Send(const std::string& method, Json params) {
  const int id = next_id_++;
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = std::move(params);
  // A supervisor that closed its input ends its output too: WaitFor sees it.
  if (!child_.QueueLine(request.dump(-1, ' ', false, Json::error_handler_t::replace))) {
    ended_ = true;
  }
  return id;
}

void SupervisorConnection::SendUnanswered(const std::string& method, Json params) {
  unanswered_.insert(Send(method, std::move(params)));
}

std::optional<SupervisorConnection::Json> SupervisorConnection::WaitFor(
    int id, const std::function<void()>& each_quiet_second) {
  for (;;) {
    auto answer = answers_.find(id);
    if (answer != answers_.end()) {
      Json message = std::move(answer->second);
      answers_.erase(answer);
      return message;
    }
    if (std::optional<std::string> line = child_.TakeBufferedLine()) {
      Take(*line);
      continue;
    }
    if (ended_) return std::nullopt;
    if (Pump(-1, each_quiet_second ? 1000 : -1) == Pumped::kQuiet) each_quiet_second();
  }
}

SupervisorConnection::Wait SupervisorConnection::WaitUntilReadable(int fd) {
  for (;;) {
    // What the supervisor wrote is taken before the input: a list it says
    // changed is put before the next call is read.
    bool notified = false;
    while (std::optional<std::string> line = child_.TakeBufferedLine()) notified |= Take(*line);
    if (notified) return Wait::kNotified;
    if (ended_) return Wait::kEnded;
    if (Pump(fd) == Pumped::kReadable) return Wait::kReadable;
  }
}

SupervisorConnection::Pumped SupervisorConnection::Pump(int fd, int timeout_ms) {
  for (;;) {
    struct pollfd fds[3] = {{child_.output_fd(), POLLIN, 0},
                            {child_.wants_to_write() ? child_.input_fd() : -1, POLLOUT, 0},
                            {fd, POLLIN, 0}};
    const int ready = ::poll(fds, 3, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      ended_ = true;
      return Pumped::kSupervisorSpoke;
    }
    if (ready == 0) return Pumped::kQuiet;
    if (fds[1].revents != 0) child_.Flush();
    if (fds[0].revents != 0) {
      if (!child_.ReadMore() || child_.overflowed()) ended_ = true;
      return Pumped::kSupervisorSpoke;
    }
    if (fds[2].revents != 0) return Pumped::kReadable;
  }
}

bool SupervisorConnection::Take(const std::string& line) {
  Json message = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) {
    std::cerr << "bravebot-mcp session: the supervisor wrote a line that is not a JSON-RPC "
                 "message; it is skipped\n";
    return false;
  }
  if (!message.contains("id")) return on_notification_(message);
  if (!message["id"].is_number_integer()) return false;  // an answer to no request of ours
  const int id = message["id"].get<int>();
  if (unanswered_.erase(id) == 0) answers_[id] = std::move(message);
  return false;
}

}  // namespace bravebot
