// What reading mcp.json costs over parsing its JSON: the baseline is
// nlohmann::json::parse of the same text, in the same run, so the ratio
// between the two is what the declaration checks add.
#include <benchmark/benchmark.h>

#include "confine/digest.h"
#include "supervisor/store/declaration_file.h"
#include "supervisor/store/declaration_json.h"

namespace bravebot {
namespace {

std::string FileOfDeclarations(int count) {
  nlohmann::json document = EmptyDeclarationDocument();
  for (int i = 0; i < count; ++i) {
    Declaration declaration;
    declaration.alias = "server-" + std::to_string(i);
    declaration.program = "npx";
    declaration.arguments = {"-y", "@example/server-" + std::to_string(i) + "@1.2.3", "--flag"};
    declaration.stored_variables = {{"TOKEN", "value-" + std::to_string(i)}};
    declaration.passed_variables = {"PATH"};
    document["servers"][declaration.alias] = DeclarationToJson(declaration);
  }
  return document.dump(2);
}

void BM_ParseJsonOnly(benchmark::State& state) {
  const std::string text = FileOfDeclarations(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(nlohmann::json::parse(text));
}
BENCHMARK(BM_ParseJsonOnly)->Arg(100);

void BM_ReadDeclarations(benchmark::State& state) {
  const std::string text = FileOfDeclarations(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto document = ParseDeclarationDocument(text, "mcp.json");
    benchmark::DoNotOptimize(ReadDeclarations(*document));
  }
}
BENCHMARK(BM_ReadDeclarations)->Arg(100);

void BM_ComputeDigest(benchmark::State& state) {
  Declaration declaration;
  declaration.program = "npx";
  declaration.arguments = {"-y", "@modelcontextprotocol/server-everything@2026.8.31"};
  declaration.passed_variables = {"PATH", "HOME", "LANG"};
  for (auto _ : state) benchmark::DoNotOptimize(ComputeDigest(declaration));
}
BENCHMARK(BM_ComputeDigest);

}  // namespace
}  // namespace bravebot
