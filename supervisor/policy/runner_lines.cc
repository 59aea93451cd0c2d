#include "supervisor/policy/runner_lines.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

#include "base/shown_text.h"

namespace bravebot {
namespace {

enum class Runner { kNpx, kNpmExec, kBunx, kPnpmDlx, kYarnDlx, kUvToolRun, kPipxRun };

// What a flag does to the reading of the words after it.
enum class FlagUse {
  kSwitch,  // takes no value
  // npx's --no and --no-<x>: npx passes the next word on as the flag's value,
  // and npm, reading the flag as a switch, takes that word as the first
  // positional. npx's own flags go on after it.
  kHidingSwitch,
  kValue,             // takes a value that changes nothing judged here
  kPackage,           // its value is fetched in place of the positional, which is then the command
  kExtraPackages,     // its value is packages fetched besides (uv's --with, comma separated)
  kRequirementsFile,  // its value is a file naming packages (uv's --with-requirements)
  kCall,              // npm's --call: a shell command runs; the positional words are no package
  kLocalApp,          // pipx's --path: the app is a local file
};

struct Flag {
  std::string_view name;
  FlagUse use;
};

bool TakesValue(FlagUse use) {
  return use != FlagUse::kSwitch && use != FlagUse::kHidingSwitch && use != FlagUse::kLocalApp;
}

// npm's own flags, as both npx (bin/npx-cli.js) and npm exec (nopt) read
// them. Shorthands that expand to a flag with its value (-q is --loglevel
// warn) are switches to the words typed.
constexpr Flag kNpmFlags[] = {
    {"-y", FlagUse::kSwitch},
    {"--yes", FlagUse::kSwitch},
    {"-q", FlagUse::kSwitch},
    {"--quiet", FlagUse::kSwitch},
    {"-s", FlagUse::kSwitch},
    {"--silent", FlagUse::kSwitch},
    {"-d", FlagUse::kSwitch},
    {"--verbose", FlagUse::kSwitch},
    {"--prefer-online", FlagUse::kSwitch},
    {"--prefer-offline", FlagUse::kSwitch},
    {"--offline", FlagUse::kSwitch},
    {"--ignore-existing", FlagUse::kSwitch},
    {"--ignore-scripts", FlagUse::kSwitch},
    {"--legacy-peer-deps", FlagUse::kSwitch},
    {"--foreground-scripts", FlagUse::kSwitch},
    {"-f", FlagUse::kSwitch},
    {"--force", FlagUse::kSwitch},
    {"-g", FlagUse::kSwitch},
    {"--global", FlagUse::kSwitch},
    {"--audit", FlagUse::kSwitch},
    {"--fund", FlagUse::kSwitch},
    {"--update-notifier", FlagUse::kSwitch},
    {"--progress", FlagUse::kSwitch},
    {"--strict-ssl", FlagUse::kSwitch},
    {"-h", FlagUse::kSwitch},
    {"--help", FlagUse::kSwitch},
    {"-v", FlagUse::kSwitch},
    {"--version", FlagUse::kSwitch},
    {"--package", FlagUse::kPackage},
    {"-c", FlagUse::kCall},
    {"--call", FlagUse::kCall},
    {"--registry", FlagUse::kValue},
    {"--reg", FlagUse::kValue},
    {"--cache", FlagUse::kValue},
    {"--userconfig", FlagUse::kValue},
    {"--loglevel", FlagUse::kValue},
    {"--node-options", FlagUse::kValue},
    {"--include", FlagUse::kValue},
    {"--omit", FlagUse::kValue},
    {"--before", FlagUse::kValue},
    {"--tag", FlagUse::kValue},
    {"--script-shell", FlagUse::kValue},
    {"-w", FlagUse::kValue},
    {"--workspace", FlagUse::kValue},
    {"-C", FlagUse::kValue},
    {"--prefix", FlagUse::kValue},
    {"-L", FlagUse::kValue},
    {"--location", FlagUse::kValue},
};

// npx rewrites these before npm reads them: -p is --package (to npm alone it
// is --parseable), and --no-install is --yes=false. -n is left out: npx drops
// it together with the word after it.
constexpr Flag kNpxFlags[] = {
    {"-p", FlagUse::kPackage},
    {"--no-install", FlagUse::kSwitch},
    {"--no", FlagUse::kHidingSwitch},
    {"--shell", FlagUse::kValue},
};

constexpr Flag kNpmExecFlags[] = {
    {"-p", FlagUse::kSwitch},  // --parseable
    {"-n", FlagUse::kSwitch},  // --no-yes
    {"--no", FlagUse::kSwitch},
};

constexpr Flag kBunxFlags[] = {
    {"--bun", FlagUse::kSwitch},        {"-b", FlagUse::kSwitch},
    {"--silent", FlagUse::kSwitch},     {"--verbose", FlagUse::kSwitch},
    {"--no-install", FlagUse::kSwitch}, {"--revision", FlagUse::kSwitch},
    {"-v", FlagUse::kSwitch},           {"--version", FlagUse::kSwitch},
    {"-p", FlagUse::kPackage},          {"--package", FlagUse::kPackage},
};

// -c is --shell-mode: the command runs in a shell, and without --package pnpm
// still fetches the first positional word.
constexpr Flag kPnpmFlags[] = {
    {"-s", FlagUse::kSwitch},         {"--silent", FlagUse::kSwitch},
    {"-c", FlagUse::kSwitch},         {"--shell-mode", FlagUse::kSwitch},
    {"--package", FlagUse::kPackage}, {"--allow-build", FlagUse::kValue},
    {"--reporter", FlagUse::kValue},  {"--loglevel", FlagUse::kValue},
    {"--registry", FlagUse::kValue},  {"-C", FlagUse::kValue},
    {"--dir", FlagUse::kValue},
};

constexpr Flag kYarnFlags[] = {
    {"-q", FlagUse::kSwitch},
    {"--quiet", FlagUse::kSwitch},
    {"-p", FlagUse::kPackage},
    {"--package", FlagUse::kPackage},
};

// uv tool run's options and uv's global ones. Not every --no-<x> of uv is a
// switch (--no-binary-package takes a package), so each is listed.
constexpr Flag kUvFlags[] = {
    {"-q", FlagUse::kSwitch},
    {"--quiet", FlagUse::kSwitch},
    {"-v", FlagUse::kSwitch},
    {"--verbose", FlagUse::kSwitch},
    {"-n", FlagUse::kSwitch},
    {"--no-cache", FlagUse::kSwitch},
    {"--offline", FlagUse::kSwitch},
    {"--isolated", FlagUse::kSwitch},
    {"--refresh", FlagUse::kSwitch},
    {"-U", FlagUse::kSwitch},
    {"--upgrade", FlagUse::kSwitch},
    {"--reinstall", FlagUse::kSwitch},
    {"--pre", FlagUse::kSwitch},
    {"--no-index", FlagUse::kSwitch},
    {"--no-build", FlagUse::kSwitch},
    {"--no-binary", FlagUse::kSwitch},
    {"--no-build-isolation", FlagUse::kSwitch},
    {"--no-sources", FlagUse::kSwitch},
    {"--compile-bytecode", FlagUse::kSwitch},
    {"--native-tls", FlagUse::kSwitch},
    {"--no-python-downloads", FlagUse::kSwitch},
    {"--managed-python", FlagUse::kSwitch},
    {"--no-managed-python", FlagUse::kSwitch},
    {"--no-config", FlagUse::kSwitch},
    {"--no-progress", FlagUse::kSwitch},
    {"--preview", FlagUse::kSwitch},
    {"--no-preview", FlagUse::kSwitch},
    {"--no-env-file", FlagUse::kSwitch},
    {"--show-resolution", FlagUse::kSwitch},
    {"--lfs", FlagUse::kSwitch},
    {"-h", FlagUse::kSwitch},
    {"--help", FlagUse::kSwitch},
    {"--from", FlagUse::kPackage},
    {"-w", FlagUse::kExtraPackages},
    {"--with", FlagUse::kExtraPackages},
    {"--with-editable", FlagUse::kExtraPackages},
    {"--with-requirements", FlagUse::kRequirementsFile},
    {"--constraints", FlagUse::kValue},
    {"--build-constraints", FlagUse::kValue},
    {"--overrides", FlagUse::kValue},
    {"--env-file", FlagUse::kValue},
    {"-p", FlagUse::kValue},
    {"--python", FlagUse::kValue},
    {"--python-platform", FlagUse::kValue},
    {"--index", FlagUse::kValue},
    {"--default-index", FlagUse::kValue},
    {"-i", FlagUse::kValue},
    {"--index-url", FlagUse::kValue},
    {"--extra-index-url", FlagUse::kValue},
    {"-f", FlagUse::kValue},
    {"--find-links", FlagUse::kValue},
    {"-P", FlagUse::kValue},
    {"--upgrade-package", FlagUse::kValue},
    {"--reinstall-package", FlagUse::kValue},
    {"--refresh-package", FlagUse::kValue},
    {"--index-strategy", FlagUse::kValue},
    {"--keyring-provider", FlagUse::kValue},
    {"--resolution", FlagUse::kValue},
    {"--prerelease", FlagUse::kValue},
    {"--fork-strategy", FlagUse::kValue},
    {"-C", FlagUse::kValue},
    {"--config-setting", FlagUse::kValue},
    {"--no-build-isolation-package", FlagUse::kValue},
    {"--no-build-package", FlagUse::kValue},
    {"--no-binary-package", FlagUse::kValue},
    {"--exclude-newer", FlagUse::kValue},
    {"--link-mode", FlagUse::kValue},
    {"--torch-backend", FlagUse::kValue},
    {"--color", FlagUse::kValue},
    {"--cache-dir", FlagUse::kValue},
    {"--python-preference", FlagUse::kValue},
    {"--allow-insecure-host", FlagUse::kValue},
    {"--directory", FlagUse::kValue},
    {"--project", FlagUse::kValue},
    {"--config-file", FlagUse::kValue},
};

constexpr Flag kPipxFlags[] = {
    {"--no-cache", FlagUse::kSwitch},
    {"--pypackages", FlagUse::kSwitch},
    {"--system-site-packages", FlagUse::kSwitch},
    {"--fetch-missing-python", FlagUse::kSwitch},
    {"-e", FlagUse::kSwitch},
    {"--editable", FlagUse::kSwitch},
    {"-v", FlagUse::kSwitch},
    {"--verbose", FlagUse::kSwitch},
    {"-q", FlagUse::kSwitch},
    {"--quiet", FlagUse::kSwitch},
    {"-h", FlagUse::kSwitch},
    {"--help", FlagUse::kSwitch},
    {"--path", FlagUse::kLocalApp},
    {"--spec", FlagUse::kPackage},
    {"--python", FlagUse::kValue},
    {"-i", FlagUse::kValue},
    {"--index-url", FlagUse::kValue},
    {"--pip-args", FlagUse::kValue},
};

std::vector<std::span<const Flag>> FlagTables(Runner runner) {
  switch (runner) {
    case Runner::kNpx:
      return {kNpxFlags, kNpmFlags};
    case Runner::kNpmExec:
      return {kNpmExecFlags, kNpmFlags};
    case Runner::kBunx:
      return {kBunxFlags};
    case Runner::kPnpmDlx:
      return {kPnpmFlags};
    case Runner::kYarnDlx:
      return {kYarnFlags};
    case Runner::kUvToolRun:
      return {kUvFlags};
    case Runner::kPipxRun:
      return {kPipxFlags};
  }
  return {};
}

std::optional<FlagUse> FlagUseOf(Runner runner, std::string_view name) {
  for (std::span<const Flag> table : FlagTables(runner)) {
    for (const Flag& flag : table) {
      if (flag.name == name) return flag.use;
    }
  }
  // nopt reads any --no-<x> as a switch setting x to false.
  if (name.starts_with("--no-")) {
    if (runner == Runner::kNpx) return FlagUse::kHidingSwitch;
    if (runner == Runner::kNpmExec) return FlagUse::kSwitch;
  }
  // clap counts repeats: -qq, -vvv.
  if (runner == Runner::kUvToolRun && name.size() > 2 &&
      (name.find_first_not_of('q', 1) == std::string_view::npos ||
       name.find_first_not_of('v', 1) == std::string_view::npos)) {
    return FlagUse::kSwitch;
  }
  return std::nullopt;
}

// nopt (npm, pnpm) and argparse (pipx) take a long flag that begins a longer
// one they know as that flag: pipx reads --spe=x as --spec=x.
bool MayAbbreviateKnownFlag(Runner runner, std::string_view name) {
  if (runner == Runner::kBunx || runner == Runner::kYarnDlx || runner == Runner::kUvToolRun) {
    return false;
  }
  if (!name.starts_with("--")) return false;
  for (std::span<const Flag> table : FlagTables(runner)) {
    for (const Flag& flag : table) {
      if (flag.name.size() > name.size() && flag.name.starts_with(name)) return true;
    }
  }
  return false;
}

bool IsFlag(std::string_view word) { return word.size() > 1 && word[0] == '-'; }

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlnum(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A path on this machine: nothing is fetched for it, and what runs is the
// files there, as for any program given by its path. Judging versions does not
// apply.
bool IsLocalPath(std::string_view spec) {
  return spec == "." || spec == ".." || spec.starts_with("/") || spec.starts_with("./") ||
         spec.starts_with("../") || spec.starts_with("~/") || spec.starts_with("file:");
}

enum class Verdict { kExact, kNotExact, kLocal };

// --- The npm family ---------------------------------------------------------

bool IsNpmNamePart(std::string_view part) {
  if (part.empty()) return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    return IsAsciiAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
  });
}

bool IsNpmName(std::string_view name) {
  if (!name.starts_with('@')) return IsNpmNamePart(name);
  const auto slash = name.find('/');
  if (slash == std::string_view::npos) return false;
  return IsNpmNamePart(name.substr(1, slash - 1)) && IsNpmNamePart(name.substr(slash + 1));
}

// Dot-separated identifiers of [0-9A-Za-z-], from `at`; false when there is
// none or one is empty.
bool SkipIdentifiers(std::string_view text, size_t& at) {
  while (true) {
    const size_t start = at;
    while (at < text.size() && (IsAsciiAlnum(text[at]) || text[at] == '-')) ++at;
    if (at == start) return false;
    if (at == text.size() || text[at] != '.') return true;
    ++at;
  }
}

// A full semver version, which npm resolves to that one published version:
// 1.2.3, 1.2.3-beta.1, 1.2.3+build. npm also reads a leading v or = as the
// version itself. 1.2 is a range (any 1.2.x), and so are ^1.2.3, ~1.2, 1.x, *.
bool IsExactSemver(std::string_view range) {
  size_t at = 0;
  while (at < range.size() && (range[at] == 'v' || range[at] == '=')) ++at;
  for (int number = 0; number < 3; ++number) {
    const size_t start = at;
    while (at < range.size() && IsAsciiDigit(range[at])) ++at;
    if (at == start) return false;
    if (number < 2) {
      if (at == range.size() || range[at] != '.') return false;
      ++at;
    }
  }
  if (at < range.size() && range[at] == '-' && !SkipIdentifiers(range, ++at)) return false;
  if (at < range.size() && range[at] == '+' && !SkipIdentifiers(range, ++at)) return false;
  return at == range.size();
}

// name@version, @scope/name@version. A name alone, a tag (@latest), a range,
// a git or tarball url and a GitHub shorthand (user/repo) are not exact.
Verdict JudgeNpmSpec(std::string_view spec) {
  if (IsLocalPath(spec)) return Verdict::kLocal;
  const auto at = spec.find('@', spec.starts_with('@') ? 1 : 0);
  if (at == std::string_view::npos) return Verdict::kNotExact;
  if (!IsNpmName(spec.substr(0, at))) return Verdict::kNotExact;
  return IsExactSemver(spec.substr(at + 1)) ? Verdict::kExact : Verdict::kNotExact;
}

// --- Python -----------------------------------------------------------------

bool IsPythonNameCharacter(char c) { return IsAsciiAlnum(c) || c == '-' || c == '_' || c == '.'; }

// A PEP 440 version with no wildcard: ==1.2.3 names that release (PEP 440
// pads ==1.2 to 1.2.0, so it is exact too), while ==1.* is a range.
bool IsExactPythonVersion(std::string_view version) {
  size_t at = 0;
  if (at < version.size() && (version[at] == 'v' || version[at] == 'V')) ++at;
  if (at == version.size() || !IsAsciiDigit(version[at])) return false;
  return std::all_of(version.begin(), version.end(), [](char c) {
    return IsAsciiAlnum(c) || c == '.' || c == '!' || c == '+' || c == '-' || c == '_';
  });
}

// name==x.y.z and name===x (optionally with [extras]), and, where uv reads
// it, name@x.y.z. A name alone, >=, ~=, ==1.*, several specifiers, a marker,
// and a url are not exact.
Verdict JudgePythonRequirement(std::string_view requirement, bool uv_at_version) {
  const std::string_view text = Trim(requirement);
  if (IsLocalPath(text)) return Verdict::kLocal;
  if (text.empty() || !IsAsciiAlnum(text[0])) return Verdict::kNotExact;
  size_t at = 0;
  while (at < text.size() && IsPythonNameCharacter(text[at])) ++at;
  std::string_view rest = Trim(text.substr(at));
  if (rest.starts_with('[')) {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return Verdict::kNotExact;
    rest = Trim(rest.substr(close + 1));
  }
  bool exact = false;
  if (uv_at_version && rest.starts_with('@')) {
    exact = IsExactPythonVersion(Trim(rest.substr(1)));  // @latest is not
  } else if (rest.starts_with("===")) {
    const std::string_view version = Trim(rest.substr(3));
    exact = !version.empty() && version.find_first_of(" ,;") == std::string_view::npos;
  } else if (rest.starts_with("==")) {
    exact = IsExactPythonVersion(Trim(rest.substr(2)));
  }
  return exact ? Verdict::kExact : Verdict::kNotExact;
}

// uv's --with list: requirements separated by commas, where a comma inside
// [extras] or before another specifier of the same requirement (foo>=1,<2)
// separates nothing.
std::vector<std::string> SplitRequirements(std::string_view list) {
  std::vector<std::string> pieces;
  size_t start = 0;
  int depth = 0;
  for (size_t at = 0; at <= list.size(); ++at) {
    if (at < list.size()) {
      if (list[at] == '[') ++depth;
      if (list[at] == ']' && depth > 0) --depth;
      if (list[at] != ',' || depth > 0) continue;
    }
    const std::string_view piece = Trim(list.substr(start, at - start));
    start = at + 1;
    if (piece.empty()) continue;
    if (!pieces.empty() && !IsAsciiAlnum(piece[0])) {
      pieces.back() += ",";
      pieces.back() += piece;
    } else {
      pieces.emplace_back(piece);
    }
  }
  return pieces;
}

// `uvx python`, `uvx python@3.12`: an interpreter, not a package.
bool IsPythonInterpreterRequest(std::string_view command) {
  const std::string_view name = command.substr(0, command.find('@'));
  if (!name.starts_with("python")) return false;
  const std::string_view version = name.substr(6);
  return std::all_of(version.begin(), version.end(),
                     [](char c) { return IsAsciiDigit(c) || c == '.'; });
}

// --- Reading a runner's words -----------------------------------------------

struct RunnerCall {
  Runner runner;
  std::string name;  // as the program is named, without a path
  // The words that must come first, one set of spellings each: {"exec",
  // "exe", "x"} for npm; none for npx.
  std::vector<std::vector<std::string_view>> subcommand;
};

std::optional<RunnerCall> RunnerOf(std::string_view program) {
  const std::string_view base = program.substr(program.rfind('/') + 1);
  using Words = std::vector<std::vector<std::string_view>>;
  if (base == "npx") return RunnerCall{Runner::kNpx, "npx", {}};
  // npm's own aliases and the abbreviation it accepts (cmd-list.js).
  if (base == "npm") return RunnerCall{Runner::kNpmExec, "npm", Words{{"exec", "exe", "x"}}};
  if (base == "bunx") return RunnerCall{Runner::kBunx, "bunx", {}};
  if (base == "bun") return RunnerCall{Runner::kBunx, "bun", Words{{"x"}}};
  if (base == "pnpx") return RunnerCall{Runner::kPnpmDlx, "pnpx", {}};
  if (base == "pnpm") return RunnerCall{Runner::kPnpmDlx, "pnpm", Words{{"dlx"}}};
  if (base == "yarn") return RunnerCall{Runner::kYarnDlx, "yarn", Words{{"dlx"}}};
  if (base == "uvx") return RunnerCall{Runner::kUvToolRun, "uvx", {}};
  if (base == "uv") return RunnerCall{Runner::kUvToolRun, "uv", Words{{"tool"}, {"run"}}};
  if (base == "pipx") return RunnerCall{Runner::kPipxRun, "pipx", Words{{"run"}}};
  return std::nullopt;
}

struct Reading {
  std::string name;  // the runner as the lines name it: "npx", "npm x", "uv tool run"
  std::vector<std::string> named_packages;  // by -p, --package, --from, --spec
  std::optional<std::string> positional;    // the first positional word after the subcommand
  bool calls = false;                       // npm's --call
  bool local_app = false;                   // pipx's --path
  std::vector<std::string> extra_packages;
  std::vector<std::string> requirement_files;
  std::string unknown_flag;  // the first flag not known, where it leaves the package unknown
  bool unknown_may_abbreviate = false;  // it carries its value but may stand for a known flag
};

// Reads `words` as `call.runner` does, or nothing when they do not start with
// its subcommand. Every runner but npm exec stops at the first positional word:
// what follows belongs to the package. npm exec reads npm's flags up to "--"
// wherever they stand, so a --package after the positional still counts.
std::optional<Reading> ReadWords(const RunnerCall& call, const std::vector<std::string>& words) {
  Reading reading;
  reading.name = call.name;
  size_t matched = 0;
  bool only_positionals = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool judging = reading.unknown_flag.empty();
    if (!only_positionals && word == "--") {
      only_positionals = true;
      continue;
    }
    if (only_positionals || !IsFlag(word)) {
      if (matched < call.subcommand.size()) {
        const auto& spellings = call.subcommand[matched];
        if (std::find(spellings.begin(), spellings.end(), word) == spellings.end()) {
          return std::nullopt;
        }
        reading.name += " " + word;
        ++matched;
        if (matched == call.subcommand.size() && !judging) break;
        continue;
      }
      if (!reading.positional) reading.positional = word;
      if (call.runner == Runner::kNpmExec && !only_positionals) continue;
      break;
    }

    const auto equals = word.find('=');
    const std::string_view name = std::string_view(word).substr(0, equals);
    const bool has_value = equals != std::string::npos;
    const std::optional<FlagUse> use = FlagUseOf(call.runner, name);
    if (!use) {
      const bool may_abbreviate = MayAbbreviateKnownFlag(call.runner, name);
      // A --flag=value carries its value, so the next word is still read as
      // it would be without it.
      if (has_value && !may_abbreviate) continue;
      // nopt reads a flag it does not know as a switch, and the package is
      // already named.
      if (call.runner == Runner::kNpmExec && reading.positional) continue;
      if (judging) {
        reading.unknown_flag = std::string(name);
        reading.unknown_may_abbreviate = has_value;
      }
      // Before the subcommand, go on looking for it; nothing after the flag
      // is judged.
      if (matched == call.subcommand.size()) break;
      continue;
    }

    std::optional<std::string> value;
    if (has_value) {
      value = word.substr(equals + 1);
    } else if (TakesValue(*use) && i + 1 < words.size()) {
      value = words[++i];
    }
    if (!judging) continue;
    switch (*use) {
      case FlagUse::kSwitch:
        // nopt takes `--yes false` as the switch's value.
        if (call.runner == Runner::kNpmExec && !has_value && i + 1 < words.size() &&
            (words[i + 1] == "true" || words[i + 1] == "false")) {
          ++i;
        }
        break;
      case FlagUse::kHidingSwitch:
        if (!has_value && i + 1 < words.size() && !words[i + 1].starts_with('-')) {
          if (!reading.positional) reading.positional = words[i + 1];
          ++i;
        }
        break;
      case FlagUse::kValue:
        break;
      case FlagUse::kPackage:
        if (value) reading.named_packages.push_back(*value);
        break;
      case FlagUse::kExtraPackages:
        if (value) {
          for (std::string& piece : SplitRequirements(*value)) {
            reading.extra_packages.push_back(std::move(piece));
          }
        }
        break;
      case FlagUse::kRequirementsFile:
        if (value) reading.requirement_files.push_back(*value);
        break;
      case FlagUse::kCall:
        reading.calls = true;
        break;
      case FlagUse::kLocalApp:
        reading.local_app = true;
        break;
    }
  }
  if (matched < call.subcommand.size()) return std::nullopt;
  return reading;
}

