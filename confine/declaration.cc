#include "confine/declaration.h"

#include <algorithm>
#include <set>

#include "confine/service_header.h"
#include "confine/sign_in_client.h"
#include "confine/url.h"

namespace bravebot {
namespace {

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

Error Refused(std::string why) { return Error(ErrorCode::kRefused, std::move(why)); }

bool IsAbsoluteNormalPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  return path.find('\0') == std::string_view::npos;
}

Status CheckUrl(std::string_view url) {
  Result<ServiceUrl> parsed = ParseServiceUrl(url);
  if (!parsed) return Refused("its url is refused: " + parsed.error().message());
  return {};
}

Status CheckHeaders(const std::vector<StoredHeader>& headers) {
  for (size_t i = 0; i < headers.size(); ++i) {
    if (std::optional<std::string> why = HeaderRefusal(headers[i].name, headers[i].value)) {
      return Refused(*why);
    }
    for (size_t j = 0; j < i; ++j) {
      if (SameHeaderName(headers[i].name, headers[j].name)) {
        return Refused("the header " + headers[i].name + " is given twice");
      }
    }
  }
  return {};
}

}  // namespace

std::string_view TransportName(Transport transport) {
  return transport == Transport::kStdio ? "stdio" : "http";
}

std::vector<std::string> Declaration::VariableNames() const {
  std::vector<std::string> names = passed_variables;
  for (const StoredVariable& stored : stored_variables) names.push_back(stored.name);
  std::sort(names.begin(), names.end());
  return names;
}

bool Declaration::StoresVariable(std::string_view name) const {
  return std::any_of(stored_variables.begin(), stored_variables.end(),
                     [&](const StoredVariable& stored) { return stored.name == name; });
}

bool Declaration::NamesVariable(std::string_view name) const {
  return StoresVariable(name) || std::find(passed_variables.begin(), passed_variables.end(),
                                           name) != passed_variables.end();
}

std::vector<std::string> Declaration::HeaderNames() const {
  std::vector<std::string> names;
  for (const StoredHeader& header : headers) names.push_back(header.name);
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return AsciiLowercase(a) < AsciiLowercase(b);
  });
  return names;
}

Declaration Declaration::MovedTo(const std::string& moved_to) const {
  Declaration moved = *this;
  moved.url = moved_to;
  moved.headers.clear();
  moved.sign_in.secret.clear();
  return moved;
}

bool IsValidAlias(std::string_view alias) {
  if (alias.empty() || alias.size() > kMaxAliasLength) return false;
  if (!IsAsciiLetter(alias.front()) && !IsAsciiDigit(alias.front())) return false;
  return std::all_of(alias.begin(), alias.end(), [](char c) {
    return IsAsciiLetter(c) || IsAsciiDigit(c) || c == '-' || c == '_';
  });
}

bool IsValidVariableName(std::string_view name) {
  if (name.empty() || IsAsciiDigit(name.front())) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return IsAsciiLetter(c) || IsAsciiDigit(c) || c == '_'; });
}

bool IsProgramFoundThroughPath(std::string_view program) {
  return program.find('/') == std::string_view::npos;
}

std::optional<std::string> ValueGivenToServer(const Declaration& declaration, std::string_view name,
                                              const EnvironmentLookup& getenv) {
  for (const StoredVariable& stored : declaration.stored_variables) {
    if (stored.name == name) return stored.value;
  }
  if (declaration.NamesVariable(name)) {
    if (const char* value = getenv(std::string(name).c_str())) return std::string(value);
  }
  return std::nullopt;
}

Status CheckDeclaration(const Declaration& declaration) {
  if (!IsValidAlias(declaration.alias)) {
    return Refused(
        "its alias is not letters, digits, - and _ starting with a letter or a digit, at most "
        "64 characters");
  }
  if (declaration.transport == Transport::kHttp) {
    BRAVEBOT_RETURN_IF_ERROR(CheckUrl(declaration.url));
    if (!declaration.program.empty() || !declaration.arguments.empty()) {
      return Refused("an http server runs no program");
    }
    if (!declaration.stored_variables.empty() || !declaration.passed_variables.empty()) {
      return Refused("an http server takes no variables");
    }
    if (!declaration.directory.empty()) return Refused("an http server takes no directory");
    if (!declaration.may_read.empty()) return Refused("an http server reads no file");
    BRAVEBOT_RETURN_IF_ERROR(CheckHeaders(declaration.headers));
    if (std::optional<std::string> why = SignInClientRefusal(declaration.sign_in)) {
      return Refused(*why);
    }
    return {};
  }
  if (!declaration.headers.empty()) return Refused("a stdio server is sent no header");
  if (!declaration.sign_in.empty()) {
    return Refused("a stdio server signs in nowhere, so it takes no OAuth client or scope");
  }
  if (declaration.program.empty()) return Refused("it names no program");
  if (!declaration.url.empty()) return Refused("a stdio server has no url");
  if (!IsProgramFoundThroughPath(declaration.program) && declaration.program.front() != '/') {
    return Refused("its program is a relative path");
  }
  std::set<std::string> seen;
  for (const std::string& name : declaration.VariableNames()) {
    if (!IsValidVariableName(name)) return Refused("a variable name is not letters, digits and _");
    if (!seen.insert(name).second) return Refused("the variable " + name + " is given twice");
  }
  if (!declaration.directory.empty() && !IsAbsoluteNormalPath(declaration.directory)) {
    return Refused("its directory is not an absolute path");
  }
  for (const std::string& path : declaration.may_read) {
    if (!IsAbsoluteNormalPath(path)) return Refused("a file it may read is not an absolute path");
  }
  return {};
}

}  // namespace bravebot
