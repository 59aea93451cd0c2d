#include "base/bounded_json.h"

#include <gtest/gtest.h>

#include <ctime>
#include <initializer_list>
#include <string>
#include <string_view>

namespace bravebot {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string Nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

// An object of `members` members "k0":0, "k1":0, ...
std::string Wide(std::size_t members) {
  std::string text = "{";
  for (std::size_t i = 0; i < members; ++i) {
    text += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":0";
  }
  return text + "}";
}

// The pieces one after another (GCC 12 warns, wrongly, of "x" + a temporary).
std::string Cat(std::initializer_list<std::string_view> pieces) {
  std::string text;
  for (std::string_view piece : pieces) text += piece;
  return text;
}

JsonRefusal Read(std::string_view text, JsonBounds bounds = {}) {
  ordered_json document;
  return ReadBoundedJson(text, document, bounds);
}

JsonBounds Bounds(std::size_t depth, std::size_t members, std::size_t batch = 1'000'000) {
  JsonBounds bounds;
  bounds.max_depth = depth;
  bounds.max_members = members;
  bounds.max_batch = batch;
  return bounds;
}

TEST(BoundedJsonTest, ReadsWhatNlohmannReadsInTheSameOrder) {
  const std::string text =
      R"( {"z": [1, -2, 3.5, 18446744073709551615, true, null, "é\n"], "a": {"y": {}, "b": []}} )";
  ordered_json read;
  ASSERT_EQ(ReadBoundedJson(text, read), JsonRefusal::kNone);
  EXPECT_EQ(read, ordered_json::parse(text));
  EXPECT_EQ(read.dump(), ordered_json::parse(text).dump());  // the members' order too
  json unordered;
  ASSERT_EQ(ReadBoundedJson(text, unordered), JsonRefusal::kNone);
  EXPECT_EQ(unordered, json::parse(text));
  // A value alone is a document too.
  ASSERT_EQ(ReadBoundedJson("\"x\"", read), JsonRefusal::kNone);
  EXPECT_EQ(read, "x");
}

TEST(BoundedJsonTest, WhatIsNotJsonIsRefusedAndDiscarded) {
  for (std::string_view text : {"", "{", "{\"a\":1,}", "[1] [2]", "{\"a\":1e999}", "\"\xff\"",
                                "{\"a\" 1}", "nul", "[1,]"}) {
    ordered_json read = 7;
    EXPECT_EQ(ReadBoundedJson(text, read), JsonRefusal::kNotJson) << text;
    EXPECT_TRUE(read.is_discarded()) << text;
  }
}

TEST(BoundedJsonTest, AKeyGivenTwiceKeepsItsFirstPlaceAndItsLastValue) {
  // As nlohmann's own reader does: the readers of a message agree.
  const std::string text = R"({"a":1,"b":2,"a":3})";
  ordered_json read;
  ASSERT_EQ(ReadBoundedJson(text, read), JsonRefusal::kNone);
  EXPECT_EQ(read.dump(), R"({"a":3,"b":2})");
  EXPECT_EQ(read.dump(), ordered_json::parse(text).dump());
  // Past the few compared one by one, the same.
  std::string wide = Wide(40);
  wide.back() = ',';
  wide += R"("k3":"again","k39":"last"})";
  ASSERT_EQ(ReadBoundedJson(wide, read), JsonRefusal::kNone);
  EXPECT_EQ(read.dump(), ordered_json::parse(wide).dump());
  EXPECT_EQ(read.size(), 40u);
}

TEST(BoundedJsonTest, AllowsExactly128LevelsOfArraysAndObjects) {
  EXPECT_EQ(Read(Nested(kMaxJsonDepth)), JsonRefusal::kNone);
  EXPECT_EQ(Read(Nested(kMaxJsonDepth + 1)), JsonRefusal::kTooDeep);
  EXPECT_EQ(Read(Nested(100'000, '[', ']')), JsonRefusal::kTooDeep);
  // Objects and arrays count alike.
  std::string mixed;
  for (std::size_t i = 0; i < kMaxJsonDepth; ++i) mixed += i % 2 ? "[" : "{\"k\":";
  EXPECT_EQ(Read(mixed + "[]"), JsonRefusal::kTooDeep);
}

TEST(BoundedJsonTest, RefusesTooDeepAsSoonAsItIsReached) {
  // What never closes, or is no JSON after the bound, is refused as deep.
  EXPECT_EQ(Read(std::string(200, '[')), JsonRefusal::kTooDeep);
  EXPECT_EQ(Read(std::string(200, '[') + "garbage"), JsonRefusal::kTooDeep);
  // Side by side is not inside.
  EXPECT_EQ(Read(Cat({"[", Nested(3), ",", Nested(3), "]"}), Bounds(4, 10)), JsonRefusal::kNone);
  EXPECT_EQ(Read(Cat({"[", Nested(4), "]"}), Bounds(4, 10)), JsonRefusal::kTooDeep);
}

TEST(BoundedJsonTest, BracketsInStringsDoNotCount) {
  const std::string brackets(1000, '[');
  EXPECT_EQ(Read(Cat({"[\"", brackets, "\"]"}), Bounds(1, 10)), JsonRefusal::kNone);
  EXPECT_EQ(Read(Cat({"[\"\\\"", brackets, "\"]"}), Bounds(1, 10)), JsonRefusal::kNone);
}

TEST(BoundedJsonTest, CountsTheMembersOfEachObject) {
  EXPECT_EQ(Read(Wide(kMaxJsonObjectMembers)), JsonRefusal::kNone);
  EXPECT_EQ(Read(Wide(kMaxJsonObjectMembers + 1)), JsonRefusal::kTooWide);
  EXPECT_EQ(Read("{}", Bounds(10, 0)), JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":1})", Bounds(10, 0)), JsonRefusal::kTooWide);
  EXPECT_EQ(Read(R"({"a":1,"b":2})", Bounds(10, 2)), JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":1,"b":2,"c":3})", Bounds(10, 2)), JsonRefusal::kTooWide);
  // Each object counts alone, nested or side by side; a key given twice
  // counts each time it is given.
  EXPECT_EQ(Read(R"([{"a":1,"b":2},{"a":1,"b":2}])", Bounds(10, 2)), JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":{"x":1,"y":2},"b":2})", Bounds(10, 2)), JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":{"x":1,"y":2,"z":3},"b":2})", Bounds(10, 2)), JsonRefusal::kTooWide);
  EXPECT_EQ(Read(R"({"a":1,"a":2,"a":3})", Bounds(10, 2)), JsonRefusal::kTooWide);
}

