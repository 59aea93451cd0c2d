#include "cli/reach_probe.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cstring>
#include <exception>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "base/bounded_json.h"
#include "base/own_programs.h"
#include "base/unique_fd.h"
#include "cli/start_options.h"
#include "confine/paths.h"
#include "launcher/bubblewrap_program.h"
#include "launcher/filesystem_view.h"
#include "profiles/landlock_plan.h"
#include "supervisor/mcp/json_rpc_lines.h"
#include "supervisor/servers/running_server.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {
namespace {

using boost::asio::awaitable;
using nlohmann::json;
using namespace boost::asio::experimental::awaitable_operators;

// How long the probe is given to make its attempts and report them.
constexpr std::chrono::seconds kProbeTime{30};

// An operation's outcome as values, never as an exception.
constexpr auto kAsValues = boost::asio::as_tuple(boost::asio::use_awaitable);

// A socket bravebot-mcp listens on while the probe runs, for the probe to try.
Result<UniqueFd> Listen(const std::string& address, bool abstract) {
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return Error::FromErrno("create a socket for the probe");
  sockaddr_un name{};
  name.sun_family = AF_UNIX;
  const size_t offset = abstract ? 1 : 0;
  std::memcpy(name.sun_path + offset, address.data(),
              std::min(address.size(), sizeof(name.sun_path) - offset - 1));
  auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset + address.size() +
                                       (abstract ? 0 : 1));
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&name), length) != 0 ||
      ::listen(fd.get(), 4) != 0) {
    return Error::FromErrno("listen on a socket for the probe");
  }
  return fd;
}

bool Grants(const Reach& reach, const std::string& path) {
  for (const ReachPath& granted : reach.paths) {
    if (granted.file_only ? granted.path == path : IsSameOrBeneath(path, granted.path)) return true;
  }
  return false;
}

// What the probe tries that lies outside its reach.
struct OutsideTargets {
  std::string file;    // the profile's mcp.json
  std::string socket;  // a socket bravebot-mcp listens on
};

// True where `path` lies in a place hidden from it (below Landlock ABI 9,
// where others' sockets usually are), and not on a path of its own bound back
// there: nothing is there for it, not even for a look.
bool HiddenFromIt(const Confinement& confinement, const std::string& path) {
  if (!confinement.socket_mask) return false;
  for (const HiddenPlace& place : confinement.socket_mask->hidden) {
    if (!IsSameOrBeneath(path, place.path)) continue;
    for (const BoundBackPath& back : place.bound_back) {
      if (IsSameOrBeneath(path, back.path)) return false;
    }
    return true;
  }
  return false;
}

// What should happen to each check, and why, from the reach and the kernel.
struct Expectation {
  bool allowed;
  std::string why;
};

// Under bubblewrap its root is made of its binds: a path outside them is not
// there, not even to look at, and the machine's /tmp is not its /tmp; it
// shares the machine's network namespace, where abstract sockets live.
void AdjustForBubblewrap(std::map<std::string, Expectation>& expected) {
  const std::string not_there = "under bubblewrap, a path outside its binds is not there for it";
  expected["look at a path outside its reach"] = {false, not_there};
  expected["connect a socket outside its reach"] = {false, not_there};
  expected["connect an abstract socket outside its confinement"] = {
      true, "bubblewrap cannot refuse it: it shares the machine's network namespace"};
}

