#include "cli/gateway/tool_names.h"

#include <set>

#include "base/sha256.h"

namespace bravebot {
namespace {

bool Allowed(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

std::string Plain(const ServerTool& tool) {
  std::string name = tool.alias + "__" + tool.tool;
  for (char& c : name) {
    if (!Allowed(c)) c = '_';
  }
  return name;
}

// Its first characters and eight hex digits of its full name's hash: the
// hash tells apart two tools whose names agree for as long as is kept.
std::string Hashed(const ServerTool& tool, const std::string& plain) {
  constexpr std::size_t kHashDigits = 8;
  const std::size_t kept = kLongestGatewayToolName - kHashDigits - 1;
  return plain.substr(0, kept) + "_" +
         Sha256Hex(tool.alias + ":" + tool.tool).substr(0, kHashDigits);
}

}  // namespace

std::map<ServerTool, GatewayToolName> GatewayToolNames(
    const std::vector<ServerTool>& tools, const std::vector<std::string>& taken,
    const std::map<std::string, ServerTool>& given_before) {
  std::map<std::string, int> plain_count;
  for (const std::string& name : taken) plain_count[name] += 2;  // never given away
  for (const ServerTool& tool : tools) ++plain_count[Plain(tool)];
  std::map<ServerTool, GatewayToolName> names;
  for (const ServerTool& tool : tools) {
    std::string plain = Plain(tool);
    auto before = given_before.find(plain);
    const bool fits = plain.size() <= kLongestGatewayToolName && plain_count[plain] == 1 &&
                      (before == given_before.end() || before->second == tool);
    names[tool] = fits ? GatewayToolName{plain, plain != tool.alias + "__" + tool.tool}
                       : GatewayToolName{Hashed(tool, plain), true};
  }
  return names;
}

}  // namespace bravebot