TEST(BoundedJsonTest, ArraysAndStringsDoNotCountAsMembers) {
  std::string elements = "[1";
  for (int i = 0; i < 10'000; ++i) elements += ",1";
  EXPECT_EQ(Read(elements + "]", Bounds(10, 2)), JsonRefusal::kNone);
  EXPECT_EQ(Read(Cat({R"({"a":")", std::string(10'000, ','), R"("})"}), Bounds(10, 2)),
            JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":[1,2,3,4],"b":2})", Bounds(10, 2)), JsonRefusal::kNone);
}

TEST(BoundedJsonTest, ABatchIsCountedByTheElementsOfTheOutermostArray) {
  EXPECT_EQ(Read("[1,2,3]", Bounds(10, 10, 3)), JsonRefusal::kNone);
  EXPECT_EQ(Read("  [1,2,3,4]", Bounds(10, 10, 3)), JsonRefusal::kBatchTooWide);
  EXPECT_EQ(Read("[]", Bounds(10, 10, 3)), JsonRefusal::kNone);
  // Only the outermost array's elements count.
  EXPECT_EQ(Read(R"([[1,2,3,4,5],{"a":1,"b":2,"c":3},"a,b,c,d"])", Bounds(10, 10, 3)),
            JsonRefusal::kNone);
  EXPECT_EQ(Read(R"({"a":[1,2,3,4,5]})", Bounds(10, 10, 3)), JsonRefusal::kNone);
  // Refused as soon as it is past the bound, whatever follows.
  EXPECT_EQ(Read("[1,2,3,4,", Bounds(10, 10, 3)), JsonRefusal::kBatchTooWide);
}

TEST(BoundedJsonTest, AWideOrderedObjectTakesTimeInProportionToItsText) {
  // nlohmann's own reader looks each key of an ordered_json up among all
  // those before it: 65,536 members took it 5.4 s of processor time, where
  // this reading takes 54 ms (bench/json_reading_bench.cc). A bound well
  // above the second and far below the first, in processor time, which a
  // busy machine does not stretch as it stretches the clock's.
  const std::string text = Wide(65'536);
  const std::clock_t start = std::clock();
  ordered_json read;
  ASSERT_EQ(ReadBoundedJson(text, read, Bounds(10, 65'536)), JsonRefusal::kNone);
  EXPECT_LT(std::clock() - start, 2 * CLOCKS_PER_SEC);
  EXPECT_EQ(read.size(), 65'536u);
  EXPECT_EQ(read["k65535"], 0);
}

TEST(BoundedJsonTest, ADocumentOrDiscardedForWhoNeedNotSayWhy) {
  EXPECT_EQ(ReadBoundedJsonOrDiscarded(R"({"a":1})")["a"], 1);
  EXPECT_TRUE(ReadBoundedJsonOrDiscarded(Nested(kMaxJsonDepth + 1)).is_discarded());
  EXPECT_TRUE(ReadBoundedJsonOrDiscarded<json>("{").is_discarded());
}

}  // namespace
}  // namespace bravebot
