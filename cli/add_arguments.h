// The grammar of `bravebot-mcp add`: the words after "add", read into a
// declaration as typed. Pure; nothing is looked up on the machine.
//
//   add [-s SCOPE] ALIAS [-s SCOPE] [-e NAME=value... | -e NAME]... [--dir PATH]
//       (-- PROGRAM [ARGS...] | --stdio -- PROGRAM [ARGS...] | --http URL)
//   add ALIAS --http URL [--header NAME=value | --header NAME]...
//       [--client-id ID [--client-secret-file FILE]] [--oauth-scope SCOPE]...
//
// A refusal never repeats a word that may be a secret: a word -e cannot read,
// a NAME=value where the alias, -s or --dir expects its word, and a url
// carrying a password are named by their place alone; a header by its name,
// never its value.
#ifndef BRAVEBOT_CLI_ADD_ARGUMENTS_H_
#define BRAVEBOT_CLI_ADD_ARGUMENTS_H_

#include <string>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"
#include "supervisor/store/scope.h"

namespace bravebot {

struct AddArguments {
  bool help = false;  // -h or --help: show the help and nothing else
  // As typed: `directory` is the --dir word unresolved, `program` as given,
  // `may_read` empty, and PATH not yet added for a program named by PATH.
  Declaration declaration;
  Scope scope = Scope::kLocal;
  // --header NAME: these headers are in `declaration.headers` with no value
  // yet, which ReadHeadersFromEnvironment reads.
  std::vector<std::string> headers_from_environment;
  // --client-secret-file FILE, as typed: ReadClientSecretFile reads it into
  // `declaration.sign_in.secret`.
  std::string client_secret_file;
};

// The flag of a scope asked for at sign-in. Not --scope: add's -s/--scope
// names the settings file (local, project or user) already.
inline constexpr const char* kOAuthScopeFlag = "--oauth-scope";

// Reads `words` (what follows "add"). Every refusal is ErrorCode::kUsage.
Result<AddArguments> ParseAddArguments(const std::vector<std::string>& words);

// Gives each header of --header NAME the value of the variable NAME in the
// environment `getenv` reads, as add is run (a declaration keeps the value,
// as it keeps -e NAME=value). kUsage, naming the header, where the variable
// is not set or its value cannot be a header's.
Status ReadHeadersFromEnvironment(AddArguments& arguments, const EnvironmentLookup& getenv);

// Reads the secret of --client-secret-file FILE (a relative FILE is of
// `cwd`) through `fs` into the declaration, as add is run: its content, line
// ends after it trimmed. kUsage, naming the file, never the content, where
// there is no such file or its secret is empty, longer than
// kMaxClientSecretLength or holds a control character.
Status ReadClientSecretFile(AddArguments& arguments, const FileSystemView& fs,
                            const std::string& cwd);

// Whether `word` is a flag add takes (-s, -e, --dir, --http, --header,
// --client-id, --client-secret-file, --oauth-scope, --stdio, --help and
// their other forms), for mcp-run, which takes them too before --.
bool IsAddFlag(const std::string& word);

// How a refusal names a flag it does not know: "the option --frobnicate", up
// to any '=', when the word reads as an option name; else `place` and ", which
// starts with -", since "--token=sk-..." or a value must not come back.
std::string UnknownFlagWords(const std::string& word, const std::string& place);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_ADD_ARGUMENTS_H_
