// Feeds arbitrary bytes to the settings file reader, as a session reads a
// checkout's .bravebot/settings.json: the document, its mcp.request and its
// Mcp rules. Beyond not crashing: the aliases it asks for are valid and each
// there once, and a document written back as enable writes it reads back
// asking for the same, with the same rules deciding alike.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "confine/declaration.h"
#include "supervisor/store/settings_file.h"
#include "supervisor/tools/mcp_rules.h"

namespace {

constexpr char kPath[] = "/w/.bravebot/settings.json";

// What a document asks for and how its rules decide for each alias asked for
// and a tool: compared across a write and a read.
struct Reading {
  std::vector<std::string> aliases;
  std::vector<size_t> unusable_positions;
  std::vector<bravebot::RuleVerdict> verdicts;
  size_t notes = 0;
  bool operator==(const Reading&) const = default;
};

bool Read(const nlohmann::json& document, Reading& reading) {
  auto request = bravebot::McpRequestOf(document, kPath);
  if (!request) return false;
  std::set<std::string> once;
  for (const std::string& alias : request->aliases) {
    if (!bravebot::IsValidAlias(alias) || !once.insert(alias).second) std::abort();
    if (!request->Requests(alias)) std::abort();
  }
  bravebot::McpRules rules;
  rules.AddRulesOf(document, kPath);
  reading.aliases = request->aliases;
  reading.unusable_positions = request->unusable_positions;
  for (const std::string& alias : request->aliases) {
    reading.verdicts.push_back(rules.Decide(alias, "get_alerts"));
  }
  reading.notes = rules.notes().size();
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  bravebot::NumbersAsWritten numbers;
  auto document = bravebot::ParseSettingsDocument(text, kPath, &numbers);
  if (!document) return 0;
  Reading before;
  if (!Read(*document, before)) return 0;

  auto written = bravebot::SerializeSettingsDocument(*document, kPath, numbers);
  if (!written) return 0;  // a string that is not UTF-8 is refused, never written
  auto again = bravebot::ParseSettingsDocument(*written, kPath);
  if (!again || *again != *document) std::abort();
  Reading after;
  if (!Read(*again, after) || !(after == before)) std::abort();
  return 0;
}
