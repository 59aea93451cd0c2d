// The rules of the OAuth client a service is declared with (`add --http URL
// --client-id ID --client-secret-file FILE --scope SCOPE`): a client id that
// goes into a url and a form as it is, a secret of one line, and scopes as
// RFC 6749 section 3.3 writes them. A refusal never quotes the secret.
#ifndef BRAVEBOT_CONFINE_SIGN_IN_CLIENT_H_
#define BRAVEBOT_CONFINE_SIGN_IN_CLIENT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "confine/declaration.h"

namespace bravebot {

inline constexpr size_t kMaxClientIdLength = 512;
inline constexpr size_t kMaxClientSecretLength = 4096;

// Printable ASCII without a space, 1 to kMaxClientIdLength bytes.
bool IsClientId(std::string_view id);

// An RFC 6749 scope-token: one or more of %x21 / %x23-5B / %x5D-7E, that is
// printable ASCII but space, '"' and '\'.
bool IsScopeToken(std::string_view scope);

// Why `secret` cannot be a client's secret, as the end of a sentence about
// it ("the client secret is empty"), or nothing where it can: it is empty,
// longer than kMaxClientSecretLength, or holds a control character.
std::optional<std::string> ClientSecretRefusal(std::string_view secret);

// Why `client` cannot be declared, as the end of a sentence about it, or
// nothing where it can: a secret without an id, an id, secret or scope the
// rules above refuse, a scope given twice.
std::optional<std::string> SignInClientRefusal(const SignInClient& client);

// The rows a declaration's view shows for `client`: "client id: ID",
// "client secret: set" (never the secret) and "oauth scopes: a, b", each
// where there is one; none for an empty client. Ids and scopes are printable
// ASCII by the rules above, so they are shown as they are.
std::vector<std::string> SignInClientRows(const SignInClient& client);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_SIGN_IN_CLIENT_H_
