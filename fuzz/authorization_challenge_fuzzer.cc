// Feeds arbitrary bytes to the WWW-Authenticate reader. Beyond not
// crashing: what it reads, written out again in the grammar's plainest
// form, reads back the same, so no two readings of one value can differ.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "supervisor/auth/authorization_challenge.h"

namespace {

std::string Quoted(const std::string& value) {
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string Written(const std::vector<bravebot::AuthChallenge>& challenges) {
  std::string text;
  for (const bravebot::AuthChallenge& challenge : challenges) {
    if (!text.empty()) text += ", ";
    text += challenge.scheme;
    if (challenge.token68) text += " " + *challenge.token68;
    for (size_t i = 0; i < challenge.parameters.size(); ++i) {
      text += i == 0 ? " " : ", ";
      text += challenge.parameters[i].first + "=" + Quoted(challenge.parameters[i].second);
    }
  }
  return text;
}

bool Same(const bravebot::AuthChallenge& a, const bravebot::AuthChallenge& b) {
  return a.scheme == b.scheme && a.token68 == b.token68 && a.parameters == b.parameters;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view value(reinterpret_cast<const char*>(data), size);
  auto challenges = bravebot::ParseAuthChallenges(value);
  (void)bravebot::ReadBearerChallenge(value);
  if (!challenges.ok()) return 0;
  auto again = bravebot::ParseAuthChallenges(Written(*challenges));
  if (!again.ok() || again->size() != challenges->size()) std::abort();
  for (size_t i = 0; i < challenges->size(); ++i) {
    if (!Same((*challenges)[i], (*again)[i])) std::abort();
  }
  return 0;
}
