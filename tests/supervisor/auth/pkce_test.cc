#include "supervisor/auth/pkce.h"

#include <gtest/gtest.h>

#include <string>

#include "base/base64.h"

namespace bravebot {
namespace {

// RFC 7636 appendix B: the verifier's 32 octets, the verifier and its challenge.
TEST(PkceTest, MatchesTheRfcExample) {
  const unsigned char octets[] = {116, 24,  223, 180, 151, 153, 224, 37,  79,  250, 96,
                                  125, 216, 173, 187, 186, 22,  212, 37,  77,  105, 214,
                                  191, 240, 91,  88,  5,   88,  83,  132, 141, 121};
  const std::string verifier =
      Base64Url(std::string_view(reinterpret_cast<const char*>(octets), sizeof octets));
  EXPECT_EQ(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  EXPECT_EQ(PkceChallenge(verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST(PkceTest, AFreshPairIsAVerifierAndItsChallenge) {
  auto first = NewPkcePair();
  auto second = NewPkcePair();
  ASSERT_TRUE(first.ok()) << first.error().message();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->verifier.size(), 43u);
  EXPECT_TRUE(IsPkceVerifier(first->verifier));
  EXPECT_EQ(first->challenge, PkceChallenge(first->verifier));
  EXPECT_NE(first->verifier, second->verifier);
}

TEST(PkceTest, AStateIsFreshEachTime) {
  auto first = NewState();
  auto second = NewState();
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->size(), 43u);
  EXPECT_NE(*first, *second);
}

TEST(PkceTest, AVerifierIsFortyThreeToOneHundredTwentyEightUnreserved) {
  EXPECT_TRUE(IsPkceVerifier(std::string(43, 'a')));
  EXPECT_TRUE(IsPkceVerifier(std::string(128, '~')));
  EXPECT_FALSE(IsPkceVerifier(std::string(42, 'a')));
  EXPECT_FALSE(IsPkceVerifier(std::string(129, 'a')));
  EXPECT_FALSE(IsPkceVerifier(std::string(42, 'a') + "+"));
}

}  // namespace
}  // namespace bravebot
