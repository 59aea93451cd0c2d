#include "confine/digest.h"

#include <cstdint>
#include <utility>

#include "base/sha256.h"

namespace bravebot {
namespace {

// The fields in the order they are hashed; changing this order or the
// encoding below changes every digest, and so withdraws every approval.
constexpr const char* kFieldOrder[] = {"transport", "program",   "argv",
                                       "url",       "variables", "directory"};

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

std::string EncodeOne(std::string_view value) {
  std::string out;
  AppendString(out, value);
  return out;
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
  for (const auto& [name, encoding] : encoded_fields) {
    AppendString(whole, name);
    AppendString(whole, encoding);
    digest.fields[name] = Sha256Hex(encoding);
  }
  digest.hex = Sha256Hex(whole);
  return digest;
}

std::vector<std::string> ChangedFields(const std::map<std::string, std::string>& before,
                                       const std::map<std::string, std::string>& after) {
  std::vector<std::string> changed;
  for (const char* field : kFieldOrder) {
    auto old_value = before.find(field);
    auto new_value = after.find(field);
    if (old_value == before.end() || new_value == after.end() ||
        old_value->second != new_value->second) {
      changed.push_back(field);
    }
  }
  return changed;
}

}  // namespace bravebot
