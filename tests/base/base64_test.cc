#include "base/base64.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

// RFC 4648 section 10's vectors.
TEST(Base64Test, WritesTheRfcsVectorsPadded) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  // RFC 7617's example of Basic authentication.
  EXPECT_EQ(Base64("Aladdin:open sesame"), "QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  EXPECT_EQ(Base64("\xfb\xff"), "+/8=");
}

TEST(Base64Test, TheUrlAlphabetLeavesNoPadding) {
  EXPECT_EQ(Base64Url(""), "");
  EXPECT_EQ(Base64Url("f"), "Zg");
  EXPECT_EQ(Base64Url("fo"), "Zm8");
  EXPECT_EQ(Base64Url("foo"), "Zm9v");
  EXPECT_EQ(Base64Url("\xfb\xff"), "-_8");
}

}  // namespace
}  // namespace bravebot
