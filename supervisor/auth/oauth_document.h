// The JSON documents of signing in (metadata, token responses, OAuth
// errors) read the one way: bounded (base/bounded_json.h), an object, and
// each member of the type it must have, or refused in words that name the
// document and the member and never quote what a server sent.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(OAuthDocument doc, ReadOAuthDocument(body, "the token response"));
//   BRAVEBOT_ASSIGN_OR_RETURN(std::string token, doc.RequiredString("access_token"));
#ifndef BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_
#define BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bravebot {

// The longest string of a document that is read: a token, a client's id
// or secret, an endpoint. A long JWT is a few KiB; what a sign-in keeps in
// mcp-tokens is read again before each request of a session, so a server
// does not choose its size.
inline constexpr std::size_t kMaxOAuthString = std::size_t{16} * 1024;

class OAuthDocument {
 public:
  OAuthDocument(nlohmann::json object, std::string what)
      : object_(std::move(object)), what_(std::move(what)) {}

  const nlohmann::json& object() const { return object_; }

  // Each string of kMaxOAuthString bytes at most, or refused.
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
  Error TooLong(const std::string& name) const;

  nlohmann::json object_;
  std::string what_;  // "the authorization server's metadata"
};

// `body` as one JSON object, `what` naming it in errors.
Result<OAuthDocument> ReadOAuthDocument(std::string_view body, std::string what);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_OAUTH_DOCUMENT_H_
