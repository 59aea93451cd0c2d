#include "supervisor/store/declaration_store.h"

#include "base/file_lock.h"
#include "base/files.h"
#include "supervisor/store/declaration_json.h"
#include "supervisor/store/file_bounds.h"

namespace bravebot {

using nlohmann::json;

Result<json> DeclarationStore::ReadDocument() const {
  Result<std::string> text =
      ReadFileAt(profile_.fd(), kDeclarationFileName, path(), kDeclarationFileBound);
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return EmptyDeclarationDocument();
    return text.error();
  }
  return ParseDeclarationDocument(*text, path());
}

Result<DeclarationFile> DeclarationStore::Read() const {
  BRAVEBOT_ASSIGN_OR_RETURN(json document, ReadDocument());
  return ReadDeclarations(document);
}

Status DeclarationStore::Change(const std::function<Status(json& servers)>& change) {
  RemoveAbandonedTemporaries(profile_.fd(), kDeclarationFileName);

  BRAVEBOT_ASSIGN_OR_RETURN(json document, ReadDocument());
  if (auto changed = change(document["servers"]); !changed) return changed;

  std::string text;
  try {
    text = document.dump(2) + "\n";
  } catch (const json::type_error&) {
    return Error(ErrorCode::kRefused,
                 "a word of the declaration is not UTF-8 text, which " + path() + " cannot hold");
  }
  return ReplaceFileAt(profile_.fd(), kDeclarationFileName, text, 0600, path());
}

Result<std::optional<Declaration>> DeclarationStore::Put(const Declaration& declaration,
                                                         const FileLock& /*held*/) {
  std::optional<Declaration> replaced;
  BRAVEBOT_RETURN_IF_ERROR(Change([&](json& servers) -> Status {
    if (servers.contains(declaration.alias)) {
      Result<Declaration> old = DeclarationFromJson(declaration.alias, servers[declaration.alias]);
      if (old) replaced = std::move(*old);
    }
    servers[declaration.alias] = DeclarationToJson(declaration);
    return {};
  }));
  return replaced;
}

Result<std::optional<Declaration>> DeclarationStore::Remove(const std::string& alias,
                                                            const FileLock& /*held*/) {
  std::optional<Declaration> removed;
  BRAVEBOT_RETURN_IF_ERROR(Change([&](json& servers) -> Status {
    if (!servers.contains(alias)) {
      return Error(ErrorCode::kNotFound, alias + " is not declared in " + path());
    }
    Result<Declaration> old = DeclarationFromJson(alias, servers[alias]);
    if (old) removed = std::move(*old);
    servers.erase(alias);
    return {};
  }));
  return removed;
}

}  // namespace bravebot
