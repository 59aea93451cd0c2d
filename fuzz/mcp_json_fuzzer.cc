// Feeds arbitrary bytes to the mcp.json reader. Beyond not crashing: every
// declaration it accepts must survive a write and a read unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "supervisor/store/declaration_file.h"
#include "supervisor/store/declaration_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto document = bravebot::ParseDeclarationDocument(text, "mcp.json");
  if (!document) return 0;
  bravebot::DeclarationFile file = bravebot::ReadDeclarations(*document);
  for (const bravebot::Declaration& declaration : file.declarations) {
    auto again =
        bravebot::DeclarationFromJson(declaration.alias, bravebot::DeclarationToJson(declaration));
    if (!again || !(*again == declaration)) std::abort();
  }
  return 0;
}
