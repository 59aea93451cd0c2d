#include "base/json_members.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/bounded_json.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

std::vector<std::pair<std::string, std::string>> Members(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> found;
  auto members = ReadJsonObjectMembers(text);
  if (!members) return {{"declined", ""}};
  for (const JsonMember& member : *members) found.emplace_back(member.key, member.value);
  return found;
}

bool Declines(std::string_view text) { return !ReadJsonObjectMembers(text).has_value(); }

// Declined, and refused by nlohmann::json too: a case where both agree.
bool BothRefuse(std::string_view text) { return Declines(text) && !nlohmann::json::accept(text); }

TEST(JsonMembersTest, GivesEachValueAsItsText) {
  EXPECT_THAT(Members(R"( {"jsonrpc":"2.0", "id" : 7,"result":{"content":[{"text":"a,}]"}]},)"
                      R"("n":null,"t":true,"x":-1.5e3} )"),
              ElementsAre(Pair("jsonrpc", "\"2.0\""), Pair("id", "7"),
                          Pair("result", R"({"content":[{"text":"a,}]"}]})"), Pair("n", "null"),
                          Pair("t", "true"), Pair("x", "-1.5e3")));
  EXPECT_THAT(Members("{}"), ElementsAre());
  EXPECT_THAT(Members("{\"\":[]}\t "), ElementsAre(Pair("", "[]")));
}

TEST(JsonMembersTest, KeysAndStringsAreDecoded) {
  auto members = ReadJsonObjectMembers(R"({"a\"b\u00e9\ud83d\ude00":"\/\\\n\t"})");
  ASSERT_TRUE(members);
  EXPECT_EQ((*members)[0].key, "a\"b\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(JsonStringValue((*members)[0].value), "/\\\n\t");
  EXPECT_EQ(JsonStringValue("7"), std::nullopt);
  EXPECT_EQ(JsonStringValue("\"open"), std::nullopt);
}

TEST(JsonMembersTest, DeclinesWhatIsNoObjectOrNotJson) {
  for (std::string_view text :
       {"", "[]", "\"a\"", "7", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x",
        "{\"a\":1}{}", "{'a':1}", "{\"a\":tru}", "{\"a\":nul}", "{a:1}"}) {
    EXPECT_TRUE(Declines(text)) << text;
  }
}

TEST(JsonMembersTest, DeclinesAKeyTwiceSinceReadersDisagreeOnWhichWins) {
  EXPECT_TRUE(Declines(R"({"id":1,"id":2})"));
  EXPECT_FALSE(Declines(R"({"id":1,"x":{"id":2,"id":3}})"));  // inside a value, passed on
}

TEST(JsonMembersTest, DeclinesARawCarriageReturnThatSomeReadersTakeForALinesEnd) {
  // Whitespace to JSON, so nlohmann::json reads it; passed on, it would split
  // the line in two for a reader that splits at carriage returns.
  EXPECT_TRUE(nlohmann::json::accept("{\"a\":[\r1]}"));
  EXPECT_TRUE(Declines("{\"a\":[\r1]}"));
  EXPECT_TRUE(Declines("{\"a\":1}\r"));
  EXPECT_FALSE(Declines(R"({"a":"\r"})"));  // escaped, it is two characters, not one
}

TEST(JsonMembersTest, DeclinesARawNewlineSinceAValuePassedOnIsWithinALine) {
  // A service's answer may be written over several lines; passed on as it
  // is, its result would end the session's line in the middle.
  EXPECT_TRUE(nlohmann::json::accept("{\"result\":{\n\"a\":1\n}}"));
  EXPECT_TRUE(Declines("{\"result\":{\n\"a\":1\n}}"));
  EXPECT_TRUE(Declines("{\"a\":1}\n"));
  EXPECT_FALSE(Declines(R"({"a":"\n"})"));  // escaped, it is two characters, not one
}

// An object of `members` members "0":0, "1":0, ..., then `last` if given.
std::string Wide(std::size_t members, const std::string& last = "") {
  std::string text = "{";
  for (std::size_t i = 0; i < members; ++i) {
    text += '"';  // appended piece by piece: GCC 12 warns falsely of "\"" + a temporary
    text += std::to_string(i);
    text += "\":0,";
  }
  text += last.empty() ? "\"end\":0" : last;
  return text + "}";
}

TEST(JsonMembersTest, DeclinesObjectsWiderThanWeRead) {
  EXPECT_FALSE(Declines(Wide(kMaxJsonObjectMembers - 1)));
  EXPECT_TRUE(Declines(Wide(kMaxJsonObjectMembers)));
  EXPECT_TRUE(Declines("{\"a\":" + Wide(kMaxJsonObjectMembers) + "}"));  // nested too
  EXPECT_TRUE(Declines(Wide(kMaxJsonObjectMembers - 1, "\"7\":1")));     // a key twice, last
}

TEST(JsonMembersTest, DeclinesStringsNlohmannRefuses) {
  EXPECT_TRUE(BothRefuse("{\"a\":\"\x01\"}"));          // a control character
  EXPECT_TRUE(BothRefuse("{\"a\":\"\xff\"}"));          // not UTF-8
  EXPECT_TRUE(BothRefuse("{\"a\":\"\xed\xa0\x80\"}"));  // a surrogate in UTF-8
  EXPECT_TRUE(BothRefuse("{\"a\":\"\xc0\xaf\"}"));      // an overlong form
  EXPECT_TRUE(BothRefuse(R"({"a":"\ud800"})"));         // a lone high surrogate
  EXPECT_TRUE(BothRefuse(R"({"a":"\udc00"})"));         // a lone low one
  EXPECT_TRUE(BothRefuse(R"({"a":"\ud800\u0041"})"));   // a high one with no low
  EXPECT_TRUE(BothRefuse(R"({"a":"\x"})"));             // no such escape
  EXPECT_TRUE(BothRefuse(R"({"a":"\u12"})"));           // short
}

