#include "confine/url.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

TEST(UrlTest, ReadsSchemeHostAndPort) {
  auto url = ParseServiceUrl("HTTPS://mcp.example.com:8443/mcp?x=1");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->scheme, "https");
  EXPECT_EQ(url->host, "mcp.example.com");
  EXPECT_EQ(url->port, "8443");
  url = ParseServiceUrl("http://[::1]:3000/mcp");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, "3000");
  url = ParseServiceUrl("http://localhost");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->port, "");
}

TEST(UrlTest, RefusesWhatItCannotReadSafely) {
  EXPECT_FALSE(ParseServiceUrl("https://user@host/").ok());
  EXPECT_FALSE(ParseServiceUrl("https://user:pw@host/").ok());
  EXPECT_FALSE(ParseServiceUrl("https:///path").ok());
  EXPECT_FALSE(ParseServiceUrl("https://host:99999/").ok());
  EXPECT_FALSE(ParseServiceUrl("https://host:x/").ok());
  EXPECT_FALSE(ParseServiceUrl("https://ho st/").ok());
  EXPECT_FALSE(ParseServiceUrl("https://host/\n").ok());
  EXPECT_FALSE(ParseServiceUrl("file:///etc/passwd").ok());
  EXPECT_FALSE(ParseServiceUrl("https://[::1/").ok());
  EXPECT_TRUE(ParseServiceUrl("https://host/path@x").ok());
}

}  // namespace
}  // namespace bravebot
