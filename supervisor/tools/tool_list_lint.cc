#include "supervisor/tools/tool_list_lint.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <set>
#include <string_view>

#include "base/shown_text.h"
#include "base/utf8.h"

namespace bravebot {
namespace {

using nlohmann::ordered_json;

// Words a description has no reason to hold: they speak to the model, to
// change what it does, not of what a tool does. Compared in lower case, with
// every run of white space read as one space.
constexpr std::array<std::string_view, 24> kAddressedToModel = {
    "ignore previous instructions",
    "ignore all previous",
    "ignore the above",
    "ignore prior instructions",
    "ignore your instructions",
    "disregard previous",
    "disregard all previous",
    "disregard your instructions",
    "forget your instructions",
    "forget all previous",
    "new instructions:",
    "you are now",
    "system prompt",
    "<important>",
    "</important>",
    "<system>",
    "<instructions>",
    "do not tell the user",
    "don't tell the user",
    "without telling the user",
    "do not mention this",
    "before using any other tool",
    "before calling any other tool",
    "instead of the user",
};

std::string CodePointName(char32_t code_point) {
  char name[16];
  std::snprintf(name, sizeof(name), "U+%04X", static_cast<unsigned>(code_point));
  return name;
}

// The first few distinct names, "U+200B, U+E0041", and "and more" after them.
std::string ListNames(const std::vector<std::string>& names) {
  std::string listed;
  for (std::size_t i = 0; i < names.size() && i < 4; ++i) {
    listed += (i > 0 ? ", " : "") + names[i];
  }
  if (names.size() > 4) listed += " and more";
  return listed;
}

std::string Lowered(std::string_view text) {
  std::string lowered;
  lowered.reserve(text.size());
  for (char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!lowered.empty() && lowered.back() == ' ') continue;
      lowered += ' ';
    } else {
      lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return lowered;
}

bool SameIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

class ListReader {
 public:
  ListReader(const std::string& alias, const ToolListLintContext& context)
      : alias_(alias), context_(context) {}

  void ReadTool(const ordered_json& tool) {
    tool_.clear();
    if (auto name = tool.find("name"); name != tool.end() && name->is_string()) {
      tool_ = name->get<std::string>();
    }
    ReadValue(tool, "");
    CheckName();
    if (auto description = tool.find("description");
        description != tool.end() && description->is_string()) {
      CheckBorrowedNames(description->get_ref<const std::string&>());
    }
  }

  std::vector<ToolListFinding> Take() { return std::move(findings_); }

 private:
  void ReadValue(const ordered_json& value, const std::string& where) {
    if (value.is_string()) return ReadText(value.get_ref<const std::string&>(), where);
    if (value.is_object()) {
      for (auto member = value.begin(); member != value.end(); ++member) {
        const std::string inner = (where.empty() ? "" : where + ".") + member.key();
        ReadText(member.key(), inner + " (its name)");
        ReadValue(member.value(), inner);
      }
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        ReadValue(value[i], where + "[" + std::to_string(i) + "]");
      }
    }
  }

  void ReadText(std::string_view text, const std::string& where) {
    std::vector<std::string> invisible;
    std::vector<std::string> controls;
    std::set<char32_t> seen;
    for (std::size_t at = 0; at < text.size();) {
      char32_t code_point = 0;
      std::size_t length = DecodeUtf8(text, at, code_point);
      at += length == 0 ? 1 : length;
      if (length == 0 || !seen.insert(code_point).second) continue;
      if (IsInvisibleCharacter(code_point)) {
        invisible.push_back(CodePointName(code_point));
      } else if ((code_point < 0x20 && code_point != '\t' && code_point != '\n' &&
                  code_point != '\r') ||
                 code_point == 0x7f || (code_point >= 0x80 && code_point <= 0x9f)) {
        controls.push_back(CodePointName(code_point));
      }
    }
    if (!invisible.empty()) {
      Add(where, "invisible",
          "holds characters a reader cannot see (" + ListNames(invisible) +
              "), shown escaped here");
    }
    if (!controls.empty()) {
      Add(where, "escape",
          "holds control characters a terminal may obey (" + ListNames(controls) +
              "), shown escaped here");
    }
    const std::string lowered = Lowered(text);
    for (std::string_view words : kAddressedToModel) {
      if (lowered.find(words) == std::string::npos) continue;
      Add(where, "addressed-to-model",
          "speaks to the model rather than of the tool (\"" + std::string(words) + "\")");
      break;
    }
  }

  void CheckName() {
    if (tool_.rfind("mcp__", 0) == 0) {
      Add("name", "borrowed-name",
          "is named as the model names an MCP tool, which passes it for another server's");
    }
    for (const std::string& builtin : context_.builtin_tools) {
      if (SameIgnoringCase(tool_, builtin)) {
        Add("name", "borrowed-name", "has the name of the session's own tool " + builtin);
      }
    }
    for (const auto& [other, names] : context_.other_servers) {
      if (other == alias_) continue;
      for (const std::string& name : names) {
        if (name == tool_) {
          Add("name", "borrowed-name",
              "has the name of a tool of " + other + " (" + other + ":" +
                  EscapeControlCharacters(name) + ")");
        }
      }
    }
  }

  // A description that names another server's tool, as the model calls it
  // (mcp__docs__search) or as a person reads it (docs:search).
  void CheckBorrowedNames(const std::string& description) {
    for (const auto& [other, names] : context_.other_servers) {
      if (other == alias_) continue;
      bool named = description.find("mcp__" + other + "__") != std::string::npos;
      for (const std::string& name : names) {
        named = named || description.find(other + ":" + name) != std::string::npos;
      }
      if (named) {
        Add("description", "borrowed-name", "names a tool of another server, " + other);
      }
    }
  }

  void Add(const std::string& where, const std::string& kind, const std::string& what) {
    ToolListFinding finding;
    finding.tool = EscapeControlCharacters(tool_);
    finding.where = EscapeControlCharacters(where);
    finding.kind = kind;
    finding.text = alias_ + ":" + finding.tool + ": its " + finding.where + " " + what;
    findings_.push_back(std::move(finding));
  }

  const std::string& alias_;
  const ToolListLintContext& context_;
  std::string tool_;
  std::vector<ToolListFinding> findings_;
};

}  // namespace

ordered_json ToolListFinding::ToJson() const {
  return {{"tool", tool}, {"where", where}, {"kind", kind}, {"text", text}};
}

std::vector<ToolListFinding> LintToolList(const std::string& alias,
                                          const std::vector<ordered_json>& tools,
                                          const ToolListLintContext& context) {
  ListReader reader(alias, context);
  for (const ordered_json& tool : tools) reader.ReadTool(tool);
  return reader.Take();
}

}  // namespace bravebot
