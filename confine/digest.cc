#include "confine/digest.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "base/sha256.h"
#include "confine/url.h"

namespace bravebot {
namespace {

// The fields in the order they are hashed; changing this order or the
// encoding below changes every digest, and so withdraws every approval.
// "headers" and "oauth" are hashed only for a declaration that has any, so
// that every digest made before they could be declared stays as it was.
constexpr const char* kFieldOrder[] = {"transport", "program",   "argv",    "url",
                                       "variables", "directory", "headers", "oauth"};

// Every string is written as its length in eight big-endian bytes, then its
// bytes, so no two different field values encode alike.
void AppendString(std::string& out, std::string_view value) {
  uint64_t length = value.size();
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((length >> shift) & 0xff);
  out.append(value);
}

std::string EncodeList(const std::vector<std::string>& values) {
  std::string out;
  AppendString(out, std::to_string(values.size()));
  for (const std::string& value : values) AppendString(out, value);
  return out;
}

// Header names as HTTP reads them: whatever their case, in no order.
std::vector<std::string> LowercaseHeaderNames(const Declaration& declaration) {
  std::vector<std::string> names;
  for (const std::string& name : declaration.HeaderNames()) names.push_back(AsciiLowercase(name));
  return names;
}

std::string EncodeOne(std::string_view value) {
  std::string out;
  AppendString(out, value);
  return out;
}

// The client id, whether a secret is set (never the secret, as a stored
// variable's value is not hashed) and the scopes, sorted: they are a set.
std::string EncodeSignInClient(const SignInClient& client) {
  std::vector<std::string> scopes = client.scopes;
  std::sort(scopes.begin(), scopes.end());
  return EncodeOne(client.id) + EncodeOne(client.secret.empty() ? "no secret" : "secret") +
         EncodeList(scopes);
}

}  // namespace

DeclarationDigest ComputeDigest(const Declaration& declaration) {
  const std::pair<std::string, std::string> encoded_fields[] = {
      {"transport", EncodeOne(TransportName(declaration.transport))},
      {"program", EncodeOne(declaration.program)},
      {"argv", EncodeList(declaration.arguments)},
      {"url", EncodeOne(declaration.url)},
      {"variables", EncodeList(declaration.VariableNames())},
      {"directory", EncodeOne(declaration.directory)},
  };
  std::string whole;
  AppendString(whole, "bravebot-mcp declaration 1");
  DeclarationDigest digest;
  auto hash = [&](const std::string& name, const std::string& encoding) {
    AppendString(whole, name);
    AppendString(whole, encoding);
    digest.fields[name] = Sha256Hex(encoding);
  };
  for (const auto& [name, encoding] : encoded_fields) hash(name, encoding);
  // The names of its headers, never their values, as with variables.
  if (!declaration.headers.empty()) hash("headers", EncodeList(LowercaseHeaderNames(declaration)));
  if (!declaration.sign_in.empty()) hash("oauth", EncodeSignInClient(declaration.sign_in));
  digest.hex = Sha256Hex(whole);
  return digest;
}

std::vector<std::string> ChangedFields(const std::map<std::string, std::string>& before,
                                       const std::map<std::string, std::string>& after) {
  std::vector<std::string> changed;
  for (const char* field : kFieldOrder) {
    auto old_value = before.find(field);
    auto new_value = after.find(field);
    // Missing on both sides, as "headers" is for a declaration without any.
    if (old_value == before.end() && new_value == after.end()) continue;
    if (old_value == before.end() || new_value == after.end() ||
        old_value->second != new_value->second) {
      changed.push_back(field);
    }
  }
  return changed;
}

}  // namespace bravebot
