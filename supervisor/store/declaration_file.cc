#include "supervisor/store/declaration_file.h"

#include <algorithm>
#include <cstdint>

#include "supervisor/store/declaration_json.h"
#include "supervisor/store/json_text.h"

namespace bravebot {
namespace {

using nlohmann::json;

Error Corrupt(const std::string& shown_path, const std::string& why) {
  return Error(ErrorCode::kCorrupt, shown_path + " " + why +
                                        ". It was left as it is: mend it by hand, or move it "
                                        "away to start again");
}

// Both lists are sorted by alias, so a session that looks up each of the
// 100,000 aliases a settings file may ask for costs no more than its length
// times the logarithm of the declarations'.
template <typename Entry>
const Entry* FindSorted(const std::vector<Entry>& entries, std::string_view alias) {
  auto found = std::lower_bound(
      entries.begin(), entries.end(), alias,
      [](const Entry& entry, std::string_view key) { return std::string_view(entry.alias) < key; });
  return found != entries.end() && found->alias == alias ? &*found : nullptr;
}

}  // namespace

const Declaration* DeclarationFile::Find(std::string_view alias) const {
  return FindSorted(declarations, alias);
}

const UnusableEntry* DeclarationFile::FindUnusable(std::string_view alias) const {
  return FindSorted(unusable, alias);
}

json EmptyDeclarationDocument() {
  return json{{"version", kDeclarationFormatVersion}, {"servers", json::object()}};
}

Result<json> ParseDeclarationDocument(std::string_view text, const std::string& shown_path) {
  Result<json> parsed = ParseJsonText(text);
  if (!parsed) return Corrupt(shown_path, parsed.error().message());
  json document = std::move(*parsed);
  if (!document.is_object()) return Corrupt(shown_path, "is not a JSON object");
  if (!document.contains("version") || !document["version"].is_number_integer()) {
    return Corrupt(shown_path, "has no format version (a \"version\" number)");
  }
  // Read as unsigned where it is one, so a huge version reads as newer rather
  // than wrapping to a negative one.
  const json& version_value = document["version"];
  const long long version =
      version_value.is_number_unsigned() && version_value.get<unsigned long long>() > INT32_MAX
          ? INT32_MAX
          : version_value.get<long long>();
  if (version > kDeclarationFormatVersion) {
    return Error(ErrorCode::kCorrupt,
                 shown_path + " is in format version " + std::to_string(version) +
                     ", written by a newer bravebot-mcp, and this one reads version " +
                     std::to_string(kDeclarationFormatVersion) +
                     ": use the newer one. It was left as it is");
  }
  if (version != kDeclarationFormatVersion) {
    return Corrupt(shown_path, "has a format version no bravebot-mcp writes");
  }
  if (!document.contains("servers") || !document["servers"].is_object()) {
    return Corrupt(shown_path, "has no \"servers\" object");
  }
  return document;
}

DeclarationFile ReadDeclarations(const json& document) {
  DeclarationFile file;
  for (const auto& [alias, entry] : document.at("servers").items()) {
    Result<Declaration> declaration = DeclarationFromJson(alias, entry);
    if (declaration) {
      file.declarations.push_back(std::move(*declaration));
    } else {
      file.unusable.push_back({alias, declaration.error().message()});
    }
  }
  // nlohmann::json keeps object keys sorted already; sorting says so here.
  std::sort(file.declarations.begin(), file.declarations.end(),
            [](const Declaration& a, const Declaration& b) { return a.alias < b.alias; });
  return file;
}

}  // namespace bravebot
