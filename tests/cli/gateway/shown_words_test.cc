#include "cli/gateway/shown_words.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

Json Form(const Json& field) {
  return {{"message", "pick"},
          {"requestedSchema", {{"type", "object"}, {"properties", {{"answer", field}}}}}};
}

TEST(GatewayShownWordsTest, TitlesDescriptionsAndChoiceNamesAreEscapedValuesKept) {
  Json schema = Form({{"type", "string"},
                      {"title", "T\x1b[2J"},
                      {"description", "D\n"},
                      {"enum", {"a"}},
                      {"enumNames", {"A\x1b[H"}}})["requestedSchema"];
  EscapeShownWords(schema);
  const Json& field = schema["properties"]["answer"];
  EXPECT_EQ(field["title"], "T\\x1b[2J");
  EXPECT_EQ(field["description"], "D\\n");
  EXPECT_EQ(field["enumNames"][0], "A\\x1b[H");
  EXPECT_EQ(field["enum"][0], "a");
}

TEST(GatewayShownWordsTest, AFieldNamedTitleIsAFieldNotAWordShown) {
  Json params = {{"message", "pick"},
                 {"requestedSchema",
                  {{"type", "object"},
                   {"properties", {{"title", {{"type", "string"}, {"enum", {"x\x1b[2J"}}}}}}}}};
  EXPECT_TRUE(UnescapableWord(params).has_value());
}

TEST(GatewayShownWordsTest, WhatAnAnswerCarriesBackIsNamedWhereEscapingWouldChangeIt) {
  EXPECT_EQ(UnescapableWord(Form({{"type", "string"}, {"enum", {"a", "b"}}})), std::nullopt);
  EXPECT_EQ(UnescapableWord(Form({{"type", "string"}, {"title", "T\x1b"}})), std::nullopt);
  EXPECT_EQ(UnescapableWord(Form({{"type", "string"}, {"enum", {"a", "b\x1b[2J"}}})),
            "the value \"b\\x1b[2J\"");
  EXPECT_EQ(UnescapableWord(Form({{"type", "string"}, {"default", "\u200bx"}})),
            "the value \"\\u200bx\"");
  EXPECT_EQ(UnescapableWord(Form(
                {{"type", "array"}, {"items", {{"anyOf", {{{"const", "\r"}, {"title", "R"}}}}}}})),
            "the value \"\\r\"");
  Json named = {
      {"requestedSchema", {{"type", "object"}, {"properties", {{"a\x1b", {{"type", "string"}}}}}}}};
  EXPECT_EQ(UnescapableWord(named), "the field name \"a\\x1b\"");
  EXPECT_EQ(UnescapableWord({{"mode", "url"}, {"url", "https://example.org/\x1b[2J"}}),
            "the url \"https://example.org/\\x1b[2J\"");
  EXPECT_EQ(UnescapableWord({{"mode", "url"}, {"url", "https://example.org/a?b=c"}}), std::nullopt);
}

TEST(GatewayShownWordsTest, DataIsEscapedWholeNamesIncluded) {
  const Json data = {{"k\x1b", {"\x1b]0;t\x07", 5, true, nullptr}}, {"plain", {{"deep", "\n"}}}};
  EXPECT_EQ(EscapedData(data),
            (Json{{"k\\x1b", {"\\x1b]0;t\\x07", 5, true, nullptr}}, {"plain", {{"deep", "\\n"}}}}));
  EXPECT_EQ(EscapedData("x\x1b"), "x\\x1b");
  EXPECT_EQ(EscapedData(3), 3);
}

}  // namespace
}  // namespace bravebot
