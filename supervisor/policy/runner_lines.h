// The lines the server question adds for a program that fetches what it runs
// as it starts: npx, bunx, npm exec, pnpm dlx, yarn dlx, uvx, uv tool run and
// pipx run. Approving a server approves its command line; which code such a
// command runs is decided when it runs, and these lines say so.
//
//   Declaration weather;
//   weather.program = "/opt/homebrew/bin/npx";
//   weather.arguments = {"-y", "@dangahagan/weather-mcp@latest"};
//   for (const std::string& line : RunnerLines(weather)) Draw(line);
//   // npx fetches what it runs when it starts
//   // @dangahagan/weather-mcp@latest names no exact version, so it runs whatever is published
//   // under it
//
// Pure: it reads the declaration's words and nothing else (no PATH, no files,
// no registry).
#ifndef BRAVEBOT_SUPERVISOR_POLICY_RUNNER_LINES_H_
#define BRAVEBOT_SUPERVISOR_POLICY_RUNNER_LINES_H_

#include <string>
#include <vector>

#include "confine/declaration.h"

namespace bravebot {

// Empty for any program that is no runner (judged by its base name, so
// /usr/bin/npx and ~/.nvm/versions/node/v22/bin/npx are npx). For a runner:
//
//   "<runner> fetches what it runs when it starts", always first, naming the
//   runner as the command does ("npx", "npm exec", "npm x", "uv tool run");
//
//   then, for each package the runner fetches whose words name no exact
//   version, in the order main package (the positional one, or the ones named
//   by -p / --package / --from / --spec in its place), then extras (uv's
//   --with):
//   "<package> names no exact version, so it runs whatever is published under it";
//
//   "<file> lists packages bravebot does not read, so which versions run is not known"
//   for uv's --with-requirements;
//
//   and, last, where a flag bravebot does not know comes before the package:
//   "which package <runner> runs is not known, since <flag> may take the next word as its value".
//   Nothing after that flag is judged. A --flag=value carries its value and
//   is passed over, unless the runner (npm, pnpm, pipx) would read it as a
//   longer flag it begins: then "... since <flag> may be short for a flag that
//   names it".
//
// Exact is what the runner's ecosystem means by it: for the npm family
// name@x.y.z (a full semver version, prerelease and build allowed); for
// Python, name==x.y.z or name===x (and uv's name@x.y.z), no wildcard. A local
// path is not fetched and gets no line. Words from the declaration appear with
// control characters escaped (EscapeControlCharacters, which leaves text that
// is already escaped as it is).
std::vector<std::string> RunnerLines(const Declaration& declaration);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_RUNNER_LINES_H_
