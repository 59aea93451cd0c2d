// One declaration as an entry of mcp.json, and back. docs/files.md describes
// the format.
#ifndef BRAVEBOT_SUPERVISOR_STORE_DECLARATION_JSON_H_
#define BRAVEBOT_SUPERVISOR_STORE_DECLARATION_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "base/result.h"
#include "confine/declaration.h"

namespace bravebot {

nlohmann::json DeclarationToJson(const Declaration& declaration);

// Reads the entry `alias` of mcp.json. An entry that a declaration cannot be
// (edited by hand into a wrong shape) is kCorrupt, with what is wrong with it
// in words and never a value from it.
Result<Declaration> DeclarationFromJson(const std::string& alias, const nlohmann::json& entry);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_DECLARATION_JSON_H_
