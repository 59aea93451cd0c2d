#include "confine/interpreter_line.h"

#include <vector>

namespace bravebot {
namespace {

constexpr std::string_view kBlanks = " \t";

std::string_view Trim(std::string_view text) {
  size_t begin = text.find_first_not_of(kBlanks);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(kBlanks);
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < text.size()) {
    size_t begin = text.find_first_not_of(" \t\n\v\f\r", at);
    if (begin == std::string_view::npos) break;
    size_t end = text.find_first_of(" \t\n\v\f\r", begin);
    if (end == std::string_view::npos) end = text.size();
    words.emplace_back(text.substr(begin, end - begin));
    at = end;
  }
  return words;
}

bool IsClusterOf(std::string_view letters, std::string_view allowed) {
  return !letters.empty() && letters.find_first_not_of(allowed) == std::string_view::npos;
}

// Reads env's words after `-S` split them: options, NAME=value, the program.
void ReadEnvWords(const std::vector<std::string>& words, InterpreterLine& line) {
  size_t i = 0;
  auto unset = [&](std::string_view name) {
    if (name == "PATH") line.env_path_cleared = true;
  };
  for (; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool has_next = i + 1 < words.size();
    if (word == "--") {
      ++i;
      break;
    }
    if (word == "-" || word == "--ignore-environment") {
      line.env_path_cleared = true;
    } else if (word == "--null" || word == "--debug") {
      // Change nothing about what runs.
    } else if ((word == "-u" || word == "--unset") && has_next) {
      unset(words[++i]);
    } else if (word.starts_with("--unset=")) {
      unset(std::string_view(word).substr(8));
    } else if (word.starts_with("-u") && word.size() > 2) {
      unset(std::string_view(word).substr(2));
    } else if ((word == "-C" || word == "--chdir") && has_next) {
      ++i;  // The directory matters only to a relative program path, refused below.
    } else if (word.starts_with("--chdir=") || (word.starts_with("-C") && word.size() > 2)) {
      // As above.
    } else if (word.starts_with('-') && IsClusterOf(std::string_view(word).substr(1), "i0v")) {
      if (word.find('i') != std::string::npos) line.env_path_cleared = true;
    } else if (word.starts_with('-')) {
      line.unread = "its #! line gives env an option not read here (" + word + ")";
      return;
    } else {
      break;
    }
  }
  for (; i < words.size() && words[i].find('=') != std::string::npos; ++i) {
    if (words[i].starts_with("PATH=")) {
      line.unread = "its #! line sets PATH for the program env runs";
      return;
    }
  }
  if (i == words.size()) {
    line.unread = "its #! line gives env no program to run";
    return;
  }
  const std::string& program = words[i];
  if (!program.starts_with('/') && program.find('/') != std::string::npos) {
    line.unread = "its #! line gives env a program by a relative path";
    return;
  }
  line.env_program = program;
}

// Reads the one argument the kernel gives env.
void ReadEnvArgument(std::string_view argument, InterpreterLine& line) {
  if (argument.empty()) {
    line.unread = "its #! line gives env no program to run";
    return;
  }
  std::string_view split;
  if (argument.starts_with("--split-string=")) {
    split = argument.substr(15);
  } else if (argument.starts_with('-') && !argument.starts_with("--")) {
    // A cluster of short options ending in S, whose value is the rest: -S, -vS, -iS.
    size_t s = argument.find('S');
    if (s == std::string_view::npos || (s != 1 && !IsClusterOf(argument.substr(1, s - 1), "i0v"))) {
      line.unread = "its #! line gives env options it reads as one word";
      return;
    }
    if (argument.substr(1, s - 1).find('i') != std::string_view::npos) {
      line.env_path_cleared = true;
    }
    split = argument.substr(s + 1);
  } else if (argument.starts_with('-')) {
    line.unread = "its #! line gives env options it reads as one word";
    return;
  } else if (argument.find_first_of(" \t") != std::string_view::npos) {
    line.unread = "its #! line gives env one word holding a space, with no -S to split it";
    return;
  } else {
    ReadEnvWords({std::string(argument)}, line);
    return;
  }
  // env -S quotes, escapes, expands ${NAME} and drops #comments; none of it
  // is read here.
  if (split.find_first_of("\\\"'$#") != std::string_view::npos) {
    line.unread = "its #! line uses quotes, escapes, variables or comments of env -S";
    return;
  }
  ReadEnvWords(SplitWords(split), line);
}

}  // namespace

std::optional<InterpreterLine> ReadInterpreterLine(std::string_view start) {
  if (!start.starts_with("#!")) return std::nullopt;
  InterpreterLine line;
  size_t newline = start.find('\n');
  if (newline == std::string_view::npos && start.size() >= kInterpreterLineBytes) {
    line.unread = "its #! line is longer than the " + std::to_string(kInterpreterLineBytes) +
                  " bytes the kernel reads";
    return line;
  }
  std::string_view text =
      start.substr(2, (newline == std::string_view::npos ? start.size() : newline) - 2);
  if (text.find('\0') != std::string_view::npos) {
    line.unread = "its #! line holds a NUL byte";
    return line;
  }
  text = Trim(text);
  size_t blank = text.find_first_of(kBlanks);
  std::string_view interpreter = text.substr(0, blank);
  std::string_view argument = blank == std::string_view::npos ? "" : Trim(text.substr(blank));
  if (!interpreter.starts_with('/')) {
    line.unread = interpreter.empty() ? "its #! line names no interpreter"
                                      : "its #! line names its interpreter by a relative path";
    return line;
  }
  line.interpreter = std::string(interpreter);
  if (interpreter.substr(interpreter.rfind('/') + 1) == "env") ReadEnvArgument(argument, line);
  return line;
}

}  // namespace bravebot
