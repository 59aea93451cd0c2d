// Reading a server's answer to pass its result on: the member reading
// (base/json_members.h), which finds the result's text and passes it on as
// written, against one bounded parse (base/bounded_json.h) that builds the
// document and writes the result again, and against nlohmann's parser alone
// (no document: the least a parse that checks the whole text costs). On a
// 1 MiB tools/call result, a tools/list of 4096 tools and a 1 KiB call.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <string>

#include "base/bounded_json.h"
#include "base/json_members.h"

namespace bravebot {
namespace {

using nlohmann::ordered_json;

// `{"jsonrpc":"2.0","id":7,"result":RESULT}`, as a server writes it.
std::string AnswerLine(const ordered_json& result) {
  return ordered_json{{"jsonrpc", "2.0"}, {"id", 7}, {"result", result}}.dump();
}

std::string BigCallAnswer() {
  std::string text;
  // Lines of prose with what a tool's text holds: quotes, tabs, newlines, é.
  while (text.size() < (1 << 20)) {
    text += "line " + std::to_string(text.size()) +
            ": the \"quick\" brown fox\tjumps over the lazy dog, café\n";
  }
  return AnswerLine(
      {{"content", ordered_json::array({{{"type", "text"}, {"text", text}}})}, {"isError", false}});
}

std::string ToolList(int tools) {
  ordered_json list = ordered_json::array();
  for (int i = 0; i < tools; ++i) {
    list.push_back(
        {{"name", "tool_" + std::to_string(i)},
         {"description", "Does the thing number " + std::to_string(i) + " to the given path."},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"path", {{"type", "string"}, {"description", "where"}}},
             {"depth", {{"type", "integer"}, {"minimum", 0}}},
             {"force", {{"type", "boolean"}}}}},
           {"required", {"path"}}}}});
  }
  return AnswerLine({{"tools", list}});
}

std::string SmallCallAnswer() {
  return AnswerLine(
      {{"content", ordered_json::array({{{"type", "text"}, {"text", std::string(1000, 'x')}}})}});
}

const std::string& Line(int which) {
  static const std::string lines[] = {BigCallAnswer(), ToolList(4096), SmallCallAnswer()};
  return lines[which];
}

const char* kNames[] = {"1MiB-call-result", "4096-tool-list", "1KiB-call-result"};

// Today's relay: the members read as text, the result passed on as written.
void BM_ResultByMembers(benchmark::State& state) {
  const std::string& line = Line(state.range(0));
  for (auto _ : state) {
    auto members = ReadJsonObjectMembers(line);
    std::string passed_on(FindJsonMember(*members, "result"));
    benchmark::DoNotOptimize(passed_on);
  }
  state.SetLabel(kNames[state.range(0)]);
  state.SetBytesProcessed(state.iterations() * line.size());
}

// One bounded parse into a document, the result written again to pass it on.
void BM_ResultByBoundedParse(benchmark::State& state) {
  const std::string& line = Line(state.range(0));
  for (auto _ : state) {
    ordered_json message;
    if (ReadBoundedJson(line, message) != JsonRefusal::kNone) state.SkipWithError("refused");
    std::string passed_on = message["result"].dump();
    benchmark::DoNotOptimize(passed_on);
  }
  state.SetLabel(kNames[state.range(0)]);
  state.SetBytesProcessed(state.iterations() * line.size());
}

// The same parse, without writing the result again.
void BM_BoundedParseAlone(benchmark::State& state) {
  const std::string& line = Line(state.range(0));
  for (auto _ : state) {
    ordered_json message;
    benchmark::DoNotOptimize(ReadBoundedJson(line, message));
  }
  state.SetLabel(kNames[state.range(0)]);
  state.SetBytesProcessed(state.iterations() * line.size());
}

// nlohmann's parser checking the text and building nothing: the least any
// SAX reading costs, spans or not.
void BM_NlohmannAcceptOnly(benchmark::State& state) {
  const std::string& line = Line(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(ordered_json::accept(line));
  state.SetLabel(kNames[state.range(0)]);
  state.SetBytesProcessed(state.iterations() * line.size());
}

// nlohmann's own DOM reader (what the bounded parse replaces).
void BM_NlohmannParse(benchmark::State& state) {
  const std::string& line = Line(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(ordered_json::parse(line, nullptr, false));
  }
  state.SetLabel(kNames[state.range(0)]);
  state.SetBytesProcessed(state.iterations() * line.size());
}

BENCHMARK(BM_ResultByMembers)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ResultByBoundedParse)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BoundedParseAlone)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NlohmannAcceptOnly)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NlohmannParse)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// An object of `members` short keys, read into an ordered_json: nlohmann's
// reader looks each key up among those before it, the bounded one does not.
std::string WideObject(int members) {
  std::string text = "{";
  for (int i = 0; i < members; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return text + "}";
}

void BM_WideObjectNlohmannParse(benchmark::State& state) {
  const std::string text = WideObject(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(ordered_json::parse(text, nullptr, false));
}

void BM_WideObjectBoundedParse(benchmark::State& state) {
  const std::string text = WideObject(state.range(0));
  JsonBounds unbounded;
  unbounded.max_members = state.range(0);
  for (auto _ : state) {
    ordered_json document;
    benchmark::DoNotOptimize(ReadBoundedJson(text, document, unbounded));
  }
}

BENCHMARK(BM_WideObjectNlohmannParse)->Arg(4096)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WideObjectBoundedParse)->Arg(4096)->Arg(65536)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bravebot
