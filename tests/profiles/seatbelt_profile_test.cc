#include "profiles/seatbelt_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "tests/profiles/testing/golden_file.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;

// A server run by npx from an nvm installation, with a file it may read.
Reach NpxServer() {
  Reach reach;
  reach.home = "/Users/u/.bravebot/mcp-home/0f3c";
  reach.temporary_directory = "/tmp/bravebot-run-Ab12Cd";
  reach.working_directory = reach.temporary_directory;
  reach.paths = {
      {"/Users/u/.bravebot/mcp-home/0f3c", PathAccess::kReadWriteExecute, false,
       "its private home"},
      {"/tmp/bravebot-run-Ab12Cd", PathAccess::kReadWriteExecute, false,
       "its temporary directory, where it runs"},
      {"/usr", PathAccess::kReadExecute, false, "system programs and libraries"},
      {"/etc/ssl", PathAccess::kRead, false, "system configuration"},
      {"/dev/null", PathAccess::kReadWrite, true, "a device every program may use"},
      {"/Users/u/.nvm/versions/node/v20.11.0", PathAccess::kReadExecute, false,
       "installation around PATH entry /Users/u/.nvm/versions/node/v20.11.0/bin"},
      {"/Users/u/keys/service.json", PathAccess::kRead, true,
       "named by GOOGLE_APPLICATION_CREDENTIALS"},
  };
  reach.socket_directories = {reach.home, reach.temporary_directory};
  return reach;
}

// A server with --dir, and paths a person may name oddly: a quote, a
// backslash, a line break in a reason.
Reach ServerWithOddPaths() {
  Reach reach;
  reach.home = "/Users/u/.bravebot/mcp-home/9a1e";
  reach.temporary_directory = "/var/folders/xy/T/bravebot-run-Zz99Yy";
  reach.working_directory = "/Users/u/Work \"notes\"";
  reach.paths = {
      {reach.home, PathAccess::kReadWriteExecute, false, "its private home"},
      {reach.temporary_directory, PathAccess::kReadWriteExecute, false, "its temporary directory"},
      {reach.working_directory, PathAccess::kReadWriteExecute, false, "--dir, where it runs"},
      {"/opt/tools\\bin/server", PathAccess::kReadExecute, true, "program\n(allow default)"},
  };
  reach.socket_directories = {reach.home, reach.temporary_directory, reach.working_directory};
  return reach;
}

TEST(SeatbeltProfileTest, ProfilesAreTheGoldenOnes) {
  testing::ExpectGolden("npx_server.sb", RenderSeatbeltProfile(NpxServer()));
  testing::ExpectGolden("odd_paths.sb", RenderSeatbeltProfile(ServerWithOddPaths()));
}

TEST(SeatbeltProfileTest, PathsAreNamedAsMacOsResolvesThem) {
  EXPECT_EQ(CanonicalMacPath("/tmp"), "/private/tmp");
  EXPECT_EQ(CanonicalMacPath("/tmp/x"), "/private/tmp/x");
  EXPECT_EQ(CanonicalMacPath("/var/folders/x"), "/private/var/folders/x");
  EXPECT_EQ(CanonicalMacPath("/etc/ssl"), "/private/etc/ssl");
  EXPECT_EQ(CanonicalMacPath("/tmpfoo"), "/tmpfoo");
  EXPECT_EQ(CanonicalMacPath("/private/tmp"), "/private/tmp");
  EXPECT_EQ(CanonicalMacPath("/Users/u"), "/Users/u");
  EXPECT_EQ(SeatbeltString("a\"b\\c\nd"), "\"a\\\"b\\\\c\\x0ad\"");
  // No byte past ASCII reaches the terminal that shows it: a bidi override
  // stays bytes for Seatbelt to match.
  EXPECT_EQ(SeatbeltString("d\u202ex"), "\"d\\xe2\\x80\\xaex\"");
}

// An SBPL profile read as S-expressions: strings ("..." with escapes, and
// #"..." regular expressions), symbols and lists.
struct Form {
  std::string atom;  // a symbol or a string's text; "" for a list
  bool string = false;
  std::vector<Form> list;
};

class SexpReader {
 public:
  explicit SexpReader(const std::string& text) : text_(text) {}

  // Every top-level form; fails the test where the text is not well formed.
  std::vector<Form> ReadAll() {
    std::vector<Form> forms;
    for (SkipSpace(); at_ < text_.size(); SkipSpace()) forms.push_back(Read());
    return forms;
  }

 private:
  void SkipSpace() {
    while (at_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[at_]))) {
        ++at_;
      } else if (text_[at_] == ';') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else {
        return;
      }
    }
  }
  Form Read() {
    Form form;
    if (text_[at_] == '(') {
      ++at_;
      for (SkipSpace(); at_ < text_.size() && text_[at_] != ')'; SkipSpace()) {
        form.list.push_back(Read());
      }
      EXPECT_LT(at_, text_.size()) << "a list is not closed";
      ++at_;
      return form;
    }
    EXPECT_NE(text_[at_], ')') << "a ) closes nothing at " << at_;
    if (text_[at_] == '"' || text_.compare(at_, 2, "#\"") == 0) {
      at_ += text_[at_] == '#' ? 2 : 1;
      form.string = true;
      for (; at_ < text_.size() && text_[at_] != '"'; ++at_) {
        if (text_[at_] == '\\') ++at_;  // an escape: the next byte is part of it
        EXPECT_NE(text_[at_], '\n') << "a line break in a string";
        form.atom += text_[at_];
      }
      EXPECT_LT(at_, text_.size()) << "a string is not closed";
      ++at_;
      return form;
    }
    while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_])) &&
           text_[at_] != '(' && text_[at_] != ')') {
      form.atom += text_[at_++];
    }
    return form;
  }

  const std::string& text_;
  std::size_t at_ = 0;
};

