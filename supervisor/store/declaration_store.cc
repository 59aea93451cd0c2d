#include "supervisor/store/declaration_store.h"

#include "base/file_lock.h"
#include "base/files.h"
#include "supervisor/store/declaration_json.h"

namespace bravebot {

using nlohmann::json;

Result<json> DeclarationStore::ReadDocument() const {
  Result<std::string> text = ReadFileAt(profile_.fd(), kDeclarationFileName, path());
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return EmptyDeclarationDocument();
    return text.error();
  }
  return ParseDeclarationDocument(*text, path());
}

Result<DeclarationFile> DeclarationStore::Read() const {
  Result<json> document = ReadDocument();
  if (!document) return document.error();
  return ReadDeclarations(*document);
}

Status DeclarationStore::Change(const std::function<Status(json& servers)>& change) {
  RemoveAbandonedTemporaries(profile_.fd(), kDeclarationFileName);

  Result<json> document = ReadDocument();
  if (!document) return document.error();
  if (auto changed = change((*document)["servers"]); !changed) return changed;

  std::string text;
  try {
    text = document->dump(2) + "\n";
  } catch (const json::type_error&) {
    return Error(ErrorCode::kRefused,
                 "a word of the declaration is not UTF-8 text, which " + path() + " cannot hold");
  }
  return ReplaceFileAt(profile_.fd(), kDeclarationFileName, text, 0600, path());
}

Result<std::optional<Declaration>> DeclarationStore::Put(const Declaration& declaration,
                                                         const FileLock& /*held*/) {
  std::optional<Declaration> replaced;
  Status status = Change([&](json& servers) -> Status {
    if (servers.contains(declaration.alias)) {
      Result<Declaration> old = DeclarationFromJson(declaration.alias, servers[declaration.alias]);
      if (old) replaced = std::move(*old);
    }
    servers[declaration.alias] = DeclarationToJson(declaration);
    return {};
  });
  if (!status) return status.error();
  return replaced;
}

Result<std::optional<Declaration>> DeclarationStore::Remove(const std::string& alias,
                                                            const FileLock& /*held*/) {
  std::optional<Declaration> removed;
  Status status = Change([&](json& servers) -> Status {
    if (!servers.contains(alias)) {
      return Error(ErrorCode::kNotFound, alias + " is not declared in " + path());
    }
    Result<Declaration> old = DeclarationFromJson(alias, servers[alias]);
    if (old) removed = std::move(*old);
    servers.erase(alias);
    return {};
  });
  if (!status) return status.error();
  return removed;
}

}  // namespace bravebot
