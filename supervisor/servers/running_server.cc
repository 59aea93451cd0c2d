#include "supervisor/servers/running_server.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/append.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <utility>

#include "supervisor/servers/launcher_threads.h"

namespace bravebot {
namespace {

// Our end of a pipe on the loop, made non-blocking, so that what is left in
// it can be read at once when the server ends, while the loop also waits on
// it. Not open where the server was given our own streams.
void PutOnLoop(boost::asio::posix::stream_descriptor& on_loop, UniqueFd fd) {
  if (!fd.valid()) return;
  const int raw = fd.release();
  ::fcntl(raw, F_SETFL, ::fcntl(raw, F_GETFL) | O_NONBLOCK);
  on_loop.assign(raw);
}

// Reads `fd` until it is empty for now or ended; gives what was read.
std::string ReadWhatIsThere(int fd) {
  std::string bytes;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got > 0) {
      bytes.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return bytes;
  }
}

}  // namespace

RunningServer::PendingLaunch::PendingLaunch(boost::asio::io_context& io)
    : io_(&io), work_(io.get_executor()) {}

void RunningServer::PendingLaunch::Abandon() {
  std::lock_guard<std::mutex> lock(mutex_);
  io_ = nullptr;
  work_.reset();
}

std::shared_ptr<RunningServer::PendingLaunch> RunningServer::Start(
    boost::asio::io_context& io, const Declaration& declaration, const ServerStartOptions& options,
    ServerEvents events, Launched launched, LaunchOn where) {
  auto pending = std::make_shared<PendingLaunch>(io);
  auto launch = [pending, declaration, options, events = std::move(events),
                 launched = std::move(launched)]() mutable {
    auto server =
        std::make_shared<Result<ConfinedServer>>(ConfinedServer::Start(declaration, options));
    std::lock_guard<std::mutex> lock(pending->mutex_);
    // Abandoned: `server` goes here, and a ConfinedServer that goes stops.
    if (pending->io_ == nullptr) return;
    boost::asio::io_context& loop = *pending->io_;
    // The loop's work goes with the handler, and ends on the loop's thread:
    // once posted, the handler may run and the loop end, and its owner go,
    // before this thread would take another step on it.
    auto work = std::move(pending->work_);
    pending->io_ = nullptr;
    boost::asio::post(loop, [&loop, server, events = std::move(events),
                             launched = std::move(launched), work = std::move(work)]() mutable {
      work.reset();
      if (!*server) return launched(server->error());
      std::shared_ptr<RunningServer> running(
          new RunningServer(loop, std::move(**server), std::move(events), Pipes::kLines));
      running->ReadOutput();
      running->ReadStderr();
      running->WaitForEnd();
      launched(std::move(running));
    });
  };
  if (where == LaunchOn::kThisThread) {
    launch();
  } else {
    boost::asio::post(LauncherThreads(), std::move(launch));
  }
  return pending;
}

Result<std::shared_ptr<RunningServer>> RunningServer::StartWithRawPipes(
    boost::asio::io_context& io, const Declaration& declaration,
    const ServerStartOptions& options) {
  BRAVEBOT_ASSIGN_OR_RETURN(ConfinedServer server, ConfinedServer::Start(declaration, options));
  std::shared_ptr<RunningServer> running(new RunningServer(io, std::move(server), {}, Pipes::kRaw));
  running->WaitForEnd();
  return running;
}

RunningServer::RunningServer(boost::asio::io_context& io, ConfinedServer server,
                             ServerEvents events, Pipes pipes)
    : server_(std::move(server)),
      events_(std::move(events)),
      pipes_(pipes),
      input_(io),
      output_(io),
      errors_(io),
      process_(io, ::dup(server_.pidfd())),
      stop_timer_(io) {
  PutOnLoop(input_, server_.TakeStdin());
  PutOnLoop(output_, server_.TakeStdout());
  PutOnLoop(errors_, server_.TakeStderr());
}

// A server still running as this goes (nothing stopped it) is killed as its
// ConfinedServer goes.
RunningServer::~RunningServer() = default;

void RunningServer::CloseInput() {
  input_closed_ = true;
  // Closed before the queue goes: a write under way reads from it.
  boost::system::error_code ignored;
  input_.close(ignored);
  queued_.Clear();
}

bool RunningServer::Write(std::string line) {
  if (input_closed_ || status_) return false;
  if (queued_.bytes() + line.size() + 1 > kMaxQueuedInputBytes) return false;
  line.push_back('\n');
  queued_.Push(std::move(line));
  if (!writing_) WriteNext();
  return true;
}

void RunningServer::WriteNext() {
  if (queued_.empty() || input_closed_) {
    writing_ = false;
    return;
  }
  writing_ = true;
  boost::asio::async_write(
      input_, queued_.Batch(),
      [self = shared_from_this()](const boost::system::error_code& error, std::size_t) {
        self->queued_.Written();
        if (error || self->input_closed_) {
          // It closed its input, or ended, or is being stopped: nothing more
          // reaches it.
          self->input_closed_ = true;
          self->queued_.Clear();
          self->writing_ = false;
          return;
        }
        self->WriteNext();
      });
}

void RunningServer::PauseOutput() { paused_ = true; }

void RunningServer::ResumeOutput() {
  paused_ = false;
  ReadOutput();
}

