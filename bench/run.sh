#!/usr/bin/env bash
# Runs the benchmarks and prints each against its baseline of the same run:
# a confined start against the plain start of the same server, reading
# mcp.json against parsing its JSON alone, a call relayed by the supervisor
# against the same call over a direct pipe, 50 starts at once against one,
# asking whether a sign-in is kept against reading mcp-tokens whole, and
# mcp-run as a whole process against bwrap with a plain client.
#   bench/run.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/build.sh "$build" >/dev/null
scripts/install-peers.sh >/dev/null
# Repetitions interleaved at random, so that a noisy minute on this machine
# falls on a benchmark and its baseline alike rather than on one of them.
"$build/bin/bravebot_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_format=json --benchmark_out="$build/bench.json" --benchmark_out_format=json \
  >/dev/null
python3 - "$build/bench.json" <<'PY'
import json, sys
import re
rows = {re.sub(r"(/iterations:\d+|/real_time)+$", "", b["run_name"]): b
        for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
def ms(name): return rows[name]["real_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6}[rows[name]["time_unit"]]
for name in sorted(rows):
    print(f"{name:40s} {ms(name):10.3f} ms (median of 5)")
print()
for server in ("tiny", "everything"):
    hiding, showing = f"BM_ConfinedStart/{server}", f"BM_ConfinedStartShowingSocketPlaces/{server}"
    if hiding in rows and showing in rows:
        print(f"{'hiding the places of sockets, ' + server:40s} {ms(hiding) / ms(showing):6.3f}x "
              f"the confined start without it (+{ms(hiding) - ms(showing):.2f} ms)")
    plain = f"BM_PlainStart/{server}"
    if plain not in rows: continue
    for other in ("BM_ConfinedStart", "BM_BwrapStart"):
        name = f"{other}/{server}"
        if name in rows:
            print(f"{name:40s} {ms(name) / ms(plain):6.3f}x the plain start "
                  f"(+{ms(name) - ms(plain):.2f} ms)")
if "BM_ReadDeclarations/100" in rows:
    print(f"{'reading 100 declarations':40s} "
          f"{ms('BM_ReadDeclarations/100') / ms('BM_ParseJsonOnly/100'):6.3f}x parsing the JSON alone")
whole, kept = "BM_SignInCheckReadingTheWholeFile/1000", "BM_SignInCheck/1000"
if whole in rows and kept in rows:
    print(f"{'asking whether a sign-in is kept':40s} {ms(kept) * 1000:.2f} us a request, "
          f"{ms(whole) / ms(kept):.0f}x less than reading mcp-tokens whole ({ms(whole):.1f} ms, "
          f"1000 entries of 8 KiB)")
for in_flight in ("1", "64"):
    direct, relayed = f"BM_DirectCall/{in_flight}", f"BM_SupervisorCall/{in_flight}"
    if direct in rows and relayed in rows:
        print(f"{relayed:40s} {ms(relayed) / ms(direct):6.3f}x the direct pipe's time "
              f"(+{(ms(relayed) - ms(direct)) * 1000 / int(in_flight):.1f} us a call; "
              f"throughput {ms(direct) / ms(relayed):.2f}x; processor a call: the server "
              f"{rows[direct].get('server_cpu_us_per_call', 0):.1f} us, the supervisor "
              f"{rows[relayed].get('supervisor_cpu_us_per_call', 0):.1f} us)")
for delay, kind in (("0", "answering at once"), ("1000", "each waiting 1 s")):
    one, fifty = f"BM_SupervisorStarts/1/{delay}", f"BM_SupervisorStarts/50/{delay}"
    if one in rows and fifty in rows:
        print(f"{'50 starts at once, ' + kind:40s} {ms(fifty) / ms(one):6.2f}x one start; the "
              f"supervisor's memory with 50: {rows[fifty].get('supervisor_rss_kib', 0) / 1024:.1f} MiB")
plain, bwrap, ours = "BM_WholeProcessPlain", "BM_WholeProcessBwrap", "BM_WholeProcessMcpRun"
if plain in rows and bwrap in rows and ours in rows:
    print(f"{'mcp-run as a whole process':40s} {ms(ours):.2f} ms: {ms(ours) / ms(bwrap):.2f}x "
          f"bwrap with a plain client ({ms(bwrap):.2f} ms), {ms(ours) / ms(plain):.2f}x the plain "
          f"client alone ({ms(plain):.2f} ms)")
bridged = "BM_WholeProcessMcpRunStdio"
if plain in rows and bwrap in rows and bridged in rows:
    print(f"{'mcp-run --stdio as a whole process':40s} {ms(bridged):.2f} ms: "
          f"{ms(bridged) / ms(bwrap):.2f}x bwrap with a plain client, "
          f"{ms(bridged) / ms(plain):.2f}x the plain client alone")
direct, through = "BM_GatewayCallDirect", "BM_GatewayCall"
if direct in rows and through in rows:
    print(f"{'a tools/call through the gateway':40s} +{(ms(through) - ms(direct)) * 1000:.1f} us "
          f"added median latency (target under 150 us): {ms(through) * 1000:.1f} us against "
          f"{ms(direct) * 1000:.1f} us direct, {ms(through) / ms(direct):.2f}x; processor a call: "
          f"the gateway {rows[through].get('gateway_cpu_us_per_call', 0):.1f} us")
alone, five, one = "BM_GatewayFirstListDirect", "BM_GatewayFirstList/5", "BM_GatewayFirstList/1"
if alone in rows and five in rows:
    print(f"{'the first tools/list, 5 servers':40s} {ms(five) / ms(alone):6.3f}x the slowest "
          f"started alone (target 1.2x): {ms(five):.0f} ms against {ms(alone):.0f} ms"
          + (f"; the slowest alone behind the gateway {ms(one):.0f} ms" if one in rows else ""))
PY
