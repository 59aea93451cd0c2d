#include "base/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace bravebot {
namespace {

Result<int> Parse(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    return Error(ErrorCode::kUsage, "'" + text + "' is not a number");
  }
  return std::stoi(text);
}

Status Positive(int value) {
  if (value <= 0) return Error(ErrorCode::kRefused, "not positive");
  return {};
}

// Each step's error passes up unchanged; `steps` counts those that ran.
Result<int> Sum(const std::string& a, const std::string& b, int& steps) {
  BRAVEBOT_ASSIGN_OR_RETURN(int first, Parse(a));
  ++steps;
  BRAVEBOT_ASSIGN_OR_RETURN(const int second, Parse(b));
  ++steps;
  BRAVEBOT_RETURN_IF_ERROR(Positive(first + second));
  ++steps;
  return first + second;
}

TEST(ResultMacrosTest, AValueIsDeclaredAndTheNextStepRuns) {
  int steps = 0;
  Result<int> sum = Sum("2", "3", steps);
  ASSERT_TRUE(sum);
  EXPECT_EQ(*sum, 5);
  EXPECT_EQ(steps, 3);
}

TEST(ResultMacrosTest, AnErrorEndsTheFunctionWithItUnchanged) {
  int steps = 0;
  Result<int> sum = Sum("2", "x", steps);
  ASSERT_FALSE(sum);
  EXPECT_EQ(sum.error().code(), ErrorCode::kUsage);
  EXPECT_EQ(sum.error().message(), "'x' is not a number");
  EXPECT_EQ(steps, 1);

  steps = 0;
  Result<int> zero = Sum("0", "0", steps);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(steps, 2);
}

Result<std::unique_ptr<int>> Boxed(int value) { return std::make_unique<int>(value); }

Status Unbox(int& into) {
  std::unique_ptr<int> box;
  BRAVEBOT_ASSIGN_OR_RETURN(box, Boxed(7));  // assigned, not declared; moved, not copied
  into = *box;
  return {};
}

TEST(ResultMacrosTest, AMoveOnlyValueIsMovedIntoAnExistingVariable) {
  int into = 0;
  ASSERT_TRUE(Unbox(into));
  EXPECT_EQ(into, 7);
}

}  // namespace
}  // namespace bravebot
