// bravebot-mcp-probe: run by `bravebot-mcp reach --probe` under a server's
// own confinement, it tries each thing of a fixed battery and prints one JSON
// line per attempt: {"check": NAME, "allowed": BOOL, "errno": N}. It judges
// nothing; the command that started it compares each line with the reach.
//
//   bravebot-mcp-probe '{"outside_file": "...", "supervisor_pid": 123, ...}'
#include <dirent.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/bounded_json.h"
#include "base/version.h"

namespace {

using nlohmann::json;

void Report(const std::string& check, bool allowed, int errno_value) {
  std::cout
      << json{{"check", check}, {"allowed", allowed}, {"errno", allowed ? 0 : errno_value}}.dump()
      << std::endl;
}

// Reports the outcome of a call that returns -1 on failure.
void Try(const std::string& check, long result) { Report(check, result >= 0, errno); }

void TryRead(const std::string& check, const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Report(check, false, errno);
  char byte;
  long got = ::read(fd, &byte, 1);
  int saved = errno;
  ::close(fd);
  Report(check, got >= 0, saved);
}

void TryWrite(const std::string& check, const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Report(check, false, errno);
  ::close(fd);
  ::unlink(path.c_str());
  Report(check, true, 0);
}

void TryList(const std::string& check, const std::string& path) {
  DIR* directory = ::opendir(path.c_str());
  if (directory == nullptr) return Report(check, false, errno);
  errno = 0;
  bool listed = ::readdir(directory) != nullptr || errno == 0;
  int saved = errno;
  ::closedir(directory);
  Report(check, listed, saved);
}

long ConnectUnix(const std::string& address, bool abstract) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un name{};
  name.sun_family = AF_UNIX;
  size_t offset = abstract ? 1 : 0;  // an abstract name starts with a NUL byte
  std::memcpy(name.sun_path + offset, address.data(),
              std::min(address.size(), sizeof(name.sun_path) - offset - 1));
  socklen_t length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset +
                                            address.size() + (abstract ? 0 : 1));
  long result = ::connect(fd, reinterpret_cast<sockaddr*>(&name), length);
  int saved = errno;
  ::close(fd);
  errno = saved;
  return result;
}

void TryOwnSocket(const std::string& check, const std::string& directory) {
  const std::string path = directory + "/probe.sock";
  int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un name{};
  name.sun_family = AF_UNIX;
  std::strncpy(name.sun_path, path.c_str(), sizeof(name.sun_path) - 1);
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&name), sizeof(name)) != 0 ||
      ::listen(listener, 1) != 0) {
    Report(check, false, errno);
  } else {
    Try(check, ConnectUnix(path, false));
  }
  if (listener >= 0) ::close(listener);
  ::unlink(path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << bravebot::VersionLine("bravebot-mcp-probe");
    return 0;
  }
  if (argc != 2) {
    std::cerr << "bravebot-mcp-probe is run by bravebot-mcp reach --probe, with its targets\n";
    return 2;
  }
  const json targets = bravebot::ReadBoundedJsonOrDiscarded<json>(argv[1]);
  if (!targets.is_object()) return 2;
  auto text = [&](const char* key) { return targets.value(key, std::string()); };
  const pid_t supervisor = targets.value("supervisor_pid", 0);

  TryRead("read a file outside its reach", text("outside_file"));
  for (const auto& file : targets.value("may_read", json::array())) {
    TryRead("read a file it may read: " + file.get<std::string>(), file.get<std::string>());
  }
  TryWrite("write its working directory", text("working_directory") + "/.bravebot-probe");
  TryWrite("write its home", text("home") + "/.bravebot-probe");
  TryWrite("write the profile directory", text("outside_write"));
  TryList("list your home", text("user_home"));
  struct stat status;
  Try("look at a path outside its reach", ::stat(text("outside_file").c_str(), &status));
  // To the mode it has already: allowed or not, nothing changes.
  Try("change the mode of a file outside its reach",
      ::chmod(text("outside_file").c_str(), status.st_mode & 07777));
  TryOwnSocket("connect a socket in a directory it may write", text("temporary_directory"));
  Try("connect a socket outside its reach", ConnectUnix(text("socket_outside"), false));
  Try("connect an abstract socket outside its confinement", ConnectUnix(text("abstract"), true));
  Try("signal bravebot-mcp", ::kill(supervisor, 0));
  Try("see bravebot-mcp's process",
      ::stat(("/proc/" + std::to_string(supervisor)).c_str(), &status));
  Try("ptrace bravebot-mcp", ::ptrace(PTRACE_ATTACH, supervisor, nullptr, nullptr));
  Try("use the kernel keyring",
      ::syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0));
  io_uring_params params{};
  long ring = ::syscall(SYS_io_uring_setup, 1, &params);
  Try("set up io_uring", ring);
  if (ring >= 0) ::close(static_cast<int>(ring));
  Try("mount a filesystem",
      ::mount("none", text("temporary_directory").c_str(), "tmpfs", 0, nullptr));
  Try("unshare a user namespace", ::unshare(CLONE_NEWUSER));
  TryRead("read bravebot-mcp's environment", "/proc/" + std::to_string(supervisor) + "/environ");
  return 0;
}
