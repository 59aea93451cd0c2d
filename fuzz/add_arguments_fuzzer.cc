// Feeds arbitrary words to the `add` grammar (the input split at NUL bytes).
// Beyond not crashing: a word the grammar refuses to repeat must never appear
// in its message, and every declaration it accepts must be one mcp.json can
// hold once made absolute.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/add_arguments.h"

namespace {

// Any word holding this marker stands for a key: no message may show it.
constexpr char kMarker[] = "KEY9";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.emplace_back();
    } else {
      words.back() += static_cast<char>(data[i]);
    }
  }
  auto parsed = bravebot::ParseAddArguments(words);
  if (!parsed) {
    if (parsed.error().code() != bravebot::ErrorCode::kUsage) std::abort();
    // A refusal may name an alias, a scope, a flag or a variable name it read,
    // but never a value: what follows '=' in a word, unless another word (a
    // flag, say, which is named) holds the same text.
    for (size_t i = 0; i < words.size(); ++i) {
      size_t equals = words[i].find('=');
      if (equals == std::string::npos) continue;
      std::string value = words[i].substr(equals + 1);
      if (value.find(kMarker) == std::string::npos) continue;
      bool elsewhere = false;
      for (size_t j = 0; j < words.size(); ++j) {
        if (j != i && words[j].find(value) != std::string::npos) elsewhere = true;
      }
      if (!elsewhere && parsed.error().message().find(value) != std::string::npos) std::abort();
    }
    return 0;
  }
  if (parsed->help) return 0;
  bravebot::Declaration declaration = parsed->declaration;
  if (!declaration.directory.empty()) declaration.directory = "/d";
  if (!declaration.program.empty() && !bravebot::IsProgramFoundThroughPath(declaration.program)) {
    declaration.program = "/p";
  }
  if (!bravebot::CheckDeclaration(declaration)) std::abort();
  return 0;
}