std::map<std::string, Expectation> Expectations(const Confinement& confinement,
                                                const std::vector<std::string>& may_read,
                                                const OutsideTargets& outside) {
  const Reach& reach = confinement.reach;
  const int abi = confinement.landlock.abi;
  const std::string reach_says = "as its reach says";
  std::map<std::string, Expectation> expected = {
      {"read a file outside its reach", {false, reach_says}},
      {"write its working directory", {true, reach_says}},
      {"write its home", {true, reach_says}},
      {"write the profile directory", {false, reach_says}},
      {"list your home", {false, reach_says}},
      {"connect a socket in a directory it may write", {true, reach_says}},
      {"ptrace bravebot-mcp", {false, "seccomp refuses ptrace"}},
      {"use the kernel keyring", {false, "seccomp refuses keyctl"}},
      {"set up io_uring", {false, "seccomp refuses io_uring"}},
      {"mount a filesystem", {false, "seccomp refuses mount, and it holds no capability"}},
      {"unshare a user namespace", {false, "seccomp refuses unshare"}},
  };
  const std::string hidden = "it lies in a place hidden from it, where others' sockets usually are";
  expected["look at a path outside its reach"] =
      HiddenFromIt(confinement, outside.file) ? Expectation{false, hidden}
                                              : Expectation{true, "a look at any path is given"};
  if (abi >= 9) {
    expected["connect a socket outside its reach"] = {false, reach_says};
  } else if (HiddenFromIt(confinement, outside.socket)) {
    expected["connect a socket outside its reach"] = {false, hidden};
  } else {
    expected["connect a socket outside its reach"] = {
        true, "this kernel cannot refuse it: ABI 9 is needed"};
  }
  expected["connect an abstract socket outside its confinement"] =
      abi >= 6 ? Expectation{false, reach_says}
               : Expectation{true, "this kernel cannot refuse it: ABI 6 is needed"};
  if (confinement.backend.backend == Backend::kBubblewrap) AdjustForBubblewrap(expected);
  if (confinement.isolation.pid_namespace) {
    expected["signal bravebot-mcp"] = {false, "it sees no process outside its PID namespace"};
    expected["see bravebot-mcp's process"] = {false,
                                              "it sees no process outside its PID namespace"};
    expected["read bravebot-mcp's environment"] = {false,
                                                   "it sees no process outside its PID namespace"};
  } else {
    expected["signal bravebot-mcp"] =
        abi >= 6 ? Expectation{false, reach_says}
                 : Expectation{true, "this kernel cannot refuse it: ABI 6 is needed"};
    expected["see bravebot-mcp's process"] = {
        true, "this machine cannot refuse it: it allows no PID namespace"};
    expected["read bravebot-mcp's environment"] = {
        false, "Landlock keeps it from every process outside its confinement"};
  }
  expected["change the mode of a file outside its reach"] =
      confinement.backend.backend == Backend::kBubblewrap
          ? Expectation{false, "under bubblewrap, a path outside its binds is not there for it"}
      : confinement.isolation.user_namespace
          ? Expectation{false, "its filesystem is read-only outside its own directories"}
          : Expectation{true, "this machine cannot refuse it: user namespaces are off"};
  for (const std::string& file : may_read) {
    expected["read a file it may read: " + file] = {Grants(reach, file), reach_says};
  }
  return expected;
}

std::string BackendWords(const Confinement& confinement) {
  if (confinement.backend.backend == Backend::kBubblewrap) {
    return ProbeBubblewrapOnce().version;
  }
  return LandlockAbiWords(confinement.landlock);
}

// Prints every attempt beside what was expected of it; 1 when any differs.
int ReportProbe(const Declaration& declaration, const Confinement& confinement,
                const OutsideTargets& outside, const std::vector<json>& attempts, bool as_json,
                CommandContext& context) {
  std::map<std::string, Expectation> expected =
      Expectations(confinement, declaration.may_read, outside);
  json rows = json::array();
  int contradictions = 0;
  std::string text = "reach --probe of " + declaration.alias + ", under " +
                     BackendWords(confinement) + ", as uid " + std::to_string(::geteuid()) + ":\n";
  for (const json& attempt : attempts) {
    const std::string check = attempt.value("check", "");
    const bool allowed = attempt.value("allowed", false);
    auto expectation = expected.find(check);
    if (expectation == expected.end()) continue;
    const bool as_expected = allowed == expectation->second.allowed;
    if (!as_expected) ++contradictions;
    std::string why = as_expected ? expectation->second.why
                                  : std::string("NOT as its reach says: it should be ") +
                                        (expectation->second.allowed ? "allowed" : "denied");
    text += std::string("  ") + (allowed ? "allowed  " : "denied   ") + check + "\n" +
            "           " + why + "\n";
    rows.push_back({{"check", check},
                    {"allowed", allowed},
                    {"errno", attempt.value("errno", 0)},
                    {"as_expected", as_expected},
                    {"why", why}});
    expected.erase(expectation);
  }
  for (const auto& [check, expectation] : expected) {
    ++contradictions;
    text += "  missing  " + check + "\n           the probe did not report it\n";
    rows.push_back({{"check", check}, {"as_expected", false}, {"why", "not reported"}});
  }
  text += contradictions == 0
              ? "every attempt came out as the reach says\n"
              : std::to_string(contradictions) + " attempt(s) did not come out as the reach says\n";
  if (as_json) {
    context.out << JsonText({{"alias", declaration.alias},
                             {"backend", BackendName(confinement.backend.backend)},
                             {"landlock_abi", confinement.landlock.abi},
                             {"kernel_landlock_abi", confinement.landlock.kernel_abi},
                             {"uid", ::geteuid()},
                             {"attempts", rows},
                             {"contradictions", contradictions}})
                << "\n";
  } else {
    context.out << text;
  }
  return contradictions == 0 ? kExitOk : kExitFailed;
}

