// One confined stdio server's whole life on an event loop, the one way a
// server is run (the supervisor, mcp-run in each mode, reach --probe): its
// start, its end noticed through the pidfd taken at its start, its stop
// asynchronous and always the same (servers/stop_sequence.h), and what it left
// ended and removed once it has ended. Nothing here blocks the loop.
//
// Its pipes are read one of two ways. Started with Start, as lines: its
// output line by line, its standard error always, what is written to it
// queued.
//
//   RunningServer::Start(io, declaration, options, events, [](auto server) { ... });
//   server->Write(line);                 // a line to its standard input
//   server->PauseOutput();               // backpressure: read no more lines
//   server->Stop([](int status) { ... });
//
// Started with StartWithRawPipes, by its caller, as bytes (mcp-run --stdio
// relays them as they are); a coroutine waits for its end or stops it:
//
//   auto server = RunningServer::StartWithRawPipes(io, declaration, options);
//   ... co_await async_read_some(server->output(), ...)
//   int status = co_await server->AsyncStop(boost::asio::use_awaitable);
//
// Bounded whatever the server does: a line of its output past kMaxLineBytes
// ends the reading (events.on_overflow) and the caller stops it; its standard
// error costs StderrLines' tail; its output is read only while not paused.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_RUNNING_SERVER_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_RUNNING_SERVER_H_

#include <array>
#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/mcp/line_splitter.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/servers/line_queue.h"
#include "supervisor/servers/server_channel.h"
#include "supervisor/servers/stderr_lines.h"
#include "supervisor/servers/stop_sequence.h"

namespace bravebot {

struct ServerEvents {
  std::function<void(std::string line)> on_line;         // a line of its output
  std::function<void(std::string line)> on_stderr_line;  // a line of its standard error, escaped
  std::function<void()> on_overflow;                     // a line of its output too long to read
  // Its output ended while it still runs (most often because it is ending:
  // on_exit follows). Optional.
  std::function<void()> on_output_closed;
  // It ended, by itself or stopped: its status as a shell gives it. Called
  // once, after the last line of its output was given. Optional.
  std::function<void(int status)> on_exit;
};

class RunningServer : public ServerChannel, public std::enable_shared_from_this<RunningServer> {
 public:
  // Starts it from a launcher thread (servers/launcher_threads.h), or where
  // `where` says, and gives `launched` the running server, or why it could
  // not start, from the loop.
  // What `options` points to must outlive the launch, and the loop must
  // outlive the launch or its Abandon().
  using Launched = std::function<void(Result<std::shared_ptr<RunningServer>> server)>;
  class PendingLaunch;
  // kThisThread launches before Start returns, blocking the caller for the
  // launch (about a millisecond), and makes no launcher thread: for a
  // program that starts one server and has nothing else to do meanwhile.
  // `launched` still comes from the loop.
  enum class LaunchOn { kLauncherThread, kThisThread };
  static std::shared_ptr<PendingLaunch> Start(boost::asio::io_context& io,
                                              const Declaration& declaration,
                                              const ServerStartOptions& options,
                                              ServerEvents events, Launched launched,
                                              LaunchOn where = LaunchOn::kLauncherThread);

  // Starts it on this thread, for a program that runs one server and has
  // nothing else to do meanwhile, and gives its pipes to the caller as they
  // are (input(), output(), errors()): nothing of them is read or written
  // here, and they stay open until this object goes, so that what it wrote
  // last can be read after its end. Its run directory is removed on this
  // thread once it has ended, before its end is reported.
  static Result<std::shared_ptr<RunningServer>> StartWithRawPipes(
      boost::asio::io_context& io, const Declaration& declaration,
      const ServerStartOptions& options);
  ~RunningServer() override;

  // Its pipes, for the caller of StartWithRawPipes to read and write (not
  // open where its options gave it the caller's own streams). Its input is
  // closed by CloseInput, Stop and its end.
  boost::asio::posix::stream_descriptor& input() { return input_; }
  boost::asio::posix::stream_descriptor& output() { return output_; }
  boost::asio::posix::stream_descriptor& errors() { return errors_; }

