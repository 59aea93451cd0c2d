#include "tests/supervisor/testing/scripted_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace bravebot::testing {
namespace {

// Reads one request, head and body (by its Content-Length); "" at the end.
std::string ReadRequest(int connection) {
  std::string request;
  char buffer[4096];
  std::size_t head_end = std::string::npos;
  while ((head_end = request.find("\r\n\r\n")) == std::string::npos) {
    ssize_t got = ::read(connection, buffer, sizeof(buffer));
    if (got <= 0) return "";
    request.append(buffer, static_cast<std::size_t>(got));
  }
  std::size_t length = 0;
  for (std::size_t line = 0; line < head_end;) {
    std::size_t end = request.find("\r\n", line);
    if (::strncasecmp(request.c_str() + line, "content-length:", 15) == 0) {
      length = std::strtoul(request.c_str() + line + 15, nullptr, 10);
    }
    line = end + 2;
  }
  while (request.size() < head_end + 4 + length) {
    ssize_t got = ::read(connection, buffer, sizeof(buffer));
    if (got <= 0) break;
    request.append(buffer, static_cast<std::size_t>(got));
  }
  return request;
}

}  // namespace

ScriptedHttpServer::ScriptedHttpServer(std::vector<ScriptedAnswer> script)
    : script_(std::move(script)) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // A loopback port of its own, or the test that needs one cannot be run.
  socklen_t size = sizeof(address);
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(listener_, 16) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    std::perror("ScriptedHttpServer: no loopback port");
    std::abort();
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

ScriptedHttpServer::~ScriptedHttpServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (int connection : open_connections_) ::shutdown(connection, SHUT_RDWR);
  }
  ::shutdown(listener_, SHUT_RDWR);
  thread_.join();
  for (std::thread& answering : answering_) answering.join();
  ::close(listener_);
}

std::string ScriptedHttpServer::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<std::string> ScriptedHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

void ScriptedHttpServer::Serve() {
  std::vector<bool> given(script_.size(), false);
  for (;;) {
    int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) {
        ::close(connection);
        return;
      }
      open_connections_.push_back(connection);
    }
    // One request a connection is all a script needs; the client's next
    // request, on a new connection, gets the next answer.
    std::string request = ReadRequest(connection);
    if (!request.empty()) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        requests_.push_back(request);
      }
      ScriptedAnswer answer{
          {{"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
            "Connection: close\r\n\r\n"}}};
      const bool get = request.starts_with("GET ");
      if (request.starts_with("DELETE ")) {
        answer = {{{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"}}};
      } else {
        if (!get) answer = {{{"HTTP/1.1 500 No Script\r\nContent-Length: 0\r\n\r\n"}}};
        for (std::size_t i = 0; i < script_.size(); ++i) {
          const std::string& when = script_[i].when;
          if (given[i] || when.starts_with("GET ") != get) continue;
          if (request.find(when) == std::string::npos) continue;
          given[i] = true;
          answer = script_[i];
          break;
        }
      }
      // Each answered on a thread of its own, so that one held open does
      // not hold up the next request.
      std::lock_guard<std::mutex> lock(mutex_);
      answering_.emplace_back([this, connection, answer] { Answer(connection, answer); });
      continue;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    std::erase(open_connections_, connection);
    ::close(connection);
  }
}

void ScriptedHttpServer::Answer(int connection, const ScriptedAnswer& answer) {
  for (const ScriptedPiece& piece : answer.pieces) {
    // A client that has gone is EPIPE, not SIGPIPE, which would end the test
    // program: a client may close before an answer it no longer waits for.
    if (::send(connection, piece.bytes.data(), piece.bytes.size(), MSG_NOSIGNAL) < 0) break;
    std::this_thread::sleep_for(piece.pause_after);
  }
  if (!answer.close) {
    char byte;
    while (::read(connection, &byte, 1) > 0) {  // until the client or the test ends it
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase(open_connections_, connection);
  ::close(connection);
}

}  // namespace bravebot::testing
