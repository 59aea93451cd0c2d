#include "supervisor/policy/runner_lines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Lines(const std::string& program, std::vector<std::string> arguments) {
  Declaration declaration;
  declaration.alias = "server";
  declaration.program = program;
  declaration.arguments = std::move(arguments);
  declaration.passed_variables = {"PATH"};
  return RunnerLines(declaration);
}

std::string Fetches(std::string_view runner) {
  return std::string(runner) + " fetches what it runs when it starts";
}

std::string NotExact(std::string_view package) {
  return std::string(package) +
         " names no exact version, so it runs whatever is published under it";
}

std::string NotKnown(std::string_view runner, std::string_view flag) {
  return "which package " + std::string(runner) + " runs is not known, since " + std::string(flag) +
         " may take the next word as its value";
}

TEST(RunnerLinesTest, TheSpecsExample) {
  EXPECT_THAT(
      Lines("npx", {"-y", "@dangahagan/weather-mcp@latest"}),
      ElementsAre("npx fetches what it runs when it starts",
                  "@dangahagan/weather-mcp@latest names no exact version, so it runs whatever is "
                  "published under it"));
  EXPECT_THAT(Lines("npx", {"-y", "@dangahagan/weather-mcp@1.4.0"}),
              ElementsAre("npx fetches what it runs when it starts"));
}

TEST(RunnerLinesTest, NoLinesForAProgramThatIsNoRunner) {
  EXPECT_THAT(Lines("node", {"server.js"}), IsEmpty());
  EXPECT_THAT(Lines("/usr/bin/python3", {"-m", "weather_mcp"}), IsEmpty());
  EXPECT_THAT(Lines("/opt/bin/npx-wrapper", {"foo"}), IsEmpty());
  EXPECT_THAT(Lines("npm", {"install", "foo"}), IsEmpty());
  EXPECT_THAT(Lines("npm", {"run", "start"}), IsEmpty());
  EXPECT_THAT(Lines("npm", {}), IsEmpty());
  EXPECT_THAT(Lines("pnpm", {"exec", "foo"}), IsEmpty());
  EXPECT_THAT(Lines("yarn", {"add", "foo"}), IsEmpty());
  EXPECT_THAT(Lines("bun", {"run", "server.ts"}), IsEmpty());
  EXPECT_THAT(Lines("uv", {"run", "server.py"}), IsEmpty());
  EXPECT_THAT(Lines("uv", {"tool", "install", "foo"}), IsEmpty());
  EXPECT_THAT(Lines("pipx", {"install", "foo"}), IsEmpty());

  Declaration http;
  http.alias = "docs";
  http.transport = Transport::kHttp;
  http.url = "https://mcp.example.com/mcp";
  EXPECT_THAT(RunnerLines(http), IsEmpty());
}

TEST(RunnerLinesTest, ARunnerGivenByPathIsJudgedByItsName) {
  EXPECT_THAT(Lines("/opt/homebrew/bin/npx", {"weather-mcp"}),
              ElementsAre(Fetches("npx"), NotExact("weather-mcp")));
  EXPECT_THAT(Lines("/home/u/.nvm/versions/node/v22.1.0/bin/npx", {"weather-mcp@2.0.0"}),
              ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("/home/u/.local/bin/uvx", {"mcp-server-fetch"}),
              ElementsAre(Fetches("uvx"), NotExact("mcp-server-fetch")));
}

TEST(RunnerLinesTest, NpmExactVersions) {
  for (const char* spec : {"weather-mcp@1.4.0", "@scope/server@1.4.0", "server@1.4.0-beta.1",
                           "server@1.4.0+build.7", "server@v1.4.0", "server@10.20.30-rc.1+sha.5"}) {
    EXPECT_THAT(Lines("npx", {"-y", spec}), ElementsAre(Fetches("npx"))) << spec;
  }
}

TEST(RunnerLinesTest, NpmVersionsThatAreNotExact) {
  // @1.2 is any 1.2.x to npm, and @1 any 1.x.
  for (const char* spec :
       {"server", "@scope/server", "server@latest", "@scope/server@next", "server@^1.2.3",
        "server@~1.2", "server@>=1", "server@1.x", "server@1.2", "server@1", "server@*",
        "server@1.2.3 - 2.0.0", "server@1.2.3-", "server@", "github:user/repo", "user/repo",
        "git+https://github.com/user/repo.git#v1.2.3", "https://example.com/server-1.2.3.tgz",
        "server@npm:other@1.2.3"}) {
    EXPECT_THAT(Lines("npx", {"-y", spec}), ElementsAre(Fetches("npx"), NotExact(spec))) << spec;
  }
}

