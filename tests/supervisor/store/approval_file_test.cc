#include "supervisor/store/approval_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Declaration Weather(const std::string& version = "latest") {
  Declaration weather;
  weather.alias = "weather";
  weather.program = "npx";
  weather.arguments = {"-y", "@dangahagan/weather-mcp@" + version};
  weather.passed_variables = {"PATH"};
  return weather;
}

TEST(ApprovalFileTest, RoundTripsAndKeepsToolsLines) {
  ApprovalFile file;
  file.Approve(Weather());
  const std::string digest = ComputeDigest(Weather()).hex;
  file.tools.push_back({digest, std::string(64, 'a')});
  const std::string text = SerializeApprovalFile(file);
  EXPECT_THAT(text,
              HasSubstr("# bravebot-mcp approvals, format 1\nserver " + digest + " weather "));
  EXPECT_THAT(text, HasSubstr(" argv="));
  EXPECT_THAT(text, HasSubstr("\ntools " + digest + " " + std::string(64, 'a') + "\n"));
  auto again = ParseApprovalFile(text, "mcp-approved");
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_TRUE(again->Approves(digest));
  ASSERT_EQ(again->tools.size(), 1u);
  EXPECT_EQ(SerializeApprovalFile(*again), text);
}

TEST(ApprovalFileTest, ApprovingTwiceChangesNothing) {
  ApprovalFile file;
  file.Approve(Weather());
  file.Approve(Weather());
  EXPECT_EQ(file.servers.size(), 1u);
}

TEST(ApprovalFileTest, AChangedDeclarationSaysWhatChanged) {
  ApprovalFile file;
  file.Approve(Weather());
  const ServerApproval* last = file.LastUnderAlias("weather");
  ASSERT_NE(last, nullptr);
  EXPECT_THAT(ChangedSince(*last, Weather("1.4.0")), ElementsAre("argv"));
  EXPECT_FALSE(file.Approves(ComputeDigest(Weather("1.4.0")).hex));
}

TEST(ApprovalFileTest, AReplacedDeclarationStillSaysWhatChangedAndApprovesNothing) {
  ApprovalFile file;
  file.Approve(Weather());
  EXPECT_EQ(file.KeepOnlyThoseOf({Weather("1.4.0")}), 1u);
  EXPECT_FALSE(file.Approves(ComputeDigest(Weather()).hex));
  const ServerApproval* last = file.LastUnderAlias("weather");
  ASSERT_NE(last, nullptr);
  EXPECT_THAT(ChangedSince(*last, Weather("1.4.0")), ElementsAre("argv"));
  auto again = ParseApprovalFile(SerializeApprovalFile(file), "x");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->previous.size(), 1u);
  EXPECT_TRUE(again->servers.empty());
  // Approving the new one, or removing the alias, forgets the previous one.
  file.Approve(Weather("1.4.0"));
  EXPECT_TRUE(file.previous.empty());
  file.Approve(Weather());
  file.KeepOnlyThoseOf({});
  EXPECT_TRUE(file.previous.empty());
  EXPECT_TRUE(file.servers.empty());
}

TEST(ApprovalFileTest, OnlyApprovalsSomeDeclarationResolvesToAreKept) {
  ApprovalFile file;
  file.Approve(Weather());
  Declaration forecast = Weather();
  forecast.alias = "forecast";  // the same digest under another alias
  file.Approve(Weather("1.4.0"));
  file.tools.push_back({ComputeDigest(Weather("1.4.0")).hex, std::string(64, 'b')});
  EXPECT_EQ(file.KeepOnlyThoseOf({forecast}), 1u);
  EXPECT_TRUE(file.Approves(ComputeDigest(Weather()).hex));
  EXPECT_FALSE(file.Approves(ComputeDigest(Weather("1.4.0")).hex));
  EXPECT_TRUE(file.tools.empty());
}

TEST(ApprovalFileTest, AServerHasOneApprovedToolListAtMost) {
  ApprovalFile file;
  const std::string server = ComputeDigest(Weather()).hex;
  EXPECT_EQ(file.ApprovedToolList(server), "");
  file.ApproveToolList(server, std::string(64, 'a'));
  file.ApproveToolList(std::string(64, 'c'), std::string(64, 'd'));
  file.ApproveToolList(server, std::string(64, 'b'));
  EXPECT_EQ(file.ApprovedToolList(server), std::string(64, 'b'));
  EXPECT_EQ(file.ApprovedToolList(std::string(64, 'c')), std::string(64, 'd'));
  EXPECT_EQ(file.tools.size(), 2u);
}

TEST(ApprovalFileTest, AFileThatCannotBeReadIsNamedByLineAndNeverQuoted) {
  auto bad = ParseApprovalFile("# bravebot-mcp approvals, format 1\nserver sk-live-secret\n",
                               "/p/mcp-approved");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(bad.error().message(), HasSubstr("/p/mcp-approved cannot be read at line 2"));
  EXPECT_THAT(bad.error().message(), Not(HasSubstr("sk-live-secret")));
  EXPECT_FALSE(ParseApprovalFile("", "x").ok());
  EXPECT_FALSE(ParseApprovalFile("something else\n", "x").ok());
  EXPECT_TRUE(ParseApprovalFile("# bravebot-mcp approvals, format 1\n\n", "x").ok());
}

}  // namespace
}  // namespace bravebot
