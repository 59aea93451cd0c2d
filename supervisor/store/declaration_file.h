// The content of mcp.json: the declarations it holds, and the entries that
// cannot be used because they were edited by hand into something a
// declaration cannot be. Pure: text in, values out.
#ifndef BRAVEBOT_SUPERVISOR_STORE_DECLARATION_FILE_H_
#define BRAVEBOT_SUPERVISOR_STORE_DECLARATION_FILE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"

namespace bravebot {

inline constexpr int kDeclarationFormatVersion = 1;

struct UnusableEntry {
  std::string alias;    // the entry's key, as written
  std::string problem;  // what is wrong, in words, never quoting a value
};

struct DeclarationFile {
  std::vector<Declaration> declarations;  // sorted by alias
  std::vector<UnusableEntry> unusable;    // sorted by alias

  // Each found by halving its sorted list.
  const Declaration* Find(std::string_view alias) const;
  const UnusableEntry* FindUnusable(std::string_view alias) const;
};

// The document an empty profile directory starts from.
nlohmann::json EmptyDeclarationDocument();

// Parses the text of mcp.json into its JSON document, checking the parts every
// entry depends on (an object with "version" 1 and a "servers" object). A file
// that is not JSON is kCorrupt, naming `shown_path`, the line and the column,
// and never quoting the text, which may hold keys.
Result<nlohmann::json> ParseDeclarationDocument(std::string_view text,
                                                const std::string& shown_path);

// The declarations of a document ParseDeclarationDocument accepted.
DeclarationFile ReadDeclarations(const nlohmann::json& document);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_DECLARATION_FILE_H_