TEST(RunnerLinesTest, ALocalPathIsNotFetched) {
  for (const char* spec :
       {"./server", "../server", "/srv/server", "~/server", "file:../server", "."}) {
    EXPECT_THAT(Lines("npx", {spec}), ElementsAre(Fetches("npx"))) << spec;
  }
}

TEST(RunnerLinesTest, NpxPackageFlagNamesWhatIsFetched) {
  // With -p the first word is the command, from the package -p names.
  EXPECT_THAT(Lines("npx", {"-y", "-p", "@scope/server@latest", "server-cmd", "--port", "1"}),
              ElementsAre(Fetches("npx"), NotExact("@scope/server@latest")));
  EXPECT_THAT(Lines("npx", {"--package=@scope/server@1.0.0", "server-cmd"}),
              ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("npx", {"-p=server", "server-cmd"}),
              ElementsAre(Fetches("npx"), NotExact("server")));
  EXPECT_THAT(Lines("npx", {"-p", "a@1.0.0", "-p", "b", "--package", "c@^2", "cmd"}),
              ElementsAre(Fetches("npx"), NotExact("b"), NotExact("c@^2")));
}

TEST(RunnerLinesTest, NpxStopsReadingAtThePackage) {
  // What follows the package is its own arguments.
  EXPECT_THAT(Lines("npx", {"server@1.0.0", "--weird", "-p", "other"}),
              ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("npx", {"--", "server@latest", "--port", "3000"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest")));
  EXPECT_THAT(Lines("npx", {"-y", "--", "server@1.0.0", "-p", "x"}), ElementsAre(Fetches("npx")));
}

TEST(RunnerLinesTest, NpxFlagsWithValues) {
  EXPECT_THAT(Lines("npx", {"--registry", "https://registry.example.com", "server@latest"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest")));
  EXPECT_THAT(Lines("npx", {"--cache", "/tmp/c", "-q", "--prefer-offline", "server@1.0.0"}),
              ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("npx", {"--registry=https://registry.example.com", "server@1.0.0"}),
              ElementsAre(Fetches("npx")));
}

TEST(RunnerLinesTest, NpxNoTakesTheNextWordButNpmReadsItAsThePackage) {
  EXPECT_THAT(Lines("npx", {"--no", "server@latest"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest")));
  EXPECT_THAT(Lines("npx", {"--no-install", "server@1.0.0"}), ElementsAre(Fetches("npx")));
  // npx reads on past `server` as --no's value and finds -p, so npm runs the
  // command `server` from the package -p names.
  EXPECT_THAT(Lines("npx", {"--no", "server", "-p", "other@latest", "cmd"}),
              ElementsAre(Fetches("npx"), NotExact("other@latest")));
}

TEST(RunnerLinesTest, NpxCallFetchesOnlyWhatPackageNames) {
  EXPECT_THAT(Lines("npx", {"-c", "server --port 3000"}), ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("npx", {"-p", "server@latest", "-c", "server --port 3000"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest")));
}

TEST(RunnerLinesTest, AnUnknownFlagBeforeThePackage) {
  EXPECT_THAT(Lines("npx", {"--weird", "server@1.0.0"}),
              ElementsAre(Fetches("npx"), NotKnown("npx", "--weird")));
  EXPECT_THAT(Lines("npx", {"-y", "--omit", "dev", "-Z", "server@latest"}),
              ElementsAre(Fetches("npx"), NotKnown("npx", "-Z")));
  // npx drops -n together with the word after it.
  EXPECT_THAT(Lines("npx", {"-n", "server@1.0.0"}),
              ElementsAre(Fetches("npx"), NotKnown("npx", "-n")));
  // A package named before the flag is still judged.
  EXPECT_THAT(Lines("npx", {"-p", "server@latest", "--weird", "x", "cmd"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest"), NotKnown("npx", "--weird")));
}

TEST(RunnerLinesTest, AnUnknownFlagWithItsValueAttached) {
  // --flag=value carries its value, so the next word is the package.
  EXPECT_THAT(Lines("npx", {"--weird=1", "server@latest"}),
              ElementsAre(Fetches("npx"), NotExact("server@latest")));
  // But npm would read --packag=x as --package=x.
  EXPECT_THAT(Lines("npx", {"--packag=other", "server@1.0.0"}),
              ElementsAre(Fetches("npx"),
                          "which package npx runs is not known, since --packag "
                          "may be short for a flag that names it"));
}

TEST(RunnerLinesTest, NpmExec) {
  EXPECT_THAT(Lines("npm", {"exec", "-y", "--", "@scope/server@latest", "--port", "1"}),
              ElementsAre(Fetches("npm exec"), NotExact("@scope/server@latest")));
  EXPECT_THAT(Lines("npm", {"exec", "@scope/server@1.0.0"}), ElementsAre(Fetches("npm exec")));
  EXPECT_THAT(Lines("/usr/local/bin/npm", {"x", "server"}),
              ElementsAre(Fetches("npm x"), NotExact("server")));
  EXPECT_THAT(Lines("npm", {"exe", "server@1"}),
              ElementsAre(Fetches("npm exe"), NotExact("server@1")));
  EXPECT_THAT(Lines("npm", {"--yes", "--registry", "https://r.example", "exec", "server@next"}),
              ElementsAre(Fetches("npm exec"), NotExact("server@next")));
}

TEST(RunnerLinesTest, NpmExecReadsFlagsUpToTheDoubleDash) {
  // npm reads --package wherever it stands before "--": server is then the
  // command, from the package --package names.
  EXPECT_THAT(Lines("npm", {"exec", "server@latest", "--package=other@1.0.0"}),
              ElementsAre(Fetches("npm exec")));
  EXPECT_THAT(Lines("npm", {"exec", "server@1.0.0", "--package", "other"}),
              ElementsAre(Fetches("npm exec"), NotExact("other")));
  EXPECT_THAT(Lines("npm", {"exec", "server@1.0.0", "--", "--package", "other"}),
              ElementsAre(Fetches("npm exec")));
  // To npm alone -p is --parseable, and `--yes false` is the switch's value.
  EXPECT_THAT(Lines("npm", {"exec", "-p", "server@latest"}),
              ElementsAre(Fetches("npm exec"), NotExact("server@latest")));
  EXPECT_THAT(Lines("npm", {"exec", "--yes", "false", "server@latest"}),
              ElementsAre(Fetches("npm exec"), NotExact("server@latest")));
  // An unknown flag after the package is a switch to npm; before it, unknown.
  EXPECT_THAT(Lines("npm", {"exec", "server@1.0.0", "--weird"}), ElementsAre(Fetches("npm exec")));
  EXPECT_THAT(Lines("npm", {"--weird", "exec", "server@1.0.0"}),
              ElementsAre(Fetches("npm exec"), NotKnown("npm exec", "--weird")));
}

TEST(RunnerLinesTest, Bunx) {
  EXPECT_THAT(Lines("bunx", {"--bun", "@scope/server@latest"}),
              ElementsAre(Fetches("bunx"), NotExact("@scope/server@latest")));
  EXPECT_THAT(Lines("bunx", {"@scope/server@2.0.0", "--port", "1"}), ElementsAre(Fetches("bunx")));
  EXPECT_THAT(Lines("bunx", {"-p", "@scope/server@^2", "server"}),
              ElementsAre(Fetches("bunx"), NotExact("@scope/server@^2")));
  EXPECT_THAT(Lines("/home/u/.bun/bin/bun", {"x", "server"}),
              ElementsAre(Fetches("bun x"), NotExact("server")));
  EXPECT_THAT(Lines("bunx", {"--weird", "server@1.0.0"}),
              ElementsAre(Fetches("bunx"), NotKnown("bunx", "--weird")));
}

TEST(RunnerLinesTest, PnpmDlx) {
  EXPECT_THAT(Lines("pnpm", {"dlx", "server@latest"}),
              ElementsAre(Fetches("pnpm dlx"), NotExact("server@latest")));
  EXPECT_THAT(Lines("pnpm", {"dlx", "--silent", "@scope/server@1.2.3"}),
              ElementsAre(Fetches("pnpm dlx")));
  // --package may come before dlx too, as pnpm's own examples write it.
  EXPECT_THAT(Lines("pnpm", {"--package=server@1.0.0", "dlx", "server-cmd"}),
              ElementsAre(Fetches("pnpm dlx")));
  EXPECT_THAT(Lines("pnpm", {"dlx", "--package", "server", "server-cmd"}),
              ElementsAre(Fetches("pnpm dlx"), NotExact("server")));
  EXPECT_THAT(Lines("pnpx", {"server@^1"}), ElementsAre(Fetches("pnpx"), NotExact("server@^1")));
  // pnpm dlx has no -p.
  EXPECT_THAT(Lines("pnpm", {"dlx", "-p", "server", "cmd"}),
              ElementsAre(Fetches("pnpm dlx"), NotKnown("pnpm dlx", "-p")));
}

TEST(RunnerLinesTest, YarnDlx) {
  EXPECT_THAT(Lines("yarn", {"dlx", "-p", "a@1.2.3", "-p", "b@next", "cmd"}),
              ElementsAre(Fetches("yarn dlx"), NotExact("b@next")));
  EXPECT_THAT(Lines("yarn", {"dlx", "-q", "@scope/server@1.0.0"}),
              ElementsAre(Fetches("yarn dlx")));
  EXPECT_THAT(Lines("yarn", {"dlx", "@scope/server"}),
              ElementsAre(Fetches("yarn dlx"), NotExact("@scope/server")));
}

TEST(RunnerLinesTest, UvxVersions) {
  EXPECT_THAT(Lines("uvx", {"mcp-server-fetch"}),
              ElementsAre(Fetches("uvx"), NotExact("mcp-server-fetch")));
  EXPECT_THAT(Lines("uvx", {"mcp-server-fetch@latest"}),
              ElementsAre(Fetches("uvx"), NotExact("mcp-server-fetch@latest")));
  // uv reads name@version as name==version; PEP 440 reads ==1.2 as 1.2.0.
  for (const char* exact : {"mcp-server-fetch@2025.4.7", "mcp-server-fetch==2025.4.7",
                            "server[cli]==1.0.0", "server == 1.0.0", "server==1.2",
                            "server===1.0-custom", "server==1.0.0rc1", "server==1!2.0.post1"}) {
    EXPECT_THAT(Lines("uvx", {exact}), ElementsAre(Fetches("uvx"))) << exact;
  }
  for (const char* loose :
       {"server>=1", "server~=1.2", "server==1.*", "server!=1.0", "server==1.0,<2",
        "server==1.0; python_version>'3.9'", "server @ https://example.com/server.whl",
        "git+https://github.com/user/server"}) {
    EXPECT_THAT(Lines("uvx", {loose}), ElementsAre(Fetches("uvx"), NotExact(loose))) << loose;
  }
}

TEST(RunnerLinesTest, UvxFromWithAndFlags) {
  // --from names the package; the first word is then the command.
  EXPECT_THAT(Lines("uvx", {"--from", "mcp-server-git==0.6.2", "mcp-server-git"}),
              ElementsAre(Fetches("uvx")));
  EXPECT_THAT(Lines("uvx", {"--from=mcp-server-git>=0.6", "mcp-server-git"}),
              ElementsAre(Fetches("uvx"), NotExact("mcp-server-git>=0.6")));
  EXPECT_THAT(Lines("uvx", {"--from", "git+https://github.com/user/server", "server"}),
              ElementsAre(Fetches("uvx"), NotExact("git+https://github.com/user/server")));
  EXPECT_THAT(Lines("uvx", {"--from", "./server", "server"}), ElementsAre(Fetches("uvx")));
  // Each --with package is fetched too: a list splits at commas that start a
  // new requirement.
  EXPECT_THAT(
      Lines("uvx", {"--with", "a==1.0,b>=2,<3", "-w", "c[x,y]", "--with=d==2.0", "tool==1.0"}),
      ElementsAre(Fetches("uvx"), NotExact("b>=2,<3"), NotExact("c[x,y]")));
  EXPECT_THAT(Lines("uvx", {"--python", "3.12", "-qq", "--isolated", "-n", "tool==1.0"}),
              ElementsAre(Fetches("uvx")));
  EXPECT_THAT(Lines("uvx", {"--with-requirements", "reqs.txt", "tool==1.0"}),
              ElementsAre(Fetches("uvx"),
                          "reqs.txt lists packages bravebot does not read, so which versions run "
                          "is not known"));
  EXPECT_THAT(Lines("uvx", {"--", "tool@latest", "--weird"}),
              ElementsAre(Fetches("uvx"), NotExact("tool@latest")));
  EXPECT_THAT(Lines("uvx", {"--weird", "tool==1.0"}),
              ElementsAre(Fetches("uvx"), NotKnown("uvx", "--weird")));
  // uvx python runs an interpreter; the package is what --with names.
  EXPECT_THAT(Lines("uvx", {"--with", "weather-mcp", "python@3.12", "-m", "weather_mcp"}),
              ElementsAre(Fetches("uvx"), NotExact("weather-mcp")));
}

TEST(RunnerLinesTest, UvToolRun) {
  EXPECT_THAT(Lines("uv", {"tool", "run", "server~=1.2"}),
              ElementsAre(Fetches("uv tool run"), NotExact("server~=1.2")));
  EXPECT_THAT(Lines("/usr/local/bin/uv", {"-q", "tool", "run", "--from", "server==1.0", "srv"}),
              ElementsAre(Fetches("uv tool run")));
  EXPECT_THAT(Lines("uv", {"tool", "run", "--weird", "server==1.0"}),
              ElementsAre(Fetches("uv tool run"), NotKnown("uv tool run", "--weird")));
}

TEST(RunnerLinesTest, PipxRun) {
  EXPECT_THAT(Lines("pipx", {"run", "pycowsay"}),
              ElementsAre(Fetches("pipx run"), NotExact("pycowsay")));
  EXPECT_THAT(Lines("pipx", {"run", "pycowsay==0.0.0.2", "moo"}), ElementsAre(Fetches("pipx run")));
  // pip reads name@x as a url, not a version.
  EXPECT_THAT(Lines("pipx", {"run", "pycowsay@0.0.0.2"}),
              ElementsAre(Fetches("pipx run"), NotExact("pycowsay@0.0.0.2")));
  EXPECT_THAT(Lines("pipx", {"run", "--spec", "black==24.1.0", "blackd"}),
              ElementsAre(Fetches("pipx run")));
  EXPECT_THAT(Lines("pipx", {"run", "--no-cache", "--spec=black", "blackd"}),
              ElementsAre(Fetches("pipx run"), NotExact("black")));
  EXPECT_THAT(Lines("pipx", {"run", "--python", "3.12", "--spec", "black>=24", "blackd"}),
              ElementsAre(Fetches("pipx run"), NotExact("black>=24")));
  // A script on this machine is not fetched; one at a url is.
  EXPECT_THAT(Lines("pipx", {"run", "server.py"}), ElementsAre(Fetches("pipx run")));
  EXPECT_THAT(Lines("pipx", {"run", "--path", "./server"}), ElementsAre(Fetches("pipx run")));
  EXPECT_THAT(Lines("pipx", {"run", "https://example.com/server.py"}),
              ElementsAre(Fetches("pipx run"), NotExact("https://example.com/server.py")));
  // argparse reads --spe=x as --spec=x.
  EXPECT_THAT(Lines("pipx", {"run", "--spe=black", "blackd==1.0"}),
              ElementsAre(Fetches("pipx run"),
                          "which package pipx run runs is not known, since "
                          "--spe may be short for a flag that names it"));
  EXPECT_THAT(Lines("pipx", {"run", "--weird", "pycowsay==0.0.0.2"}),
              ElementsAre(Fetches("pipx run"), NotKnown("pipx run", "--weird")));
}

TEST(RunnerLinesTest, ARunnerNamingNoPackageHasOnlyItsFirstLine) {
  EXPECT_THAT(Lines("npx", {"-y"}), ElementsAre(Fetches("npx")));
  EXPECT_THAT(Lines("uvx", {}), ElementsAre(Fetches("uvx")));
}

TEST(RunnerLinesTest, WordsFromTheDeclarationAreEscaped) {
  EXPECT_THAT(Lines("npx", {"server\x1b[2J"}),
              ElementsAre(Fetches("npx"), NotExact("server\\x1b[2J")));
  EXPECT_THAT(Lines("npx", {"--we\x1b[2Jird", "server"}),
              ElementsAre(Fetches("npx"), NotKnown("npx", "--we\\x1b[2Jird")));
}

}  // namespace
}  // namespace bravebot
