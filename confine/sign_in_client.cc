#include "confine/sign_in_client.h"

#include <algorithm>

namespace bravebot {

bool IsClientId(std::string_view id) {
  if (id.empty() || id.size() > kMaxClientIdLength) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

bool IsScopeToken(std::string_view scope) {
  if (scope.empty()) return false;
  return std::all_of(scope.begin(), scope.end(),
                     [](char c) { return c > 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

std::optional<std::string> ClientSecretRefusal(std::string_view secret) {
  if (secret.empty()) return "the client secret is empty";
  if (secret.size() > kMaxClientSecretLength) {
    return "the client secret is longer than " + std::to_string(kMaxClientSecretLength) + " bytes";
  }
  // A byte below 0x20 or DEL: a secret is one line of text, and a line break
  // in it is most often a file holding something else.
  const bool control = std::any_of(secret.begin(), secret.end(), [](char c) {
    return (static_cast<unsigned char>(c) < 0x20) || c == 0x7f;
  });
  if (control) return "the client secret holds a control character (a line break, a tab, ...)";
  return std::nullopt;
}

std::optional<std::string> SignInClientRefusal(const SignInClient& client) {
  if (!client.secret.empty() && client.id.empty()) {
    return "it has a client secret and no client id";
  }
  if (!client.id.empty() && !IsClientId(client.id)) {
    return "its client id is not printable ASCII without spaces, at most " +
           std::to_string(kMaxClientIdLength) + " bytes";
  }
  if (!client.secret.empty()) {
    if (std::optional<std::string> why = ClientSecretRefusal(client.secret)) return why;
  }
  for (size_t i = 0; i < client.scopes.size(); ++i) {
    if (!IsScopeToken(client.scopes[i])) {
      return "a scope is not printable ASCII without spaces, '\"' and '\\'";
    }
    for (size_t j = 0; j < i; ++j) {
      if (client.scopes[i] == client.scopes[j]) {
        return "the scope " + client.scopes[i] + " is given twice";
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> SignInClientRows(const SignInClient& client) {
  std::vector<std::string> rows;
  if (!client.id.empty()) rows.push_back("client id: " + client.id);
  if (!client.secret.empty()) rows.push_back("client secret: set");
  if (!client.scopes.empty()) {
    std::string row = "oauth scopes: ";
    for (size_t i = 0; i < client.scopes.size(); ++i) {
      row += (i == 0 ? "" : ", ") + client.scopes[i];
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace bravebot
