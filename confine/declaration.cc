#include "confine/declaration.h"

#include <algorithm>
#include <set>

#include "confine/url.h"

namespace bravebot {
namespace {

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

bool IsAbsoluteNormalPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  return path.find('\0') == std::string_view::npos;
}

std::string FindUrlProblem(std::string_view url) {
  Result<ServiceUrl> parsed = ParseServiceUrl(url);
  return parsed ? "" : "its url is refused: " + parsed.error().message();
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

std::string FindDeclarationProblem(const Declaration& declaration) {
  if (!IsValidAlias(declaration.alias)) {
    return "its alias is not letters, digits, - and _ starting with a letter or a digit, at most "
           "64 characters";
  }
  if (declaration.transport == Transport::kHttp) {
    if (std::string problem = FindUrlProblem(declaration.url); !problem.empty()) return problem;
    if (!declaration.program.empty() || !declaration.arguments.empty()) {
      return "an http server runs no program";
    }
    if (!declaration.stored_variables.empty() || !declaration.passed_variables.empty()) {
      return "an http server takes no variables";
    }
    if (!declaration.directory.empty()) return "an http server takes no directory";
    if (!declaration.may_read.empty()) return "an http server reads no file";
    return "";
  }
  if (declaration.program.empty()) return "it names no program";
  if (!declaration.url.empty()) return "a stdio server has no url";
  if (!IsProgramFoundThroughPath(declaration.program) && declaration.program.front() != '/') {
    return "its program is a relative path";
  }
  std::set<std::string> seen;
  for (const std::string& name : declaration.VariableNames()) {
    if (!IsValidVariableName(name)) return "a variable name is not letters, digits and _";
    if (!seen.insert(name).second) return "the variable " + name + " is given twice";
  }
  if (!declaration.directory.empty() && !IsAbsoluteNormalPath(declaration.directory)) {
    return "its directory is not an absolute path";
  }
  for (const std::string& path : declaration.may_read) {
    if (!IsAbsoluteNormalPath(path)) return "a file it may read is not an absolute path";
  }
  return "";
}

}  // namespace bravebot
