#include "cli/import_aliases.h"

#include <map>

#include "confine/declaration.h"

namespace bravebot {
namespace {

constexpr std::size_t kLongestAlias = 64;
constexpr const char* kAliasRule = "is not an alias (letters, digits, - and _)";

bool IsAliasCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// The entry as a sentence names it: "db", or "db from the project /home/u/app".
std::string Described(const ImportEntry& entry) {
  return entry.origin.empty() ? entry.name : entry.name + " from " + entry.origin;
}

}  // namespace

std::string AliasMadeFrom(std::string_view name) {
  std::string alias;
  for (char c : name) {
    const char kept = IsAliasCharacter(c) ? c : '-';
    if (kept == '-' && (alias.empty() || alias.back() == '-')) continue;
    alias += kept;
  }
  while (!alias.empty() && (alias.front() == '-' || alias.front() == '_')) alias.erase(0, 1);
  if (alias.size() > kLongestAlias) alias.resize(kLongestAlias);
  while (!alias.empty() && alias.back() == '-') alias.pop_back();
  return IsValidAlias(alias) ? alias : "";
}

void ClaimAliases(std::vector<ImportEntry>& entries) {
  std::map<std::string, std::size_t> claimed;  // alias → the entry that has it
  auto claim = [&](std::size_t index, const std::string& alias) {
    ImportEntry& entry = entries[index];
    auto [first, fresh] = claimed.emplace(alias, index);
    if (fresh) {
      entry.alias = alias;
      return;
    }
    const ImportEntry& earlier = entries[first->second];
    if (earlier.add_words == entry.add_words) {
      entry.alias = alias;
      entry.same_as_earlier = true;
      return;
    }
    entry.refusal = alias == entry.name
                        ? Described(earlier) + " comes first and takes the alias " + alias +
                              ": bravebot-mcp add ANOTHER-ALIAS declares this one"
                        : "\"" + entry.name + "\" " + kAliasRule + ", and " + alias +
                              ", the alias made from it, is another server's here: bravebot-mcp "
                              "add ALIAS declares it";
  };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].refusal.empty() && IsValidAlias(entries[i].name)) claim(i, entries[i].name);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    ImportEntry& entry = entries[i];
    if (!entry.refusal.empty() || IsValidAlias(entry.name)) continue;
    const std::string made = AliasMadeFrom(entry.name);
    if (made.empty()) {
      entry.refusal = "\"" + entry.name + "\" " + kAliasRule +
                      ", and no alias can be made from it: bravebot-mcp add ALIAS declares it";
      continue;
    }
    claim(i, made);
  }
  for (ImportEntry& entry : entries) {
    if (!entry.refusal.empty()) entry.add_words.clear();
  }
}

}  // namespace bravebot
