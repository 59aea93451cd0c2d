// An HTTP server on a loopback port that answers each request it is sent
// with the next answer of its script, as raw bytes, in pieces and with
// pauses where the script says: so a test controls every byte a service
// sends, a stream cut in the middle and an answer that never comes
// included. It keeps every request it read, head and body.
//
//   ScriptedHttpServer server({{{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"}}}});
//   http.Send(server.Url("/mcp"), ...);
//   server.requests()[0]  // "POST /mcp HTTP/1.1\r\n...\r\n\r\n{...}"
#ifndef BRAVEBOT_TESTS_SUPERVISOR_TESTING_SCRIPTED_HTTP_SERVER_H_
#define BRAVEBOT_TESTS_SUPERVISOR_TESTING_SCRIPTED_HTTP_SERVER_H_

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bravebot::testing {

struct ScriptedPiece {
  std::string bytes;
  std::chrono::milliseconds pause_after{0};
};

struct ScriptedAnswer {
  std::vector<ScriptedPiece> pieces;
  // After the last piece: close the connection (false: keep it open, an
  // answer never finished, until the server ends).
  bool close = true;
  // Given only to a request that holds these bytes ("" for any): for
  // requests a client sends at once, whose order of arrival is not known.
  // One whose `when` begins "GET " is given to a GET that begins so, and
  // to nothing else.
  std::string when = "";
};

class ScriptedHttpServer {
 public:
  // Each POST is given the first answer of `script` not given yet (whose
  // `when` it holds). Every GET (a client opening the stream a service
  // sends on of its own accord, whenever it chooses to) is answered 405
  // but where an answer for GETs is left, and every DELETE (a session
  // ended) 200, so the order of the script does not hang on when those come.
  explicit ScriptedHttpServer(std::vector<ScriptedAnswer> script);
  ~ScriptedHttpServer();

  std::string Url(const std::string& path) const;
  int port() const { return port_; }
  // Every request read so far, whole.
  std::vector<std::string> requests() const;

 private:
  void Serve();
  void Answer(int connection, const ScriptedAnswer& answer);

  std::vector<ScriptedAnswer> script_;
  int listener_ = -1;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
  std::vector<int> open_connections_;
  bool stopping_ = false;
  std::thread thread_;
  std::vector<std::thread> answering_;  // one a request, each until its answer is written
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_SUPERVISOR_TESTING_SCRIPTED_HTTP_SERVER_H_