  // Closes its standard input, so that it can end by itself; what was queued
  // for it goes. Stop begins so too.
  void CloseInput();

  // Queues `line` (and a '\n') for its standard input. False when its input
  // is closed, or the queue holds more than kMaxQueuedInputBytes: a server
  // that reads nothing is not given memory without end.
  bool Write(std::string line) override;
  static constexpr std::size_t kMaxQueuedInputBytes = std::size_t{32} << 20;

  void PauseOutput() override;
  void ResumeOutput() override;

  // Ends it and everything it started, in the steps of stop_sequence.h;
  // `done` gets its status. A second call only adds `done`.
  void Stop(std::function<void(int status)> done = nullptr) override;

  // Completes with its status once it has ended, by itself or stopped, and
  // its end was given (after on_exit); at once where it has. Stops nothing,
  // and cannot be cancelled: a wait with a limit stops it when the limit
  // passes, and goes on waiting.
  template <typename CompletionToken>
  auto AsyncEnd(CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(int)>(
        [self = shared_from_this()](auto handler) { self->AwaitEnd(std::move(handler)); }, token);
  }
  // Stop, completing as AsyncEnd does.
  template <typename CompletionToken>
  auto AsyncStop(CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(int)>(
        [self = shared_from_this()](auto handler) {
          self->AwaitEnd(std::move(handler));
          self->Stop();
        },
        token);
  }

  pid_t pid() const override { return server_.pid(); }
  bool ended() const override { return status_.has_value(); }
  std::optional<int> status() const { return status_; }
  const StderrLines& stderr_lines() const { return stderr_lines_; }
  std::vector<std::string> stderr_tail() const override { return stderr_lines_.tail(); }
  // Whether it wrote anything on its output yet.
  bool wrote_output() const override { return wrote_output_; }
  const Confinement& confinement() const { return server_.confinement(); }
  // Its temporary directory for this run, which its end removes (started
  // with Start, on a thread of its own: RemoveRunDirectoryInBackground);
  // empty after.
  std::string run_directory() const override { return server_.run_directory(); }

 private:
  // Its pipes read as lines (Start), or left to the caller (StartWithRawPipes).
  enum class Pipes { kLines, kRaw };
  RunningServer(boost::asio::io_context& io, ConfinedServer server, ServerEvents events,
                Pipes pipes);
  using EndHandler = boost::asio::any_completion_handler<void(int)>;
  void AwaitEnd(EndHandler handler);
  void ReadOutput();
  void ReadStderr();
  void WaitForEnd();
  void WriteNext();
  void Escalate(int signal);
  void Ended(int status);
  void MaybeReportEnd();

  ConfinedServer server_;
  ServerEvents events_;
  Pipes pipes_;
  boost::asio::posix::stream_descriptor input_;
  boost::asio::posix::stream_descriptor output_;
  boost::asio::posix::stream_descriptor errors_;
  boost::asio::posix::stream_descriptor process_;  // the pidfd
  boost::asio::steady_timer stop_timer_;
  std::array<char, 65536> output_buffer_;
  std::array<char, 4096> errors_buffer_;
  LineSplitter lines_;
  StderrLines stderr_lines_;
  LineQueue queued_;  // what waits for its standard input
  bool writing_ = false;
  bool input_closed_ = false;
  bool reading_output_ = false;
  bool paused_ = false;
  bool output_ended_ = false;
  bool wrote_output_ = false;
  bool stopping_ = false;
  bool end_reported_ = false;
  std::optional<int> status_;
  std::vector<EndHandler> end_waiters_;  // Stop's `done`s, and AsyncEnd's
};

// A launch under way on a launcher thread.
class RunningServer::PendingLaunch {
 public:
  explicit PendingLaunch(boost::asio::io_context& io);
  // Its outcome is not wanted (its owner is going): it is not given, and a
  // server it started is stopped where it was launched. The loop may go once
  // this returns.
  void Abandon();

 private:
  friend class RunningServer;
  std::mutex mutex_;
  boost::asio::io_context* io_;  // null once abandoned or given
  // Keeps the loop running until the outcome is on it.
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_RUNNING_SERVER_H_
