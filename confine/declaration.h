// A declared MCP server: what `bravebot-mcp add` records and every later step
// (approval, reach, start) reads. A value type with no behaviour of its own
// beyond the rules of what its fields may hold.
//
//   Declaration weather;
//   weather.alias = "weather";
//   weather.transport = Transport::kStdio;
//   weather.program = "npx";
//   weather.arguments = {"-y", "@dangahagan/weather-mcp@latest"};
//   weather.passed_variables = {"PATH"};
#ifndef BRAVEBOT_CONFINE_DECLARATION_H_
#define BRAVEBOT_CONFINE_DECLARATION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.h"
#include "base/result.h"

namespace bravebot {

enum class Transport { kStdio, kHttp };

std::string_view TransportName(Transport transport);  // "stdio" or "http"

// A value stored for the server under a name (`-e NAME=value`). The value may
// be a key: it is never shown, only its name.
struct StoredVariable {
  std::string name;
  std::string value;

  bool operator==(const StoredVariable&) const = default;
};

// A header sent with every request to a service's declared origin
// (`--header NAME=value`), a token in it most often: like a stored variable,
// its value is never shown, only its name.
struct StoredHeader {
  std::string name;
  std::string value;

  bool operator==(const StoredHeader&) const = default;
};

// The OAuth client a service is signed in to as (`add --http URL
// --client-id ID --client-secret-file FILE --scope SCOPE`): a client
// registered with the service's authorization server beforehand, and the
// scopes asked for at sign-in. The secret, like a stored value, is never
// shown: only whether there is one. All empty for a service that registers
// itself at sign-in, and for every program.
struct SignInClient {
  std::string id;
  std::string secret;
  std::vector<std::string> scopes;  // in the order given

  bool empty() const { return id.empty() && secret.empty() && scopes.empty(); }
  bool operator==(const SignInClient&) const = default;
};

struct Declaration {
  std::string alias;
  Transport transport = Transport::kStdio;

  // stdio: the program as declared (a name looked up through PATH, or an
  // absolute path) and each argument as its own word.
  std::string program;
  std::vector<std::string> arguments;

  // http: the service's url, and the headers sent to its origin alone, in
  // the order given.
  std::string url;
  std::vector<StoredHeader> headers;
  SignInClient sign_in;  // http only

  std::vector<StoredVariable> stored_variables;  // -e NAME=value, in the order given
  std::vector<std::string> passed_variables;     // -e NAME, read from the environment at start
  std::string directory;                         // --dir, absolute; empty when not given
  std::vector<std::string> may_read;             // absolute paths of files the server may read

  // Every variable name, stored and passed alike, sorted.
  std::vector<std::string> VariableNames() const;
  bool StoresVariable(std::string_view name) const;
  bool NamesVariable(std::string_view name) const;  // stored or passed
  // Every header name, as given, sorted whatever their case.
  std::vector<std::string> HeaderNames() const;
  // Where a yes to a move takes it: `moved_to`, without its headers and its
  // client secret, which were given for the origin it was declared at and
  // go nowhere else (the new place's authorization server could be anyone's).
  Declaration MovedTo(const std::string& moved_to) const;

  bool operator==(const Declaration&) const = default;
};

// The alias rule: letters, digits, '-' and '_', starting with a letter or a
// digit, at most 64 characters.
bool IsValidAlias(std::string_view alias);
inline constexpr size_t kMaxAliasLength = 64;

// A variable name as POSIX shells take it: a letter or '_', then letters,
// digits and '_'.
bool IsValidVariableName(std::string_view name);

// True for a program named without a slash, which is found through PATH.
bool IsProgramFoundThroughPath(std::string_view program);

// The value the server is given for the variable `name`: the one stored for
// it, else, where the declaration names it, the one `getenv` reads; nothing
// where it gets none. The PATH a server's program is found through is this
// for "PATH".
std::optional<std::string> ValueGivenToServer(const Declaration& declaration, std::string_view name,
                                              const EnvironmentLookup& getenv);

// Whether `declaration` holds together as a whole: the rules a hand-edited
// mcp.json entry can break (an http server with a directory, a relative
// directory, a variable given twice, ...). Refused (kRefused) with what is
// wrong, said as the end of a sentence about it: "its program is a relative
// path".
Status CheckDeclaration(const Declaration& declaration);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_DECLARATION_H_
