// Feeds arbitrary bytes to the administrator file's reader. Beyond not
// crashing: a file it reads as a policy names every path in its refusal, a
// broken one refuses every server, and no entry it keeps is empty.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "supervisor/policy/managed_policy.h"

namespace {

constexpr char kPath[] = "/etc/bravebot/managed.json";

bravebot::Declaration Stdio() {
  bravebot::Declaration declaration;
  declaration.alias = "weather";
  declaration.program = "/usr/bin/npx";
  declaration.arguments = {"-y", "weather-mcp@1.4.0"};
  return declaration;
}

bravebot::Declaration Http() {
  bravebot::Declaration declaration;
  declaration.alias = "docs";
  declaration.transport = bravebot::Transport::kHttp;
  declaration.url = "https://mcp.example.com/mcp";
  return declaration;
}

void CheckEntries(const std::optional<std::vector<bravebot::ManagedEntry>>& entries) {
  if (!entries) return;
  for (const bravebot::ManagedEntry& entry : *entries) {
    if (entry.kind == bravebot::ManagedEntry::Kind::kHost ? entry.host.empty()
                                                          : entry.command.empty()) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto policy = bravebot::ParseManagedPolicy(text, kPath);
  if (!policy) {
    // What is wrong is said after the path, never in place of it.
    if (!policy.error().message().starts_with(kPath)) std::abort();
    return 0;
  }
  if (policy->broken()) std::abort();
  CheckEntries(policy->allow);
  CheckEntries(policy->deny);
  for (const bravebot::Declaration& declaration : {Stdio(), Http()}) {
    bravebot::ManagedDecision decision =
        bravebot::Decide(*policy, declaration, declaration.program);
    if (!decision.allowed && !decision.reason.starts_with(kPath)) std::abort();
  }
  (void)bravebot::PinnedKeys(*policy);
  return 0;
}
