// An agent as the tests need one: the TypeScript SDK's MCP client, driving a
// stdio server the way Claude Code or VS Code drive theirs, with every answer
// it gives the server scripted and everything the server sent it recorded.
//
//   node agent.mjs SCENARIO.json   (beside a node_modules holding the SDK)
//
// The scenario (JSON):
//   command, args, env, cwd   the server to start; env is its whole environment
//   protocolVersion           asked for at initialize (the SDK's latest if none)
//   capabilities              what the client declares:
//     elicitation: true       answers elicitation/create from `elicitations`
//                             (form mode; "form+url" declares url mode too)
//     roots: ["file:///..."]  answers roots/list with these
//     sampling: "TEXT"        answers sampling/createMessage with this text
//   elicitations              the answers, in order: {"action": "accept",
//                             "answer": "1"} (content {"answer": "1"}), or
//                             {"action": "decline"} / {"action": "cancel"};
//                             once they run out, each further one is cancelled
//   steps                     run in order, each {"do": ...}:
//     listTools                            tools/list
//     callTool name arguments [timeoutMs] [cancelAfterMs]
//                                          tools/call, with a progress token;
//                                          cancelAfterMs cancels it then
//     waitForListChanged [timeoutMs]       until a tools/list_changed comes that
//                                          came after the previous step began
//                                          and was not waited for before (one
//                                          from earlier, such as the start of
//                                          a server, is not the one awaited)
//     together steps                       runs `steps` at once, such as two
//                                          callTool sent before either is
//                                          answered; its result is theirs, in
//                                          order
//     sleep ms
//     kill signal                          signals the server's process
//     close                                closes the client as an agent does
//
// It prints one JSON transcript on stdout: {initialize, steps: [{do, ms,
// result | error}], elicitations: [{params, answer}], rootsLists, samplings,
// notifications: [{method, params}], calls: [id of each tools/call sent, in
// order], answered: [id of each answer received], errors: [what the client
// reported, such as an answer to a request it had cancelled], stderr, pid}.
// A failure of the client itself is {fatal: MESSAGE} in it, and the
// transcript is still printed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";

const scenario = JSON.parse(readFileSync(process.argv[2], "utf8"));
const declared = scenario.capabilities ?? {};
const transcript = {
  steps: [],
  elicitations: [],
  rootsLists: 0,
  samplings: [],
  notifications: [],
  calls: [],
  answered: [],
  errors: [],
  stderr: "",
};

const capabilities = {};
if (declared.elicitation) {
  capabilities.elicitation = declared.elicitation === "form+url" ? { form: {}, url: {} } : { form: {} };
}
if (declared.roots) capabilities.roots = { listChanged: true };
if (declared.sampling !== undefined) capabilities.sampling = {};
const client = new Client({ name: "bravebot-test-agent", version: "1.0.0" }, { capabilities });

const answers = [...(scenario.elicitations ?? [])];
if (declared.elicitation) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const scripted = answers.shift() ?? { action: "cancel" };
    const answer =
      scripted.action === "accept"
        ? { action: "accept", content: { answer: scripted.answer } }
        : { action: scripted.action };
    transcript.elicitations.push({ params: request.params, answer });
    return answer;
  });
}
if (declared.roots) {
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    transcript.rootsLists += 1;
    return { roots: declared.roots.map((uri) => ({ uri })) };
  });
}
if (declared.sampling !== undefined) {
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    transcript.samplings.push(request.params);
    return {
      role: "assistant",
      model: "scripted",
      content: { type: "text", text: declared.sampling },
    };
  });
}

// Every notification is recorded; the waits below look at list_changed.
const listChangedAt = [];
let listChangesWaitedFor = 0;
let onListChanged = () => {};
client.fallbackNotificationHandler = async (notification) => {
  transcript.notifications.push(notification);
  if (notification.method === "notifications/tools/list_changed") {
    listChangedAt.push(Date.now());
    onListChanged();
  }
};