// The probe's report, one attempt a line, added to `attempts` until its
// output ends.
awaitable<void> ReadAttempts(boost::asio::posix::stream_descriptor& output,
                             std::vector<json>& attempts) {
  std::string pending;
  for (;;) {
    auto [error, size] = co_await boost::asio::async_read_until(
        output, boost::asio::dynamic_buffer(pending, kMaxLineBytes), '\n', kAsValues);
    if (error) co_return;
    const std::string line = pending.substr(0, size - 1);
    pending.erase(0, size);
    json attempt = ReadBoundedJsonOrDiscarded<json>(line);
    if (attempt.is_object()) attempts.push_back(std::move(attempt));
  }
}

// The probe's run: its input closed (it reads none), its report read until it
// ends or kProbeTime has passed, then the probe stopped as every server is.
awaitable<void> RunProbe(RunningServer& probe, std::vector<json>& attempts) {
  probe.CloseInput();
  boost::asio::steady_timer deadline(co_await boost::asio::this_coro::executor, kProbeTime);
  co_await (ReadAttempts(probe.output(), attempts) || deadline.async_wait(kAsValues));
  co_await probe.AsyncStop(boost::asio::use_awaitable);
}

}  // namespace

int RunReachProbe(const Declaration& declaration, const ProfileDirectory& profile, bool as_json,
                  CommandContext& context) {
  auto fail = [&](const Error& error) { return Report(context, "reach", error); };
  const std::string probe = ProgramBesideThisOne("bravebot-mcp-probe");
  if (probe.empty() || !context.fs.IsExecutableFile(probe)) {
    return fail(Error(ErrorCode::kNotFound,
                      "the probe program bravebot-mcp-probe is not beside bravebot-mcp"));
  }
  Result<RunDirectory> sockets = MakeRunDirectory("/tmp");
  if (!sockets) return fail(sockets.error());
  const std::string outside_socket = JoinPath(sockets->path, "outside.sock");
  const std::string abstract = "bravebot-probe-" + std::to_string(::getpid());
  Result<UniqueFd> outside = Listen(outside_socket, false);
  Result<UniqueFd> abstract_listener = Listen(abstract, true);
  if (!outside || !abstract_listener) {
    RemoveRunDirectory(sockets->path);
    return fail(outside ? abstract_listener.error() : outside.error());
  }

  ServerStartOptions options = StartOptionsFor(context, profile);
  options.program_override = probe;
  options.argv_override = [&](const Reach& reach) -> std::vector<std::string> {
    json targets = {{"outside_file", profile.PathOf("mcp.json")},  // OutsideTargets::file
                    {"may_read", declaration.may_read},
                    {"working_directory", reach.working_directory},
                    {"home", reach.home},
                    {"temporary_directory", reach.temporary_directory},
                    {"outside_write", profile.PathOf("probe-" + std::to_string(::getpid()))},
                    {"user_home", options.user_home.empty() ? "/root" : options.user_home},
                    {"socket_outside", outside_socket},
                    {"abstract", abstract},
                    {"supervisor_pid", ::getpid()}};
    return {probe, targets.dump()};
  };
  boost::asio::io_context io;
  Result<std::shared_ptr<RunningServer>> server =
      RunningServer::StartWithRawPipes(io, declaration, options);
  if (!server) {
    RemoveRunDirectory(sockets->path);
    return fail(server.error());
  }
  std::vector<json> attempts;
  boost::asio::co_spawn(io, RunProbe(**server, attempts), [](const std::exception_ptr& failure) {
    if (failure) std::rethrow_exception(failure);
  });
  io.run();
  const Confinement confinement = (*server)->confinement();
  RemoveRunDirectory(sockets->path);
  return ReportProbe(declaration, confinement, {profile.PathOf("mcp.json"), outside_socket},
                     attempts, as_json, context);
}

}  // namespace bravebot
