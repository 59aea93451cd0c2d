#include "supervisor/store/token_file.h"

#include <algorithm>
#include <set>

#include "confine/digest.h"
#include "supervisor/store/json_text.h"

namespace bravebot {
namespace {

using nlohmann::json;

Error Corrupt(const std::string& shown_path, const std::string& why) {
  return Error(ErrorCode::kCorrupt,
               shown_path + " " + why +
                   ". It was left as it is: mend it by hand, or move it away and sign in again");
}

bool IsDigest(const std::string& text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// Reads entry `index` (counted from 1, as a person counts) or says why not.
Result<StoredToken> ReadEntry(const json& entry, size_t index, const std::string& shown_path) {
  const std::string where = "has an entry (the " + std::to_string(index) + ". of \"tokens\") ";
  if (!entry.is_object()) return Corrupt(shown_path, where + "that is not an object");
  StoredToken token;
  auto text = [&](const char* name, bool required, std::optional<std::string>& into) -> Status {
    auto member = entry.find(name);
    if (member == entry.end()) {
      if (required) return Corrupt(shown_path, where + "without \"" + name + "\"");
      return {};
    }
    if (!member->is_string() || member->get_ref<const std::string&>().empty()) {
      return Corrupt(shown_path, where + "whose \"" + name + "\" is not a string of text");
    }
    into = member->get<std::string>();
    return {};
  };
  std::optional<std::string> alias, digest, origin, access, endpoint, client;
  BRAVEBOT_RETURN_IF_ERROR(text("alias", true, alias));
  BRAVEBOT_RETURN_IF_ERROR(text("digest", true, digest));
  BRAVEBOT_RETURN_IF_ERROR(text("origin", true, origin));
  BRAVEBOT_RETURN_IF_ERROR(text("access_token", true, access));
  BRAVEBOT_RETURN_IF_ERROR(text("refresh_token", false, token.refresh_token));
  BRAVEBOT_RETURN_IF_ERROR(text("scope", false, token.scope));
  BRAVEBOT_RETURN_IF_ERROR(text("token_endpoint", true, endpoint));
  BRAVEBOT_RETURN_IF_ERROR(text("client_id", true, client));
  BRAVEBOT_RETURN_IF_ERROR(text("client_secret", false, token.client_secret));
  std::optional<std::string> authentication;
  BRAVEBOT_RETURN_IF_ERROR(text("client_authentication", false, authentication));
  if (authentication) {
    token.client_authentication = ClientAuthenticationNamed(*authentication);
    if (!token.client_authentication) {
      return Corrupt(shown_path, where + "whose \"client_authentication\" is none this reads");
    }
  }
  if (!IsDigest(*digest)) {
    return Corrupt(shown_path, where + "whose \"digest\" is not 64 lowercase hex digits");
  }
  if (!IsValidAlias(*alias)) return Corrupt(shown_path, where + "whose \"alias\" is no alias");
  token.alias = std::move(*alias);
  token.digest = std::move(*digest);
  token.origin = std::move(*origin);
  token.access_token = std::move(*access);
  token.token_endpoint = std::move(*endpoint);
  token.client_id = std::move(*client);
  if (auto expires = entry.find("expires_at"); expires != entry.end()) {
    if (!expires->is_number_integer()) {
      return Corrupt(shown_path, where + "whose \"expires_at\" is not a whole number");
    }
    // Past 2^62 seconds every time is before it; read as unsigned so none wraps.
    token.expires_at = expires->is_number_unsigned()
                           ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                                 expires->get<std::uint64_t>(), std::uint64_t{1} << 62))
                           : expires->get<std::int64_t>();
  }
  return token;
}

}  // namespace

const StoredToken* TokenFile::Find(std::string_view alias, std::string_view digest,
                                   std::string_view origin) const {
  for (const StoredToken& token : tokens) {
    if (token.alias == alias && token.digest == digest && token.origin == origin) return &token;
  }
  return nullptr;
}

void TokenFile::Put(StoredToken token) {
  for (StoredToken& stored : tokens) {
    if (stored.alias == token.alias && stored.digest == token.digest &&
        stored.origin == token.origin) {
      stored = std::move(token);
      return;
    }
  }
  tokens.push_back(std::move(token));
}

size_t TokenFile::Forget(std::string_view alias) {
  return std::erase_if(tokens, [&](const StoredToken& token) { return token.alias == alias; });
}

size_t TokenFile::KeepOnlyThoseOf(const std::vector<Declaration>& declarations) {
  std::set<std::pair<std::string, std::string>> declared;
  for (const Declaration& declaration : declarations) {
    declared.emplace(declaration.alias, ComputeDigest(declaration).hex);
  }
  return std::erase_if(tokens, [&](const StoredToken& token) {
    return !declared.contains({token.alias, token.digest});
  });
}

Result<TokenFile> ParseTokenFile(std::string_view text, const std::string& shown_path) {
  Result<json> parsed = ParseJsonText(text);
  if (!parsed) return Corrupt(shown_path, parsed.error().message());
  const json& document = *parsed;
  if (!document.is_object()) return Corrupt(shown_path, "is not a JSON object");
  auto version = document.find("version");
  if (version == document.end() || !version->is_number_integer()) {
    return Corrupt(shown_path, "has no format version (a \"version\" number)");
  }
  if (!version->is_number_unsigned() || version->get<std::uint64_t>() != kTokenFormatVersion) {
    return Corrupt(shown_path, "is in a format version this bravebot-mcp does not read");
  }
  auto entries = document.find("tokens");
  if (entries == document.end() || !entries->is_array()) {
    return Corrupt(shown_path, "has no \"tokens\" list");
  }
  TokenFile file;
  for (size_t i = 0; i < entries->size(); ++i) {
    BRAVEBOT_ASSIGN_OR_RETURN(StoredToken token, ReadEntry((*entries)[i], i + 1, shown_path));
    if (file.Find(token.alias, token.digest, token.origin) != nullptr) {
      return Corrupt(shown_path, "has two entries for one declaration and origin (the " +
                                     std::to_string(i + 1) + ". of \"tokens\" is the second)");
    }
    file.tokens.push_back(std::move(token));
  }
  return file;
}

std::string SerializeTokenFile(const TokenFile& file) {
  json entries = json::array();
  for (const StoredToken& token : file.tokens) {
    json entry = json::object();
    entry["alias"] = token.alias;
    entry["digest"] = token.digest;
    entry["origin"] = token.origin;
    entry["access_token"] = token.access_token;
    if (token.refresh_token) entry["refresh_token"] = *token.refresh_token;
    if (token.expires_at) entry["expires_at"] = *token.expires_at;
    if (token.scope) entry["scope"] = *token.scope;
    entry["token_endpoint"] = token.token_endpoint;
    entry["client_id"] = token.client_id;
    if (token.client_secret) entry["client_secret"] = *token.client_secret;
    if (token.client_authentication) {
      entry["client_authentication"] = ClientAuthenticationName(*token.client_authentication);
    }
    entries.push_back(std::move(entry));
  }
  json document = json::object();
  document["version"] = kTokenFormatVersion;
  document["tokens"] = std::move(entries);
  // RFC 6749 allows only printable ASCII in a token; bytes that are not
  // UTF-8 (which no server should send) are replaced rather than let dump()
  // throw, and such a token fails as any wrong one would.
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace bravebot