const transport = new StdioClientTransport({
  command: scenario.command,
  args: scenario.args ?? [],
  env: scenario.env,
  cwd: scenario.cwd,
  stderr: "pipe",
});
transport.stderr.on("data", (chunk) => (transcript.stderr += chunk));
// The version the server answered with, which the SDK tells HTTP transports
// only; and, where the scenario names one, an older version asked for.
let answeredVersion = null;
transport.setProtocolVersion = (version) => (answeredVersion = version);
const send = transport.send.bind(transport);
transport.send = (message) => {
  if (message.method === "initialize" && scenario.protocolVersion) {
    message.params.protocolVersion = scenario.protocolVersion;
  }
  if (message.method === "tools/call") transcript.calls.push(message.id);
  return send(message);
};
let closed = false;
let onClosed = () => {};
const failure = (error) => ({ code: error.code ?? null, message: String(error.message ?? error) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(ready, setWaker, timeoutMs) {
  if (ready()) return true;
  await Promise.race([new Promise((resolve) => setWaker(resolve)), sleep(timeoutMs)]);
  return ready();
}

async function run(step, previousBegun) {
  switch (step.do) {
    case "listTools":
      return { result: await client.listTools() };
    case "callTool": {
      const progress = [];
      const abort = new AbortController();
      if (step.cancelAfterMs !== undefined) setTimeout(() => abort.abort("test"), step.cancelAfterMs);
      const result = await client.callTool(
        { name: step.name, arguments: step.arguments ?? {} },
        CallToolResultSchema,
        { timeout: step.timeoutMs ?? 60000, signal: abort.signal, onprogress: (p) => progress.push(p) },
      );
      return { result, progress };
    }
    case "waitForListChanged": {
      const awaited = () =>
        listChangedAt.findIndex((at, i) => i >= listChangesWaitedFor && at >= previousBegun);
      const came = await waitFor(
        () => awaited() >= 0,
        (wake) => (onListChanged = wake),
        step.timeoutMs ?? 10000,
      );
      if (came) listChangesWaitedFor = awaited() + 1;
      return { result: { came } };
    }
    case "together": {
      const each = (inner) =>
        run(inner, previousBegun).then(
          (outcome) => ({ do: inner.do, name: inner.name, ...outcome }),
          (error) => ({ do: inner.do, name: inner.name, error: failure(error) }),
        );
      return { result: await Promise.all(step.steps.map(each)) };
    }
    case "sleep":
      await sleep(step.ms);
      return {};
    case "kill":
      process.kill(transport.pid, step.signal);
      return {
        result: {
          closed: await waitFor(() => closed, (wake) => (onClosed = wake), step.timeoutMs ?? 10000),
        },
      };
    case "close":
      await client.close();
      return {};
    default:
      throw new Error(`no such step: ${step.do}`);
  }
}

try {
  client.onclose = () => {
    closed = true;
    onClosed();
  };
  // Every answer the gateway sends is seen first here: an answer to a
  // request the client cancelled is dropped by the SDK, and only this
  // records that it came.
  client.onerror = (error) => transcript.errors.push(String(error.message ?? error));
  const started = Date.now();
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.id !== undefined && message.method === undefined) {
      transcript.answered.push(message.id);
    }
    deliver(message, extra);
  };
  transcript.pid = transport.pid;
  transcript.initialize = {
    ms: Date.now() - started,
    protocolVersion: answeredVersion,
    capabilities: client.getServerCapabilities(),
    serverInfo: client.getServerVersion(),
    instructions: client.getInstructions() ?? null,
  };
  let previousBegun = started;  // the first step looks back to the connection
  for (const step of scenario.steps ?? []) {
    const begun = Date.now();
    let outcome;
    try {
      outcome = await run(step, previousBegun);
    } catch (error) {
      outcome = { error: failure(error) };
    }
    transcript.steps.push({ do: step.do, name: step.name, ms: Date.now() - begun, ...outcome });
    previousBegun = begun;
  }
  if (!closed) await client.close();
} catch (error) {
  transcript.fatal = String(error.stack ?? error);
}
process.stdout.write(JSON.stringify(transcript) + "\n");
process.exit(0);