// Plain runs are read eight bytes at a time: what ends one is found at
// every place of a word, in long strings as in short ones.
TEST(JsonMembersTest, WhatEndsAPlainRunIsFoundWhereverItIs) {
  for (std::size_t at = 0; at < 24; ++at) {
    const std::string before(at, 'a');
    const std::string after(23 - at, 'b');
    EXPECT_EQ(JsonStringValue("\"" + before + "\\\"" + after + "\""), before + "\"" + after);
    EXPECT_EQ(JsonStringValue("\"" + before + "\\\\" + after + "\""), before + "\\" + after);
    EXPECT_EQ(JsonStringValue("\"" + before + "\xc3\xa9" + after + "\""),
              before + "\xc3\xa9" + after);
    EXPECT_EQ(JsonStringValue("\"" + before + "~" + after + "\""), before + "~" + after);
    EXPECT_EQ(JsonStringValue("\"" + before + "\""), before);
    EXPECT_EQ(JsonStringValue("\"" + before + "\x1f" + after + "\""), std::nullopt) << at;
    EXPECT_EQ(JsonStringValue("\"" + before + "\xff" + after + "\""), std::nullopt) << at;
    EXPECT_EQ(JsonStringValue("\"" + before + std::string(1, '\0') + after + "\""), std::nullopt)
        << at;
  }
}

TEST(JsonMembersTest, DeclinesNumbersNlohmannRefuses) {
  for (std::string_view text : {R"({"a":01})", R"({"a":1.})", R"({"a":.5})", R"({"a":-})",
                                R"({"a":1e})", R"({"a":+1})", R"({"a":1e400})", R"({"a":0x1})"}) {
    EXPECT_TRUE(BothRefuse(text)) << text;
  }
  EXPECT_FALSE(Declines(R"({"a":18446744073709551615,"b":-9223372036854775808,"c":-0})"));
  EXPECT_FALSE(Declines(R"({"a":123456789012345678901234567890})"));
}

TEST(JsonMembersTest, DeclinesPastTheDepthWeRead) {
  auto nested = [](std::size_t levels) {
    return "{\"a\":" + std::string(levels - 1, '[') + std::string(levels - 1, ']') + "}";
  };
  EXPECT_FALSE(Declines(nested(kMaxJsonDepth)));
  EXPECT_TRUE(Declines(nested(kMaxJsonDepth + 1)));
}

TEST(JsonMembersTest, AnInnerObjectIsReadInTheSamePass) {
  const std::string text = R"({"id":1,"params":{"name":"echo","arguments":{"t":"x"}},"z":[]})";
  std::vector<JsonMember> inner;
  auto members = ReadJsonObjectMembers(text, "params", inner);
  ASSERT_TRUE(members);
  ASSERT_EQ(members->size(), 3u);
  EXPECT_EQ(FindJsonMember(*members, "params"), R"({"name":"echo","arguments":{"t":"x"}})");
  ASSERT_EQ(inner.size(), 2u);
  EXPECT_EQ(FindJsonMember(inner, "name"), "\"echo\"");
  EXPECT_EQ(FindJsonMember(inner, "arguments"), R"({"t":"x"})");

  // Not an object, empty, or absent: no inner members.
  for (const char* other : {R"({"params":[1]})", R"({"params":{}})", R"({"id":1})"}) {
    inner.push_back({"left", "over"});
    EXPECT_TRUE(ReadJsonObjectMembers(other, "params", inner)) << other;
    EXPECT_TRUE(inner.empty()) << other;
  }
}

TEST(JsonMembersTest, AnInnerObjectIsHeldToWhatTheOuterIs) {
  std::vector<JsonMember> inner;
  // A key twice in it is declined, as it is read for its members.
  EXPECT_FALSE(ReadJsonObjectMembers(R"({"params":{"a":1,"a":2}})", "params", inner));
  EXPECT_TRUE(inner.empty()) << "nothing of an object declined is left";
  EXPECT_TRUE(ReadJsonObjectMembers(R"({"params":{"a":1,"a":2}})"))
      << "read as a value, the same object is passed on";
  EXPECT_TRUE(ReadJsonObjectMembers(R"({"other":{"a":1,"a":2}})", "params", inner));
  // Its depth counts from the outer object's, as when it is read as a value.
  auto nested = [](std::size_t levels) {
    return "{\"params\":{\"a\":" + std::string(levels - 2, '[') + std::string(levels - 2, ']') +
           "}}";
  };
  EXPECT_TRUE(ReadJsonObjectMembers(nested(kMaxJsonDepth), "params", inner));
  EXPECT_FALSE(ReadJsonObjectMembers(nested(kMaxJsonDepth + 1), "params", inner));
  EXPECT_FALSE(Declines(nested(kMaxJsonDepth)));
  EXPECT_TRUE(Declines(nested(kMaxJsonDepth + 1)));
  // Too wide, inside or out.
  EXPECT_FALSE(
      ReadJsonObjectMembers("{\"params\":" + Wide(kMaxJsonObjectMembers) + "}", "params", inner));
}

TEST(JsonMembersTest, WhatItAcceptsNlohmannReadsAlike) {
  const std::string text = R"({"id":"x","result":{"a":[1,2.5,"\u00e9",{"b":null}]},"e":false})";
  auto members = ReadJsonObjectMembers(text);
  ASSERT_TRUE(members);
  auto whole = nlohmann::ordered_json::parse(text);
  for (const JsonMember& member : *members) {
    EXPECT_EQ(nlohmann::ordered_json::parse(member.value), whole[member.key]) << member.key;
  }
}

}  // namespace
}  // namespace bravebot