void RunningServer::ReadOutput() {
  if (pipes_ == Pipes::kRaw || reading_output_ || paused_ || output_ended_ || end_reported_) {
    return;
  }
  reading_output_ = true;
  output_.async_read_some(
      boost::asio::buffer(output_buffer_),
      [self = shared_from_this()](const boost::system::error_code& error, std::size_t got) {
        self->reading_output_ = false;
        if (self->end_reported_) return;
        if (got > 0) {
          self->wrote_output_ = true;
          self->lines_.Feed(std::string_view(self->output_buffer_.data(), got));
          while (auto line = self->lines_.Next()) self->events_.on_line(std::move(*line));
          if (self->lines_.overflowed()) {
            self->output_ended_ = true;
            self->events_.on_overflow();
            return;
          }
        }
        if (error) {
          if (auto rest = self->lines_.Rest()) self->events_.on_line(std::move(*rest));
          self->output_ended_ = true;
          if (!self->status_ && self->events_.on_output_closed) self->events_.on_output_closed();
          self->MaybeReportEnd();
          return;
        }
        self->ReadOutput();
      });
}

void RunningServer::ReadStderr() {
  errors_.async_read_some(
      boost::asio::buffer(errors_buffer_),
      [self = shared_from_this()](const boost::system::error_code& error, std::size_t got) {
        if (self->end_reported_) return;
        for (std::string& line :
             self->stderr_lines_.Feed(std::string_view(self->errors_buffer_.data(), got))) {
          self->events_.on_stderr_line(std::move(line));
        }
        if (error) {
          if (auto rest = self->stderr_lines_.Finish()) self->events_.on_stderr_line(*rest);
          return;
        }
        self->ReadStderr();
      });
}

void RunningServer::WaitForEnd() {
  process_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [self = shared_from_this()](const boost::system::error_code& error) {
                        if (error) return;
                        std::optional<int> status = self->server_.Reap();
                        if (!status) {
                          self->WaitForEnd();
                          return;
                        }
                        self->Ended(*status);
                      });
}

void RunningServer::Ended(int status) {
  status_ = status;
  stop_timer_.cancel();
  CloseInput();
  if (pipes_ == Pipes::kRaw) {
    // Its caller reads what it wrote last, and has nothing else to do
    // meanwhile: its run directory is removed here, before its end is given.
    server_.Finish(ConfinedServer::Removal::kHere);
    output_ended_ = true;
    MaybeReportEnd();
    return;
  }
  // Ends what it left behind where it had no PID namespace, and hands its
  // temporary directory (and an incognito home in it) to a removal of its
  // own: what it left there can take seconds to remove, and the loop serves
  // the other servers and tells of this one's end meanwhile.
  server_.Finish(ConfinedServer::Removal::kInBackground);
  // What it wrote last is in the pipes still: read it now, so its last answer
  // and its last words come before its end. Whatever kept a pipe open (where
  // nothing ended it with a PID namespace) does not hold the end back.
  if (!output_ended_) {
    lines_.Feed(ReadWhatIsThere(output_.native_handle()));
    while (auto line = lines_.Next()) events_.on_line(std::move(*line));
    if (auto rest = lines_.Rest()) events_.on_line(std::move(*rest));
    output_ended_ = true;
  }
  for (std::string& line : stderr_lines_.Feed(ReadWhatIsThere(errors_.native_handle()))) {
    events_.on_stderr_line(std::move(line));
  }
  if (auto rest = stderr_lines_.Finish()) events_.on_stderr_line(*rest);
  MaybeReportEnd();
}

void RunningServer::MaybeReportEnd() {
  if (end_reported_ || !status_ || !output_ended_) return;
  end_reported_ = true;
  boost::system::error_code ignored;
  // Raw pipes stay open for their caller to read what is left.
  if (pipes_ == Pipes::kLines) {
    output_.close(ignored);
    errors_.close(ignored);
  }
  process_.close(ignored);
  const int status = *status_;
  if (events_.on_exit) events_.on_exit(status);
  for (EndHandler& waiter : std::exchange(end_waiters_, {})) {
    boost::asio::dispatch(boost::asio::append(std::move(waiter), status));
  }
}

void RunningServer::AwaitEnd(EndHandler handler) {
  if (!end_reported_) {
    end_waiters_.push_back(std::move(handler));
    return;
  }
  // Never from within the call that asked.
  boost::asio::post(stop_timer_.get_executor(), boost::asio::append(std::move(handler), *status_));
}

void RunningServer::Stop(std::function<void(int status)> done) {
  if (end_reported_) {
    if (done) done(*status_);
    return;
  }
  if (done) end_waiters_.push_back(std::move(done));
  if (stopping_) return;
  stopping_ = true;
  // Its input closed first, so a server that ends when its input does ends
  // cleanly; then SIGTERM, then SIGKILL, which ends its PID namespace.
  CloseInput();
  // A server paused by backpressure is read again, so that it can end.
  paused_ = false;
  ReadOutput();
  stop_timer_.expires_after(kInputClosedGrace);
  stop_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->Escalate(SIGTERM);
  });
}

void RunningServer::Escalate(int signal) {
  if (status_) return;
  server_.Signal(signal);
  if (signal != SIGTERM) return;
  stop_timer_.expires_after(kTerminateGrace);
  stop_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->Escalate(SIGKILL);
  });
}

}  // namespace bravebot
