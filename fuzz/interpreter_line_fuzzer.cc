// Feeds arbitrary bytes, as the start of a program, to the #! line reader:
// what a server that may write its own program controls. Beyond not
// crashing: a line it gives a program for env was read whole, and every
// interpreter it names is an absolute path.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "confine/interpreter_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view start(reinterpret_cast<const char*>(data), size);
  std::optional<bravebot::InterpreterLine> line = bravebot::ReadInterpreterLine(start);
  if (!line) return 0;
  if (!line->env_program.empty() && !line->unread.empty()) std::abort();
  if (!line->interpreter.empty() && line->interpreter.front() != '/') std::abort();
  if (line->interpreter.find_first_of(" \t\n") != std::string::npos) std::abort();
  if (line->env_program.find_first_of(" \t\n") != std::string::npos) std::abort();
  return 0;
}