Verdict Judge(Runner runner, std::string_view spec) {
  switch (runner) {
    case Runner::kNpx:
    case Runner::kNpmExec:
    case Runner::kBunx:
    case Runner::kPnpmDlx:
    case Runner::kYarnDlx:
      return JudgeNpmSpec(spec);
    case Runner::kUvToolRun:
      return JudgePythonRequirement(spec, /*uv_at_version=*/true);
    case Runner::kPipxRun:
      return JudgePythonRequirement(spec, /*uv_at_version=*/false);
  }
  return Verdict::kNotExact;
}

// The package the positional word names, or nothing where it names none.
std::optional<std::string> PositionalPackage(Runner runner, const Reading& reading) {
  if (!reading.positional || !reading.named_packages.empty() || reading.calls ||
      !reading.unknown_flag.empty()) {
    return std::nullopt;
  }
  const std::string& word = *reading.positional;
  if (runner == Runner::kUvToolRun && IsPythonInterpreterRequest(word)) return std::nullopt;
  if (runner == Runner::kPipxRun) {
    // pipx runs a .py file on this machine as a script, and --path says the
    // app is a local file.
    if (reading.local_app) return std::nullopt;
    if (word.ends_with(".py") && word.find("://") == std::string::npos) return std::nullopt;
  }
  return word;
}

}  // namespace

