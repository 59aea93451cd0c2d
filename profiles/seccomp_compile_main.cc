// bravebot-seccomp-compile FILE: compiles, with libseccomp, every seccomp
// filter a server can be given (profiles/seccomp_filter.h) and writes them to
// FILE as C++ arrays, which profiles/compiled_seccomp.cc includes. Run by the
// build, on the machine that builds: no start compiles a filter, and no
// program loads libseccomp. On a machine of another architecture FILE holds
// the reason there is no filter, which every start then gives; on x86_64 a
// filter that cannot be compiled (a build sandbox that refuses seccomp(2),
// which libseccomp asks what the kernel offers) fails the build.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "profiles/seccomp_filter.h"

namespace {

using bravebot::BuildSeccompProgram;
using bravebot::Result;
using bravebot::SeccompChoices;
using bravebot::SeccompProgram;

// `text` as a C++ string literal.
std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (c == '\n') {
      quoted += "\\n";
      continue;
    }
    quoted += c;
  }
  return quoted + "\"";
}

// One filter as `name`: its instructions, or the reason it has none (on a
// machine of another architecture, where every start then gives it). False
// where the architecture is the filter's and it still could not be made:
// the build fails, rather than making programs that start nothing.
bool Write(std::ostream& out, const std::string& name, const SeccompChoices& choices) {
  Result<SeccompProgram> program = BuildSeccompProgram(choices);
#if defined(__x86_64__)
  if (!program) {
    std::cerr << "bravebot-seccomp-compile: " << program.error().message() << "\n";
    return false;
  }
#endif
  if (!program) {
    out << "constexpr const char* " << name << "Refused = " << Quoted(program.error().message())
        << ";\nconstexpr struct sock_filter " << name << "[] = {{0, 0, 0, 0}};\n";
    return true;
  }
  out << "constexpr const char* " << name << "Refused = nullptr;\n"
      << "constexpr struct sock_filter " << name << "[] = {\n";
  for (const struct sock_filter& instruction : program->instructions) {
    char line[64];
    std::snprintf(line, sizeof(line), "    {0x%04x, %u, %u, 0x%08x},\n", instruction.code,
                  instruction.jt, instruction.jf, instruction.k);
    out << line;
  }
  out << "};\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: bravebot-seccomp-compile FILE\n";
    return 2;
  }
  std::ostringstream text;
  text << "// Written by bravebot-seccomp-compile as bravebot-mcp was built: do not edit.\n";
  for (bool own_ipc : {true, false}) {
    for (bool death_signal : {false, true}) {
      const std::string name = std::string("kFilter") + (own_ipc ? "OwnIpc" : "SharedIpc") +
                               (death_signal ? "KeepsDeathSignal" : "");
      if (!Write(text, name, {own_ipc, death_signal})) return 1;
    }
  }
  // Written whole or not at all: a build stopped halfway leaves no half file.
  const std::string partial = std::string(argv[1]) + ".partial";
  std::ofstream file(partial);
  file << text.str();
  file.close();
  if (!file) {
    std::cerr << "bravebot-seccomp-compile: " << partial << " could not be written\n";
    return 1;
  }
  if (std::rename(partial.c_str(), argv[1]) != 0) {
    std::perror("bravebot-seccomp-compile");
    return 1;
  }
  return 0;
}
