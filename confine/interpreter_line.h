// What a program's "#!" line runs, read as the kernel reads it (the first 256
// bytes; the interpreter up to the first blank; the rest of the line, trimmed,
// as one argument) and, for `env`, as GNU env reads that one argument
// (`-S` splitting it, `-i`, `-u NAME`, `-C DIR`, `--`, NAME=value before the
// program). The reach grants the interpreter it names; a line we cannot read
// whole widens nothing, and says why.
//
//   InterpreterLine line = ReadInterpreterLine("#!/usr/bin/env -S node --flag\n...");
//   // line.interpreter == "/usr/bin/env", line.env_program == "node"
#ifndef BRAVEBOT_CONFINE_INTERPRETER_LINE_H_
#define BRAVEBOT_CONFINE_INTERPRETER_LINE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace bravebot {

// As much of a program as the kernel reads for its "#!" line.
inline constexpr size_t kInterpreterLineBytes = 256;

struct InterpreterLine {
  std::string interpreter;  // the absolute path the kernel runs
  // For env: the program it runs, as written (a name found through PATH, or an
  // absolute path); "" when there is none or the line was not read whole.
  std::string env_program;
  // env finds env_program without the server's PATH: -i or -u PATH cleared
  // it, so the C library's default search path is used.
  bool env_path_cleared = false;
  // Why the line cannot be read whole ("its #! line names its interpreter by
  // a relative path"), or "" when it was.
  std::string unread;
};

// Reads the start of a file (at least its first kInterpreterLineBytes bytes,
// or all of it when it is shorter). Nothing when it does not start with "#!".
std::optional<InterpreterLine> ReadInterpreterLine(std::string_view start);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_INTERPRETER_LINE_H_
