#include "supervisor/store/declaration_json.h"

#include <set>

#include "confine/sign_in_client.h"

namespace bravebot {
namespace {

using nlohmann::json;

Error Unusable(const std::string& why) { return Error(ErrorCode::kCorrupt, why); }

bool IsStringList(const json& value) {
  if (!value.is_array()) return false;
  for (const json& item : value) {
    if (!item.is_string()) return false;
  }
  return true;
}

Result<std::vector<std::string>> StringList(const json& entry, const char* key) {
  if (!entry.contains(key)) return std::vector<std::string>{};
  if (!IsStringList(entry.at(key))) return Unusable(std::string(key) + " is not a list of strings");
  return entry.at(key).get<std::vector<std::string>>();
}

Result<std::string> OptionalString(const json& entry, const char* key) {
  if (!entry.contains(key)) return std::string();
  if (!entry.at(key).is_string()) return Unusable(std::string(key) + " is not a string");
  return entry.at(key).get<std::string>();
}

const std::set<std::string>& KnownKeys() {
  static const std::set<std::string> keys = {"transport", "program", "args",     "url", "headers",
                                             "oauth",     "env",     "pass_env", "dir", "may_read"};
  return keys;
}

json SignInClientToJson(const SignInClient& client) {
  json oauth = json::object();
  if (!client.id.empty()) oauth["client_id"] = client.id;
  if (!client.secret.empty()) oauth["client_secret"] = client.secret;
  if (!client.scopes.empty()) oauth["scopes"] = client.scopes;
  return oauth;
}

// "oauth": {"client_id": ..., "client_secret": ..., "scopes": [...]}, each
// member optional here; CheckDeclaration holds them to the rules after. A
// member given must say something: an empty id or secret is refused, not
// read as none.
Result<SignInClient> SignInClientFromJson(const json& oauth) {
  if (!oauth.is_object()) return Unusable("oauth is not an object");
  for (const auto& [key, value] : oauth.items()) {
    if (key != "client_id" && key != "client_secret" && key != "scopes") {
      return Unusable(
          "oauth has a key it does not have (those are client_id, client_secret and "
          "scopes)");
    }
  }
  SignInClient client;
  BRAVEBOT_ASSIGN_OR_RETURN(client.id, OptionalString(oauth, "client_id"));
  if (oauth.contains("client_id") && !IsClientId(client.id)) {
    return Unusable("its oauth client_id is not printable ASCII without spaces, at most " +
                    std::to_string(kMaxClientIdLength) + " bytes");
  }
  // The secret is never quoted, nor is any part of it.
  if (oauth.contains("client_secret") && !oauth.at("client_secret").is_string()) {
    return Unusable("oauth client_secret is not a string");
  }
  client.secret = oauth.value("client_secret", std::string());
  if (oauth.contains("client_secret")) {
    if (std::optional<std::string> why = ClientSecretRefusal(client.secret)) return Unusable(*why);
  }
  BRAVEBOT_ASSIGN_OR_RETURN(client.scopes, StringList(oauth, "scopes"));
  return client;
}

}  // namespace

json DeclarationToJson(const Declaration& declaration) {
  json entry = json::object();
  entry["transport"] = TransportName(declaration.transport);
  if (declaration.transport == Transport::kHttp) {
    entry["url"] = declaration.url;
    // Only where there are any: a file without them is as it was before
    // headers could be declared.
    if (!declaration.headers.empty()) {
      json headers = json::object();
      for (const StoredHeader& header : declaration.headers) headers[header.name] = header.value;
      entry["headers"] = headers;
    }
    // Only where it is declared, for the same reason.
    if (!declaration.sign_in.empty()) entry["oauth"] = SignInClientToJson(declaration.sign_in);
    return entry;
  }
  entry["program"] = declaration.program;
  entry["args"] = declaration.arguments;
  if (!declaration.stored_variables.empty()) {
    json stored = json::object();
    for (const StoredVariable& variable : declaration.stored_variables) {
      stored[variable.name] = variable.value;
    }
    entry["env"] = stored;
  }
  if (!declaration.passed_variables.empty()) entry["pass_env"] = declaration.passed_variables;
  if (!declaration.directory.empty()) entry["dir"] = declaration.directory;
  if (!declaration.may_read.empty()) entry["may_read"] = declaration.may_read;
  return entry;
}

Result<Declaration> DeclarationFromJson(const std::string& alias, const json& entry) {
  if (!entry.is_object()) return Unusable("it is not a JSON object");
  for (const auto& [key, value] : entry.items()) {
    if (!KnownKeys().contains(key)) {
      // The key is not quoted: a hand edit may have put anything there.
      return Unusable(
          "it has a key a declaration does not have (those are transport, program, args, url, "
          "headers, oauth, env, pass_env, dir and may_read)");
    }
  }
  Declaration declaration;
  declaration.alias = alias;

  BRAVEBOT_ASSIGN_OR_RETURN(auto transport, OptionalString(entry, "transport"));
  if (transport == "stdio") {
    declaration.transport = Transport::kStdio;
  } else if (transport == "http") {
    declaration.transport = Transport::kHttp;
  } else {
    return Unusable("its transport is neither \"stdio\" nor \"http\"");
  }

  auto program = OptionalString(entry, "program");
  auto url = OptionalString(entry, "url");
  auto directory = OptionalString(entry, "dir");
  auto arguments = StringList(entry, "args");
  auto passed = StringList(entry, "pass_env");
  auto may_read = StringList(entry, "may_read");
  for (const Error* error :
       {program ? nullptr : &program.error(), url ? nullptr : &url.error(),
        directory ? nullptr : &directory.error(), arguments ? nullptr : &arguments.error(),
        passed ? nullptr : &passed.error(), may_read ? nullptr : &may_read.error()}) {
    if (error != nullptr) return *error;
  }
  declaration.program = *program;
  declaration.url = *url;
  declaration.directory = *directory;
  declaration.arguments = *arguments;
  declaration.passed_variables = *passed;
  declaration.may_read = *may_read;

  if (entry.contains("env")) {
    const json& stored = entry.at("env");
    if (!stored.is_object()) return Unusable("env is not an object of names and values");
    for (const auto& [name, value] : stored.items()) {
      if (!value.is_string()) return Unusable("a stored value in env is not a string");
      declaration.stored_variables.push_back({name, value.get<std::string>()});
    }
  }
  if (entry.contains("headers")) {
    const json& headers = entry.at("headers");
    if (!headers.is_object()) return Unusable("headers is not an object of names and values");
    for (const auto& [name, value] : headers.items()) {
      if (!value.is_string()) return Unusable("a header's value in headers is not a string");
      declaration.headers.push_back({name, value.get<std::string>()});
    }
  }
  if (entry.contains("oauth")) {
    BRAVEBOT_ASSIGN_OR_RETURN(declaration.sign_in, SignInClientFromJson(entry.at("oauth")));
  }
  if (Status usable = CheckDeclaration(declaration); !usable) {
    return Unusable(usable.error().message());
  }
  return declaration;
}

}  // namespace bravebot
