#include "launcher/bubblewrap_program.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/plain_child.h"
#include "base/unique_fd.h"
#include "profiles/bubblewrap_version.h"

namespace bravebot {
namespace {

std::string NotUsable(const std::string& why) {
  std::string sentence = kBubblewrapPath;
  sentence.append(" cannot be used: ").append(why);
  return sentence;
}

// What `bwrap --version` printed, or why it printed nothing.
BubblewrapProgram AskVersion() {
  BubblewrapProgram program;
  if (::access(kBubblewrapPath, X_OK) != 0) {
    program.why_not = std::string(kBubblewrapPath) + " is not there (" + std::strerror(errno) +
                      "): install the bubblewrap package";
    return program;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    program.why_not =
        NotUsable(std::string("no pipe to read its version: ") + std::strerror(errno));
    return program;
  }
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  Result<PlainChild> bwrap = PlainChild::Start({.program = kBubblewrapPath,
                                                .arguments = {"--version"},
                                                .output = write_end.get(),
                                                .error = kNullDevice});
  write_end.reset();
  if (!bwrap.ok()) {
    const int error = bwrap.error().errno_value();
    program.why_not =
        NotUsable("it does not run: " +
                  (error != 0 ? std::string(std::strerror(error)) : bwrap.error().message()));
    return program;
  }
  std::string output;
  char buffer[256];
  for (;;) {
    ssize_t got = ::read(read_end.get(), buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0 || output.size() > 4096) break;
    output.append(buffer, static_cast<size_t>(got));
  }
  // Closed first, so that one that writes on past what is read ends.
  read_end.reset();
  if (bwrap->Wait() != 0) {
    program.why_not = NotUsable("its --version failed");
    return program;
  }
  program.version = output.substr(0, output.find('\n'));
  const std::string problem = BubblewrapVersionProblem(output);
  if (!problem.empty()) {
    program.why_not = NotUsable(problem);
    return program;
  }
  program.usable = true;
  return program;
}

}  // namespace

const BubblewrapProgram& ProbeBubblewrapOnce() {
  static const BubblewrapProgram program = AskVersion();
  return program;
}

}  // namespace bravebot