std::vector<std::string> RunnerLines(const Declaration& declaration) {
  if (declaration.transport != Transport::kStdio) return {};
  const std::optional<RunnerCall> call = RunnerOf(declaration.program);
  if (!call) return {};
  const std::optional<Reading> reading = ReadWords(*call, declaration.arguments);
  if (!reading) return {};

  std::vector<std::string> lines;
  lines.push_back(reading->name + " fetches what it runs when it starts");

  std::vector<std::string> fetched = reading->named_packages;
  if (std::optional<std::string> package = PositionalPackage(call->runner, *reading)) {
    fetched.push_back(*package);
  }
  fetched.insert(fetched.end(), reading->extra_packages.begin(), reading->extra_packages.end());
  for (const std::string& package : fetched) {
    if (Judge(call->runner, package) != Verdict::kNotExact) continue;
    lines.push_back(EscapeControlCharacters(package) +
                    " names no exact version, so it runs whatever is published under it");
  }
  for (const std::string& file : reading->requirement_files) {
    lines.push_back(EscapeControlCharacters(file) +
                    " lists packages bravebot does not read, so which versions run is not known");
  }
  if (!reading->unknown_flag.empty()) {
    const std::string flag = EscapeControlCharacters(reading->unknown_flag);
    const std::string why = reading->unknown_may_abbreviate
                                ? flag + " may be short for a flag that names it"
                                : flag + " may take the next word as its value";
    lines.push_back("which package " + reading->name + " runs is not known, since " + why);
  }
  return lines;
}

}  // namespace bravebot
