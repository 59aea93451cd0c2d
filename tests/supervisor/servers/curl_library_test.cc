#include "supervisor/servers/curl_library.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;

TEST(CurlLibraryTest, IsLoadedOnceWithEveryFunction) {
  Result<const CurlLibrary*> curl = LoadCurl();
  ASSERT_TRUE(curl) << curl.error().message();
  EXPECT_EQ(*curl, *LoadCurl());
  // One function called through its pointer, as HttpClient calls them.
  CURLU* url = (*curl)->url();
  ASSERT_NE(url, nullptr);
  ASSERT_EQ((*curl)->url_set(url, CURLUPART_URL, "https://example.com:8443/mcp", 0), CURLUE_OK);
  char* port = nullptr;
  ASSERT_EQ((*curl)->url_get(url, CURLUPART_PORT, &port, 0), CURLUE_OK);
  EXPECT_STREQ(port, "8443");
  (*curl)->free(port);
  (*curl)->url_cleanup(url);
}

TEST(CurlLibraryTest, AMachineWithoutItIsToldWhatToInstall) {
  Result<CurlLibrary> missing = LoadCurlFrom("libcurl-that-is-not-here.so.4");
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message(), HasSubstr("libcurl could not be loaded"));
  EXPECT_THAT(missing.error().message(), HasSubstr("libcurl-that-is-not-here.so.4"));
  EXPECT_THAT(missing.error().message(), HasSubstr("install libcurl4"));
}

TEST(CurlLibraryTest, ALibraryWithoutItsFunctionsIsNamedWithTheFirstMissing) {
  // libc is loaded in every process and has none of libcurl's functions.
  Result<CurlLibrary> other = LoadCurlFrom("libc.so.6");
  ASSERT_FALSE(other);
  EXPECT_THAT(other.error().message(), HasSubstr("libc.so.6 has no curl_global_init"));
  EXPECT_THAT(other.error().message(), HasSubstr("libcurl 7.85.0 or later"));
}

TEST(CurlLibraryTest, ItsVersionIsKnownAndNewEnough) {
  Result<const CurlLibrary*> curl = LoadCurl();
  ASSERT_TRUE(curl) << curl.error().message();
  EXPECT_STREQ((*curl)->version, (*curl)->version_info(CURLVERSION_NOW)->version);
}

TEST(CurlLibraryTest, ALibcurlOlderThanTheNewestOptionIsRefusedAtLoadNamingIt) {
  curl_version_info_data info{};
  info.version = "7.84.0";
  info.version_num = 0x075400;
  Result<const char*> old = CheckCurlVersion(info);
  ASSERT_FALSE(old);
  EXPECT_EQ(old.error().message(),
            "libcurl 7.84.0 is older than 7.85.0, the first that can restrict the protocols it "
            "speaks to http and https (CURLOPT_PROTOCOLS_STR): no service is reached with it; "
            "update libcurl");
  info.version = "7.85.0";
  info.version_num = 0x075500;
  Result<const char*> enough = CheckCurlVersion(info);
  ASSERT_TRUE(enough) << enough.error().message();
  EXPECT_STREQ(*enough, "7.85.0");
}

}  // namespace
}  // namespace bravebot
