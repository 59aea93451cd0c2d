#include "confine/url_host.h"

#include <gtest/gtest.h>

#include "confine/url.h"

namespace bravebot {
namespace {

TEST(UrlHostTest, ANameIsReadLowercase) {
  std::optional<UrlHost> host = ReadUrlHost("https://MCP.Example.com:8443/mcp");
  ASSERT_TRUE(host.has_value());
  EXPECT_EQ(host->host, "mcp.example.com");
  EXPECT_TRUE(host->is_name);
}

TEST(UrlHostTest, SpellingsTwoReadersCouldReadApartAreNotRead) {
  EXPECT_FALSE(ReadUrlHost("https://mcp.example.com./mcp").has_value());
  EXPECT_FALSE(ReadUrlHost("https://mcp%2eexample.com/mcp").has_value());
  EXPECT_FALSE(ReadUrlHost("https://127.1/mcp").has_value());
  EXPECT_FALSE(ReadUrlHost("https://[::ffff:127.0.0.1]/mcp").has_value());
  std::optional<UrlHost> address = ReadUrlHost("https://127.0.0.1/mcp");
  ASSERT_TRUE(address.has_value());
  EXPECT_FALSE(address->is_name);
}

TEST(UrlHostTest, AnEntrysHostIsSpelledAsAUrlsIs) {
  EXPECT_EQ(CanonicalHost("MCP.Example.COM"), "mcp.example.com");
  EXPECT_EQ(CanonicalHost("[2001:DB8:0:0::1]"), "2001:db8::1");
  EXPECT_EQ(ReadUrlHost("https://[2001:db8::0:1]/")->host, CanonicalHost("[2001:DB8:0:0::1]"));
}

TEST(UrlHostTest, AsciiLowercaseLeavesEveryOtherByte) {
  EXPECT_EQ(AsciiLowercase("AbC-\xc3\x89"), "abc-\xc3\x89");
}

}  // namespace
}  // namespace bravebot
