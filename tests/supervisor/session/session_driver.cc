#include "tests/supervisor/session/session_driver.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>

#include "supervisor/session/supervisor.h"

namespace bravebot::testing {
namespace {

// How long the loop waits for something to do before the output is read
// again: a pause, never a measure of anything.
constexpr std::chrono::milliseconds kTurn{10};

}  // namespace

SessionDriver::SessionDriver(SupervisorMachine machine, const ChannelFactory& channels) {
  int input[2];
  int output[2];
  if (::pipe2(input, O_CLOEXEC) != 0 || ::pipe2(output, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "no pipe for the supervisor: errno " << errno;
    return;
  }
  to_supervisor_.reset(input[1]);
  from_supervisor_.reset(output[0]);
  ::fcntl(from_supervisor_.get(), F_SETFL, O_NONBLOCK);
  // The supervisor owns its ends, as it owns its standard input and output.
  supervisor_ =
      std::make_unique<Supervisor>(io_, std::move(machine), input[0], output[1], channels);
  supervisor_->Begin();
}

SessionDriver::~SessionDriver() {
  // As a session that goes away: its input ends, every server is stopped.
  to_supervisor_.reset();
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (supervisor_ && !io_.stopped() && std::chrono::steady_clock::now() < deadline) {
    io_.run_one_for(kTurn);
    Drain();
  }
  if (supervisor_ && !io_.stopped()) {
    ADD_FAILURE() << "the supervisor did not end once its input did; it wrote:\n" << Transcript();
  }
  supervisor_.reset();
}

SessionDriver::Json SessionDriver::Send(const std::string& method, const Json& params) {
  const Json id = next_id_++;
  Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  SendLine(request.dump());
  return id;
}

void SessionDriver::SendLine(const std::string& line) {
  const std::string bytes = line + "\n";
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t wrote =
        ::write(to_supervisor_.get(), bytes.data() + written, bytes.size() - written);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      ADD_FAILURE() << "the supervisor's input took no more: errno " << errno;
      return;
    }
    written += static_cast<std::size_t>(wrote);
  }
}

SessionDriver::Json SessionDriver::AnswerTo(const Json& id) {
  return WaitFor(
      [&id](const Json& line) {
        return line.is_object() && !line.contains("method") && line.contains("id") &&
               line["id"] == id;
      },
      "the answer to request " + id.dump());
}

SessionDriver::Json SessionDriver::Call(const std::string& method, const Json& params) {
  return AnswerTo(Send(method, params));
}

SessionDriver::Json SessionDriver::WaitFor(const std::function<bool(const Json& line)>& wanted,
                                           const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  std::size_t checked = 0;
  while (true) {
    Drain();
    for (; checked < lines_.size(); ++checked) {
      if (wanted(lines_[checked])) return lines_[checked];
    }
    if (io_.stopped()) {
      ADD_FAILURE() << what << " never came: the supervisor ended; it wrote:\n" << Transcript();
      return Json();
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << what << " did not come within " << kDeadline.count()
                    << " s; the supervisor wrote:\n"
                    << Transcript();
      return Json();
    }
    io_.run_one_for(kTurn);
  }
}

SessionDriver::Json SessionDriver::WaitForNotification(const std::string& method,
                                                       const std::string& alias) {
  return WaitFor(
      [&](const Json& line) {
        return line.is_object() && line.value("method", "") == method && line.contains("params") &&
               line["params"].value("alias", "") == alias;
      },
      method + " for " + alias);
}

bool SessionDriver::RunUntil(const std::function<bool()>& done, const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (!done()) {
    Drain();
    if (io_.stopped() || std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << what << " did not happen" << (io_.stopped() ? ": the supervisor ended" : "")
                    << "; the supervisor wrote:\n"
                    << Transcript();
      return false;
    }
    io_.run_one_for(kTurn);
  }
  Drain();
  return true;
}

const std::vector<SessionDriver::Json>& SessionDriver::Settle() {
  Drain();
  while (!io_.stopped() && io_.poll() > 0) Drain();
  Drain();
  return lines_;
}

int SessionDriver::exit_status() const { return supervisor_ ? supervisor_->exit_status() : -1; }

void SessionDriver::Drain() {
  char buffer[65536];
  while (true) {
    const ssize_t got = ::read(from_supervisor_.get(), buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    partial_.append(buffer, static_cast<std::size_t>(got));
  }
  std::size_t end;
  while ((end = partial_.find('\n')) != std::string::npos) {
    Json line = Json::parse(partial_.substr(0, end), nullptr, /*allow_exceptions=*/false);
    if (line.is_discarded()) {
      ADD_FAILURE() << "the supervisor wrote a line that is not JSON: " << partial_.substr(0, end);
    }
    lines_.push_back(std::move(line));
    partial_.erase(0, end + 1);
  }
}

std::string SessionDriver::Transcript() const {
  std::string text;
  for (const Json& line : lines_) text += "  " + line.dump() + "\n";
  if (!partial_.empty()) text += "  (unended) " + partial_ + "\n";
  return text.empty() ? "  (nothing)\n" : text;
}

}  // namespace bravebot::testing