TEST(SeatbeltProfileTest, EveryProfileIsWellFormedAndUsesOnlyKnownOperations) {
  const std::set<std::string> operations = {
      "default",     "file-read-metadata", "process-fork", "signal",       "sysctl-read",
      "mach-lookup", "file-read*",         "file-write*",  "process-exec", "network-outbound"};
  const std::set<std::string> filters = {"literal",     "subpath", "regex",
                                         "global-name", "target",  "remote"};
  for (const Reach& reach : {NpxServer(), ServerWithOddPaths(), Reach{}}) {
    const std::string profile = RenderSeatbeltProfile(reach);
    std::vector<Form> forms = SexpReader(profile).ReadAll();
    ASSERT_GE(forms.size(), 3u);
    EXPECT_EQ(forms[0].list.at(0).atom, "version");
    EXPECT_EQ(forms[1].list.at(0).atom, "deny");
    EXPECT_EQ(forms[1].list.at(1).atom, "default");
    for (const Form& rule : forms) {
      ASSERT_FALSE(rule.list.empty()) << "a top-level atom";
      const std::string& verb = rule.list[0].atom;
      if (verb == "version") continue;
      EXPECT_TRUE(verb == "allow" || verb == "deny") << verb;
      ASSERT_GE(rule.list.size(), 2u);
      EXPECT_TRUE(operations.contains(rule.list[1].atom)) << rule.list[1].atom;
      for (std::size_t i = 2; i < rule.list.size(); ++i) {
        ASSERT_FALSE(rule.list[i].list.empty()) << "a filter is a list";
        EXPECT_TRUE(filters.contains(rule.list[i].list[0].atom)) << rule.list[i].list[0].atom;
      }
    }
    // The last rule keeps .git from being written, whatever was granted.
    const Form& last = forms.back();
    EXPECT_EQ(last.list[0].atom, "deny");
    EXPECT_EQ(last.list[1].atom, "file-write*");
  }
}

TEST(SeatbeltProfileTest, WhatIsNotInTheReachIsNotGranted) {
  const std::string profile = RenderSeatbeltProfile(NpxServer());
  // Read only: neither run nor written.
  EXPECT_THAT(profile, HasSubstr("(allow file-read* (subpath \"/private/etc/ssl\"))"));
  EXPECT_THAT(profile, ::testing::Not(HasSubstr("(allow file-write* (subpath \"/private/etc")));
  EXPECT_THAT(profile, ::testing::Not(HasSubstr("(allow process-exec (literal \"/Users/u/keys")));
  // No blanket grant of any kind.
  for (const char* blanket :
       {"(allow file-read*)", "(allow file-write*)", "(allow process-exec)",
        "(allow network-outbound)", "(allow mach-lookup)", "(allow default)"}) {
    EXPECT_THAT(profile, ::testing::Not(HasSubstr(blanket))) << blanket;
  }
  // A reason cannot end its comment and add a rule.
  EXPECT_THAT(RenderSeatbeltProfile(ServerWithOddPaths()),
              ::testing::Not(HasSubstr("\n(allow default)")));
  Reach odd;
  odd.paths = {{"/x", PathAccess::kRead, true, "a\rb\xff(allow default)\x01"}};
  EXPECT_THAT(RenderSeatbeltProfile(odd), HasSubstr(";; a?b?(allow default)?\n"));
}

TEST(SeatbeltProfileTest, NoGitIsWrittenInAnyCaseOfItsLetters) {
  // The last rule, a POSIX regular expression as Seatbelt reads one: tried
  // here with std::regex's ECMAScript grammar, which reads it alike.
  const std::string profile = RenderSeatbeltProfile(NpxServer());
  const std::string prefix = "(deny file-write* (regex #\"";
  const std::size_t start = profile.rfind(prefix);
  ASSERT_NE(start, std::string::npos);
  const std::string pattern =
      profile.substr(start + prefix.size(), profile.rfind("\"))") - start - prefix.size());
  const std::regex git(pattern);
  for (const char* path :
       {"/w/.git", "/w/.git/config", "/w/.GIT/hooks/pre-commit", "/.Git", "/w/sub/.gIt/x"}) {
    EXPECT_TRUE(std::regex_search(path, git)) << path;
  }
  for (const char* path : {"/w/.github/workflows", "/w/x.git", "/w/.gitignore", "/w/git"}) {
    EXPECT_FALSE(std::regex_search(path, git)) << path;
  }
}

}  // namespace
}  // namespace bravebot
