#include "base/shown_text.h"

#include <gtest/gtest.h>

#include <string>

namespace bravebot {
namespace {

TEST(ShownTextTest, EscapesWhatCouldMoveTheCursor) {
  EXPECT_EQ(EscapeControlCharacters("plain Zürich ✓"), "plain Zürich ✓");
  EXPECT_EQ(EscapeControlCharacters("\x1b[2J\x1b[1;1H"), "\\x1b[2J\\x1b[1;1H");
  EXPECT_EQ(EscapeControlCharacters("a\tb\r\nc\x7f"), "a\\tb\\r\\nc\\x7f");
  EXPECT_EQ(EscapeControlCharacters("\xc2\x9b"
                                    "31m"),
            "\\u009b31m");
  EXPECT_EQ(EscapeControlCharacters("bad \xff\xc3 end"), "bad \\xff\\xc3 end");
  EXPECT_EQ(EscapeControlCharacters("back\\slash"), "back\\slash");
}

TEST(ShownTextTest, InvisibleCharactersAreShown) {
  // A zero-width space, a right-to-left override, a soft hyphen and the tag
  // characters that spell "hi" where nothing shows.
  EXPECT_EQ(EscapeControlCharacters("a\u200bb"), "a\\u200bb");
  EXPECT_EQ(EscapeControlCharacters("\u202etxt.exe"), "\\u202etxt.exe");
  EXPECT_EQ(EscapeControlCharacters("soft\u00adhyphen"), "soft\\u00adhyphen");
  EXPECT_EQ(EscapeControlCharacters("\U000e0068\U000e0069"), "\\U000e0068\\U000e0069");
  EXPECT_EQ(EscapeControlCharacters("\ufeffstart"), "\\ufeffstart");
  // Visible neighbours are kept.
  EXPECT_EQ(EscapeControlCharacters("\u2010 \u2070 \u00ac"), "\u2010 \u2070 \u00ac");
  EXPECT_TRUE(IsInvisibleCharacter(0x2066));
  EXPECT_FALSE(IsInvisibleCharacter(U'a'));
}

TEST(ShownTextTest, QuotesAreCutAtTwoHundredCharacters) {
  EXPECT_EQ(QuoteLine("Server ready"), "\"Server ready\"");
  std::string long_line(150, 'a');
  long_line += std::string(100, 'b');
  std::string quoted = QuoteLine(long_line);
  EXPECT_EQ(quoted, "\"" + std::string(150, 'a') + std::string(50, 'b') + "\"...");
  // Characters, not bytes: a cut never splits one.
  std::string accents;
  for (int i = 0; i < 201; ++i) accents += "é";
  std::string cut;
  for (int i = 0; i < 200; ++i) cut += "é";
  EXPECT_EQ(QuoteLine(accents), "\"" + cut + "\"...");
}

}  // namespace
}  // namespace bravebot
