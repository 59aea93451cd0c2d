// The answers a scripted service (tests/supervisor/testing/
// scripted_http_server.h) gives, for the tests that drive services through
// the supervisor and through bravebot-mcp session.
#ifndef BRAVEBOT_INTEGRATION_SCRIPTED_SERVICES_H_
#define BRAVEBOT_INTEGRATION_SCRIPTED_SERVICES_H_

#include <string>
#include <vector>

#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot::testing {

// One whole HTTP answer: `headers` are "Name: value\r\n" lines.
inline std::string Http(const std::string& status, const std::string& headers,
                        const std::string& body) {
  return "HTTP/1.1 " + status + "\r\n" + headers +
         "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// A whole handshake, `times` times over: initialize answered with a session,
// notifications/initialized taken, and tools/list giving one tool, ping.
inline std::vector<ScriptedAnswer> Handshakes(int times) {
  const std::string hello =
      R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}})";
  const std::string tools =
      R"({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"ping","inputSchema":)"
      R"({"type":"object"}}]}})";
  std::vector<ScriptedAnswer> script;
  for (int i = 0; i < times; ++i) {
    script.push_back(
        {{{Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-9\r\n", hello)}}});
    script.push_back({{{Http("202 Accepted", "", "")}}});
    script.push_back({{{Http("200 OK", "Content-Type: application/json\r\n", tools)}}});
  }
  return script;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_SCRIPTED_SERVICES_H_
