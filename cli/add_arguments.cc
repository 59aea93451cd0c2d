#include "cli/add_arguments.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "confine/paths.h"
#include "confine/service_header.h"
#include "confine/sign_in_client.h"
#include "confine/url.h"

namespace bravebot {
namespace {

// A word that reads as NAME=value, which is how a value for -e is written.
bool LooksLikeAssignment(const std::string& word) {
  size_t equals = word.find('=');
  return equals != std::string::npos && IsValidVariableName(word.substr(0, equals));
}

bool IsFlag(const std::string& word) { return word.size() > 1 && word.front() == '-'; }

// "-x" or "--long-name": what a person types as an option, as opposed to a
// value that happens to start with '-'.
bool LooksLikeOptionName(const std::string& word) {
  if (word.size() == 2) return word[0] == '-' && std::isalpha(static_cast<unsigned char>(word[1]));
  if (word.size() < 3 || word.size() > 24 || !word.starts_with("--")) return false;
  return std::all_of(word.begin() + 2, word.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
}

std::string Ordinal(size_t n) {
  static const char* kWords[] = {"first", "second",  "third",  "fourth", "fifth",
                                 "sixth", "seventh", "eighth", "ninth",  "tenth"};
  if (n >= 1 && n <= 10) return kWords[n - 1];
  const char* suffix = (n / 10) % 10 == 1 ? "th"
                       : n % 10 == 1      ? "st"
                       : n % 10 == 2      ? "nd"
                       : n % 10 == 3      ? "rd"
                                          : "th";
  return std::to_string(n) + suffix;
}

// A word's place for a message: "word 4 of add" counts from the first word
// after "add", as a person reading their own command line would.
std::string Place(size_t index) { return "word " + std::to_string(index + 1) + " after add"; }

constexpr const char* kNothingDeclared = "; nothing was declared";
constexpr const char* kNotRepeated = " (the word is not repeated here, since it may be a key)";

Error Usage(const std::string& message) {
  return Error(ErrorCode::kUsage, message + kNothingDeclared);
}

// Why a header's value, typed or read from the environment, cannot be sent,
// and what to do instead; nothing where it can. The value is never repeated.
std::optional<std::string> HeaderValueRefusal(const std::string& name, std::string_view value) {
  switch (HeaderValueProblemOf(value)) {
    case HeaderValueProblem::kLineBreak:
      return "the header " + name +
             " has a line break or a NUL in its value, which would end the header early: give "
             "the value on one line" +
             std::string(kNotRepeated);
    case HeaderValueProblem::kBlank:
      return "the header " + name + " has no value: give it as --header " + name + "=VALUE";
    case HeaderValueProblem::kNone:
      break;
  }
  return std::nullopt;
}

// The words with each --option=value before the program split in two, and
// where each came from, so a message still counts the words as typed.
struct SplitWords {
  std::vector<std::string> words;
  std::vector<size_t> typed_at;
};

SplitWords SplitGluedValues(const std::vector<std::string>& typed) {
  SplitWords split;
  bool program = false;
  for (size_t i = 0; i < typed.size(); ++i) {
    const std::string& word = typed[i];
    const size_t equals = word.find('=');
    program = program || word == "--";
    if (!program && word.starts_with("--") && equals != std::string::npos &&
        IsAddFlag(word.substr(0, equals))) {
      split.words.push_back(word.substr(0, equals));
      split.typed_at.push_back(i);
      split.words.push_back(word.substr(equals + 1));
    } else {
      split.words.push_back(word);
    }
    split.typed_at.push_back(i);
  }
  return split;
}

class AddParser {
 public:
  explicit AddParser(const std::vector<std::string>& typed)
      : split_(SplitGluedValues(typed)), words_(split_.words) {}

  Result<AddArguments> Parse() {
    for (index_ = 0; index_ < words_.size();) {
      const std::string& word = words_[index_];
      BRAVEBOT_RETURN_IF_ERROR(word == "--"                        ? TakeProgram(index_ + 1)
                               : word == "--stdio"                 ? TakeStdio()
                               : word == "-h" || word == "--help"  ? TakeHelp()
                               : word == "-s" || word == "--scope" ? TakeScope()
                               : word == "-e" || word == "--env"   ? TakeVariables()
                               : word == "--dir"                   ? TakeDirectory()
                               : word == "--http"                  ? TakeUrl()
                               : word == "--header"                ? TakeHeader()
                               : word == "--client-id"             ? TakeClientId()
                               : word == "--client-secret-file"    ? TakeClientSecretFile()
                               : word == kOAuthScopeFlag           ? TakeOAuthScope()
                               : IsFlag(word)                      ? UnknownFlag(word)
                                                                   : TakeAlias());
      if (result_.help) return result_;
    }
    BRAVEBOT_RETURN_IF_ERROR(CheckComplete());
    return result_;
  }

 private:
  Declaration& declaration() { return result_.declaration; }

  std::string PlaceOf(size_t index) const { return Place(split_.typed_at[index]); }

  // The word after the flag at index_, or an error saying the flag needs one.
  Result<std::string> FlagValue(const std::string& needs) {
    const std::string& flag = words_[index_];
    if (index_ + 1 >= words_.size() || IsFlag(words_[index_ + 1]) || words_[index_ + 1] == "--") {
      return Usage(flag + " takes " + needs);
    }
    index_ += 2;
    return words_[index_ - 1];
  }

  Error AssignmentInPlaceOf(size_t index, const std::string& expected) {
    return Usage(PlaceOf(index) + " is where " + expected +
                 " goes, and it reads as NAME=value; a value is stored only after the alias, "
                 "as -e NAME=value" +
                 kNotRepeated);
  }

  Status TakeProgram(size_t first) {
    if (first >= words_.size()) return Usage("-- names no program: give it after --");
    if (words_[first].empty()) return Usage("the program after -- is an empty word");
    program_seen_ = true;
    declaration().program = words_[first];
    // Everything after -- is the server's, each word as it is, flags included.
    declaration().arguments.assign(words_.begin() + static_cast<long>(first) + 1, words_.end());
    index_ = words_.size();
    return {};
  }

  Status TakeStdio() {
    if (index_ + 1 >= words_.size() || words_[index_ + 1] != "--") {
      return Usage("--stdio is followed by -- and the program: --stdio -- PROGRAM [ARGS...]");
    }
    ++index_;
    return {};
  }

  Status TakeHelp() {
    result_.help = true;
    return {};
  }

  Status TakeScope() {
    if (scope_seen_) return Usage("-s is given twice");
    size_t value_index = index_ + 1;
    BRAVEBOT_ASSIGN_OR_RETURN(auto value, FlagValue("local, project or user"));
    if (LooksLikeAssignment(value)) return AssignmentInPlaceOf(value_index, "the scope of -s");
    std::optional<Scope> scope = ParseScope(value);
    if (!scope)
      return Usage("-s takes local, project or user, and " + PlaceOf(value_index) +
                   " is none of them");
    result_.scope = *scope;
    scope_seen_ = true;
    return {};
  }

  Status TakeDirectory() {
    if (!declaration().directory.empty()) return Usage("--dir is given twice");
    size_t value_index = index_ + 1;
    BRAVEBOT_ASSIGN_OR_RETURN(auto value, FlagValue("the directory the server runs in"));
    if (LooksLikeAssignment(value)) return AssignmentInPlaceOf(value_index, "the path of --dir");
    declaration().directory = value;
    return {};
  }

  Status TakeUrl() {
    if (!declaration().url.empty()) return Usage("--http is given twice");
    BRAVEBOT_ASSIGN_OR_RETURN(auto value, FlagValue("the url of the service"));
    Result<ServiceUrl> url = ParseServiceUrl(value);
    if (!url) return Usage(url.error().message());
    declaration().url = value;
    return {};
  }

  // --header takes one word: NAME=value, stored, or NAME, whose value is
  // read from the environment as add runs (ReadHeadersFromEnvironment).
  Status TakeHeader() {
    const size_t flag_index = index_;
    BRAVEBOT_ASSIGN_OR_RETURN(auto word, FlagValue("NAME=VALUE, or NAME to read the value from "
                                                   "your environment"));
    const size_t equals = word.find('=');
    const std::string name = word.substr(0, equals);
    if (!IsHeaderName(name)) {
      return Usage("the --header at " + PlaceOf(flag_index) +
                   " is not NAME=VALUE with NAME a header name (letters, digits and "
                   "!#$%&'*+-.^_`|~)" +
                   (word.find(':') != std::string::npos && equals == std::string::npos
                        ? ": write Authorization=VALUE, not Authorization: VALUE"
                        : "") +
                   kNotRepeated);
    }
    if (IsSetByTheHttpClient(name)) {
      return Usage("the header " + name +
                   " is one bravebot-mcp's HTTP client sets itself on every request to a "
                   "service, so it cannot be declared: leave it out");
    }
    for (const StoredHeader& given : declaration().headers) {
      if (SameHeaderName(given.name, name)) {
        return Usage("the header " + name + " is given twice: give each header once");
      }
    }
    if (equals == std::string::npos) {
      result_.headers_from_environment.push_back(name);
      declaration().headers.push_back({name, ""});
      return {};
    }
    const std::string value = word.substr(equals + 1);
    if (std::optional<std::string> why = HeaderValueRefusal(name, value)) return Usage(*why);
    declaration().headers.push_back({name, value});
    return {};
  }

  Status TakeClientId() {
    if (!declaration().sign_in.id.empty()) return Usage("--client-id is given twice");
    const size_t value_index = index_ + 1;
    BRAVEBOT_ASSIGN_OR_RETURN(auto id, FlagValue("the id of a client registered with the "
                                                 "service's authorization server"));
    if (!IsClientId(id)) {
      return Usage("the client id at " + PlaceOf(value_index) +
                   " is not printable ASCII without spaces, at most " +
                   std::to_string(kMaxClientIdLength) + " bytes" + kNotRepeated);
    }
    declaration().sign_in.id = id;
    return {};
  }

  // The secret itself is never a word of the command line, where ps and a
  // shell's history would keep it: only the file it is read from, as add
  // runs (ReadClientSecretFile).
  Status TakeClientSecretFile() {
    if (!result_.client_secret_file.empty()) return Usage("--client-secret-file is given twice");
    BRAVEBOT_ASSIGN_OR_RETURN(auto file, FlagValue("the file the client's secret is read from"));
    if (file.empty()) return Usage("--client-secret-file takes a file, and its word is empty");
    result_.client_secret_file = file;
    return {};
  }

  Status TakeOAuthScope() {
    const size_t value_index = index_ + 1;
    BRAVEBOT_ASSIGN_OR_RETURN(auto scope, FlagValue("a scope to ask for at sign-in"));
    if (!IsScopeToken(scope)) {
      return Usage(std::string("the ") + kOAuthScopeFlag + " at " + PlaceOf(value_index) +
                   " is not a scope: printable ASCII without spaces, '\"' and '\\'; give one "
                   "scope to each " +
                   kOAuthScopeFlag);
    }
    std::vector<std::string>& scopes = declaration().sign_in.scopes;
    if (std::find(scopes.begin(), scopes.end(), scope) != scopes.end()) {
      return Usage("the scope " + scope + " is given twice: give each scope once");
    }
    scopes.push_back(scope);
    return {};
  }

  Status TakeAlias() {
    if (alias_seen_) {
      return Usage(PlaceOf(index_) +
                   " is a second word where add takes one alias: the server's program and its "
                   "arguments go after --" +
                   kNotRepeated);
    }
    const std::string& word = words_[index_];
    if (LooksLikeAssignment(word)) return AssignmentInPlaceOf(index_, "the alias");
    if (!IsValidAlias(word)) {
      return Usage(PlaceOf(index_) +
                   " is not an alias: an alias is letters, digits, - and _, starting with a "
                   "letter or a digit, at most 64 characters");
    }
    declaration().alias = word;
    alias_seen_ = true;
    ++index_;
    return {};
  }

  // -e takes every word up to the next flag. Each is NAME=value, stored, or,
  // as the one word of its -e, a NAME read from the environment at start.
  Status TakeVariables() {
    const size_t flag_index = index_;
    if (!alias_seen_) {
      return Usage("-e comes before the alias (" + PlaceOf(flag_index) +
                   "): give the alias first, then -e");
    }
    size_t end = flag_index + 1;
    while (end < words_.size() && !IsFlag(words_[end]) && words_[end] != "--") ++end;
    const size_t count = end - flag_index - 1;
    if (count == 0) return Usage("-e at " + PlaceOf(flag_index) + " takes NAME=value or NAME");
    for (size_t i = flag_index + 1; i < end; ++i) {
      if (auto status = TakeVariable(i, flag_index, count); !status) return status;
    }
    index_ = end;
    return {};
  }

  Status TakeVariable(size_t index, size_t flag_index, size_t words_of_flag) {
    const std::string& word = words_[index];
    const std::string where = PlaceOf(index) + " (the " + Ordinal(index - flag_index) +
                              " word of the -e at " + PlaceOf(flag_index) + ")";
    std::string name;
    if (LooksLikeAssignment(word)) {
      name = word.substr(0, word.find('='));
      if (auto status = RefuseRepeatedName(name); !status) return status;
      declaration().stored_variables.push_back({name, word.substr(name.size() + 1)});
      return {};
    }
    if (IsValidVariableName(word) && words_of_flag == 1) {
      if (auto status = RefuseRepeatedName(word); !status) return status;
      declaration().passed_variables.push_back(word);
      return {};
    }
    if (IsValidVariableName(word)) {
      return Usage("-e cannot read " + where +
                   ": a name alone is read from your environment only as the one word its -e "
                   "takes, and a value is stored as NAME=value" +
                   kNotRepeated);
    }
    return Usage("-e cannot read " + where +
                 ": it is neither NAME=value nor a variable name (letters, digits and _)" +
                 kNotRepeated);
  }

  Status RefuseRepeatedName(const std::string& name) {
    if (declaration().NamesVariable(name)) {
      return Usage("the variable " + name + " is given twice: give each name once");
    }
    return {};
  }

  Status UnknownFlag(const std::string& word) {
    return Usage("add does not know " + UnknownFlagWords(word, PlaceOf(index_)) +
                 "; bravebot-mcp add --help lists its options, a flag meant for the server goes "
                 "after --, and a value is stored as -e NAME=value");
  }

  Status CheckComplete() {
    if (!alias_seen_) return Usage("add needs an alias: bravebot-mcp add ALIAS -- PROGRAM");
    const bool http = !declaration().url.empty();
    if (http && program_seen_) return Usage("give either --http URL or -- PROGRAM, not both");
    if (!http && !declaration().headers.empty()) {
      return Usage(
          "--header goes with --http URL, for a service: a program is given a value with "
          "-e NAME=value");
    }
    if (!http && (!declaration().sign_in.empty() || !result_.client_secret_file.empty())) {
      return Usage(std::string("--client-id, --client-secret-file and ") + kOAuthScopeFlag +
                   " go with --http URL, for a service that signs in: a program signs in "
                   "nowhere");
    }
    if (!result_.client_secret_file.empty() && declaration().sign_in.id.empty()) {
      return Usage(
          "--client-secret-file is the secret of the client --client-id names: give "
          "--client-id ID too");
    }
    if (!http && !program_seen_) {
      return Usage("add needs the server: -- PROGRAM [ARGS...] for a program, or --http URL");
    }
    if (http) {
      declaration().transport = Transport::kHttp;
      if (!declaration().stored_variables.empty() || !declaration().passed_variables.empty() ||
          !declaration().directory.empty()) {
        return Usage(
            "--http takes neither -e nor --dir: a service somewhere else is given "
            "no variables and no directory");
      }
    }
    return {};
  }

  const SplitWords split_;
  const std::vector<std::string>& words_;
  size_t index_ = 0;
  AddArguments result_;
  bool alias_seen_ = false;
  bool scope_seen_ = false;
  bool program_seen_ = false;
};

}  // namespace

Result<AddArguments> ParseAddArguments(const std::vector<std::string>& words) {
  return AddParser(words).Parse();
}

Status ReadHeadersFromEnvironment(AddArguments& arguments, const EnvironmentLookup& getenv) {
  for (const std::string& name : arguments.headers_from_environment) {
    const char* value = getenv(name.c_str());
    if (value == nullptr) {
      return Usage("the header " + name + " is read from your environment, and no variable " +
                   name + " is set there: set it" +
                   (IsValidVariableName(name)
                        ? ""
                        : " (env '" + name + "=...' can, a shell's export cannot)") +
                   ", or give --header " + name + "=VALUE");
    }
    if (std::optional<std::string> why = HeaderValueRefusal(name, value)) {
      return Usage(*why + " (read from the variable " + name + ")");
    }
    for (StoredHeader& header : arguments.declaration.headers) {
      if (header.name == name) header.value = value;
    }
  }
  arguments.headers_from_environment.clear();
  return {};
}

// Trailing line ends, as an editor or `echo` leaves them after a secret.
std::string_view WithoutTrailingLineEnds(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

Status ReadClientSecretFile(AddArguments& arguments, const FileSystemView& fs,
                            const std::string& cwd) {
  if (arguments.client_secret_file.empty()) return {};
  const std::string& file = arguments.client_secret_file;
  const std::string path = file.front() == '/' ? file : JoinPath(cwd, file);
  const FileKind kind = fs.KindOf(path, Follow::kYes);
  if (kind == FileKind::kMissing) {
    return Usage("--client-secret-file names " + path + ", and there is no file there");
  }
  if (kind != FileKind::kRegular) {
    return Usage("--client-secret-file names " + path + ", which is not a file");
  }
  // Up to a byte more than a secret and its line end ("\r\n") may have: a
  // file that long is refused without being read whole.
  const size_t enough = kMaxClientSecretLength + 2;
  std::optional<std::string> content = fs.ReadPrefix(path, enough + 1);
  if (!content) return Usage("the client secret in " + path + " cannot be read");
  const std::string secret =
      content->size() > enough ? *content : std::string(WithoutTrailingLineEnds(*content));
  if (std::optional<std::string> why = ClientSecretRefusal(secret)) {
    return Usage(*why + " (read from " + path + "): the file holds the secret alone, on one line" +
                 " (the secret is not repeated here)");
  }
  arguments.declaration.sign_in.secret = secret;
  arguments.client_secret_file.clear();
  return {};
}

bool IsAddFlag(const std::string& word) {
  static const char* const kFlags[] = {
      "--stdio",      "-h",    "--help", "-s",       "--scope",     "-e",
      "--env",        "--dir", "--http", "--header", "--client-id", "--client-secret-file",
      kOAuthScopeFlag};
  return std::find(std::begin(kFlags), std::end(kFlags), word) != std::end(kFlags);
}

std::string UnknownFlagWords(const std::string& word, const std::string& place) {
  std::string name = word.substr(0, word.find('='));
  return LooksLikeOptionName(name) ? "the option " + name : place + ", which starts with -";
}

}  // namespace bravebot
