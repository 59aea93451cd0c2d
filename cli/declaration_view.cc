#include "cli/declaration_view.h"

#include <algorithm>
#include <cstdio>

#include "base/shown_text.h"
#include "base/utf8.h"
#include "confine/digest.h"
#include "confine/sign_in_client.h"

namespace bravebot {
namespace {

bool IsPlainCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("@%_+=:,./-").find(c) != std::string_view::npos;
}

// What a terminal would not draw as itself: a C0 or C1 control, an
// invisible or bidirectional character (base/shown_text.h), or a byte that
// is not UTF-8.
bool IsUndrawable(char32_t code_point, std::size_t length) {
  return length == 0 || code_point < 0x20 || code_point == 0x7f ||
         (code_point >= 0x80 && code_point <= 0x9f) || IsInvisibleCharacter(code_point);
}

bool HoldsUndrawable(std::string_view word) {
  for (std::size_t at = 0; at < word.size();) {
    char32_t code_point = 0;
    const std::size_t length = DecodeUtf8(word, at, code_point);
    if (IsUndrawable(code_point, length)) return true;
    at += length;
  }
  return false;
}

// A word as a shell's $'...' writes it: each byte that is a C0 control or
// not UTF-8 as \xHH, each other undrawable character as \uHHHH (or
// \UHHHHHHHH), and \ and ' escaped.
std::string Escaped(std::string_view word) {
  std::string out = "$'";
  for (std::size_t at = 0; at < word.size();) {
    char32_t code_point = 0;
    std::size_t length = DecodeUtf8(word, at, code_point);
    char escape[12];
    if (length == 0 || code_point < 0x20 || code_point == 0x7f) {
      std::snprintf(escape, sizeof(escape), "\\x%02x", static_cast<unsigned char>(word[at]));
      out += escape;
      at += 1;
      continue;
    }
    if (IsUndrawable(code_point, length)) {
      std::snprintf(escape, sizeof(escape), code_point > 0xffff ? "\\U%08x" : "\\u%04x",
                    static_cast<unsigned>(code_point));
      out += escape;
    } else if (code_point == '\\' || code_point == '\'') {
      out += '\\';
      out += static_cast<char>(code_point);
    } else {
      out.append(word.substr(at, length));
    }
    at += length;
  }
  return out + "'";
}

std::string SingleQuoted(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

std::string DisplayWord(std::string_view word) {
  if (HoldsUndrawable(word)) return Escaped(word);
  // Bytes of UTF-8 above ASCII are shown as they are: a terminal draws them.
  bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return IsPlainCharacter(c) || static_cast<unsigned char>(c) >= 0x80;
  });
  return plain ? std::string(word) : SingleQuoted(word);
}

std::string DisplayCommandLine(const Declaration& declaration) {
  if (declaration.transport == Transport::kHttp) return DisplayWord(declaration.url);
  std::string line = DisplayWord(declaration.program);
  for (const std::string& argument : declaration.arguments) {
    line += ' ';
    line += DisplayWord(argument);
  }
  return line;
}

std::string DisplayVariables(const Declaration& declaration) {
  std::string line;
  for (const std::string& name : declaration.VariableNames()) {
    if (!line.empty()) line += ", ";
    line += name;
    if (declaration.StoresVariable(name)) line += " (stored)";
  }
  return line;
}

std::string DisplayHeaders(const Declaration& declaration) {
  std::string line;
  for (const std::string& name : declaration.HeaderNames()) {
    line += (line.empty() ? "" : ", ") + DisplayWord(name) + " (stored)";
  }
  return line;
}

std::string DisplayDeclarationBlock(const Declaration& declaration, const std::string& digest_text,
                                    const std::vector<std::string>& extra_rows,
                                    const std::optional<std::string>& runs) {
  const std::string indent(2 + declaration.alias.size() + 3, ' ');
  std::string block = "  " + declaration.alias + "   " +
                      std::string(TransportName(declaration.transport)) + "   " +
                      DisplayCommandLine(declaration) + "\n";
  if (runs) block += indent + "runs " + DisplayWord(*runs) + "\n";
  if (std::string variables = DisplayVariables(declaration); !variables.empty()) {
    block += indent + "variables: " + variables + "\n";
  }
  if (std::string headers = DisplayHeaders(declaration); !headers.empty()) {
    block += indent + "headers: " + headers + "\n";
  }
  for (const std::string& row : SignInClientRows(declaration.sign_in)) block += indent + row + "\n";
  for (const std::string& path : declaration.may_read) {
    block += indent + "may read: " + DisplayWord(path) + "\n";
  }
  if (!declaration.directory.empty()) {
    block += indent + "directory: " + DisplayWord(declaration.directory) + "\n";
  }
  block += indent + "digest: " + digest_text + "\n";
  for (const std::string& row : extra_rows) block += indent + row + "\n";
  return block;
}

nlohmann::json DeclarationSummaryJson(const Declaration& declaration) {
  nlohmann::json summary = {{"alias", declaration.alias},
                            {"transport", TransportName(declaration.transport)},
                            {"digest", ComputeDigest(declaration).hex}};
  if (declaration.transport == Transport::kHttp) {
    summary["url"] = declaration.url;
    // By name alone: a header's value is never given.
    if (!declaration.headers.empty()) summary["headers"] = declaration.HeaderNames();
    // The client secret by whether there is one alone.
    if (!declaration.sign_in.empty()) {
      nlohmann::json oauth = {{"client_secret_stored", !declaration.sign_in.secret.empty()}};
      if (!declaration.sign_in.id.empty()) oauth["client_id"] = declaration.sign_in.id;
      if (!declaration.sign_in.scopes.empty()) oauth["scopes"] = declaration.sign_in.scopes;
      summary["oauth"] = oauth;
    }
    return summary;
  }
  summary["program"] = declaration.program;
  summary["arguments"] = declaration.arguments;
  nlohmann::json variables = nlohmann::json::array();
  for (const std::string& name : declaration.VariableNames()) {
    variables.push_back({{"name", name}, {"stored", declaration.StoresVariable(name)}});
  }
  summary["variables"] = variables;
  summary["may_read"] = declaration.may_read;
  if (!declaration.directory.empty()) summary["directory"] = declaration.directory;
  return summary;
}

}  // namespace bravebot
