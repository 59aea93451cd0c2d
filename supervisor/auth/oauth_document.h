// The JSON documents of signing in (metadata, token responses, OAuth
// errors) read the one way: bounded (base/bounded_json.h), an object, and
// each member of the type it must have, or refused in words that name the
// document and the member and never quote what a server sent.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument doc, ReadOAuthDocument(body, "the token response"));
//   BRAVEBOT_ASSIGN_OR_RETURN(std::string token, doc.RequiredString("access_token"));
#ifndef BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_
#define BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bravebot {

class OAuthDocument {
 public:
  OAuthDocument(nlohmann::json object, std::string what)
      : object_(std::move(object)), what_(std::move(what)) {}

  const nlohmann::json& object() const { return object_; }

  Result<std::string> RequiredString(const std::string& name) const;
  Result<std::optional<std::string>> OptionalString(const std::string& name) const;
  Result<std::optional<std::vector<std::string>>> OptionalStrings(const std::string& name) const;
  Result<std::optional<bool>> OptionalBool(const std::string& name) const;
  // A whole number of 0 or more (a lifetime in seconds).
  Result<std::optional<std::int64_t>> OptionalCount(const std::string& name) const;

  // kRefused: "WHAT WHY", `why` beginning in lowercase ("has no issuer").
  Error Refuse(const std::string& why) const;

 private:
  Error WrongType(const std::string& name, const char* type) const;

  nlohmann::json object_;
  std::string what_;  // "the authorization server's metadata"
};

// `body` as one JSON object, `what` naming it in errors.
Result<OAuthDocument> ReadOAuthDocument(std::string_view body, std::string what);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_
