#!/usr/bin/env node
// A toolwire cmd: adapter in Node.js: OpenAI Chat Completions requests to
// Anthropic Messages requests. No dependencies (Node 18 or later).
//
//   toolwire run --adapter "cmd:node examples/node-adapter/adapter.js"
//
// The protocol (docs/adapters.md, `toolwire adapter-protocol --schema`): one
// JSON object per line. We write a handshake first, then answer each
// "convert" line with a "result" or an "error" carrying the same id, and exit
// on "shutdown". Logs go to stderr: stdout carries only protocol messages.
// twin.py is the same converter in Python; toolwire's tests check that both
// give the same verdicts.
"use strict";

const readline = require("node:readline");

const NAME = "example-openai-to-anthropic";
const VERSION = "0.1.0";
const DIRECTIONS = [["request", "openai-chat", "anthropic-messages"]];
const DEFAULT_MAX_TOKENS = 4096;
// docs/conventions.md: a failed result's openai-chat content starts with "Error:".
const ERROR_MARK = /^\s*error\s*:/i;

class ConversionError extends Error {
  get name() {
    return "ConversionError";
  }
}

// An openai-chat content (string or parts) as Anthropic text blocks.
function textParts(content, where) {
  if (content === null || content === undefined || content === "") return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part, index) => {
    if (part.type !== "text") {
      throw new ConversionError(`${where}.content[${index}]: only text parts are converted`);
    }
    return { type: "text", text: part.text };
  });
}

function toolChoice(choice, parallel) {
  let converted = null;
  if (choice === "auto") converted = { type: "auto" };
  else if (choice === "none") converted = { type: "none" };
  else if (choice === "required") converted = { type: "any" };
  else if (choice !== null && typeof choice === "object") {
    converted = { type: "tool", name: choice.function.name };
  }
  if (parallel === false) {
    converted = converted || { type: "auto" };
    if (converted.type !== "none") converted.disable_parallel_tool_use = true;
  }
  return converted;
}

function convertRequest(body) {
  if ((body.n ?? 1) !== 1) throw new ConversionError("n: Anthropic returns one choice; n must be 1");
  const system = [];
  const messages = [];
  body.messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const role = message.role;
    const previous = messages.length ? messages[messages.length - 1] : null;
    if (role === "system" || role === "developer") {
      system.push(...textParts(message.content, where));
    } else if (role === "tool") {
      const content = message.content || "";
      const text =
        typeof content === "string"
          ? content
          : textParts(content, where).map((block) => block.text).join("");
      const result = { type: "tool_result", tool_use_id: message.tool_call_id, content: text };
      if (ERROR_MARK.test(text)) result.is_error = true;
      if (previous !== null && previous.role === "user" && previous.results) {
        previous.content.push(result);
      } else {
        messages.push({ role: "user", content: [result], results: true });
      }
    } else if (role === "user") {
      const blocks = textParts(message.content, where);
      if (previous !== null && previous.results) {
        previous.content.push(...blocks); // text after results, in the same turn
        delete previous.results;
      } else {
        messages.push({ role: "user", content: message.content });
      }
    } else if (role === "assistant") {
      const blocks = textParts(message.content, where);
      for (const call of message.tool_calls || []) {
        let input;
        try {
          input = JSON.parse(call.function.arguments || "{}");
        } catch (error) {
          throw new ConversionError(`${where}: the arguments of call ${call.id} are not JSON`);
        }
        blocks.push({ type: "tool_use", id: call.id, name: call.function.name, input });
      }
      messages.push({ role: "assistant", content: blocks });
    } else {
      throw new ConversionError(`${where}: unknown role '${role}'`);
    }
  });
  for (const message of messages) delete message.results;
  const converted = { model: body.model };
  converted.max_tokens = body.max_completion_tokens || body.max_tokens || DEFAULT_MAX_TOKENS;
  if (system.length) converted.system = system;
  converted.messages = messages;
  if (body.tools !== undefined && body.tools !== null) {
    converted.tools = body.tools.map((tool) => {
      const definition = { name: tool.function.name };
      if ("description" in tool.function) definition.description = tool.function.description;
      definition.input_schema = tool.function.parameters || { type: "object", properties: {} };
      // Anthropic tools take strict too (structured outputs).
      if ("strict" in tool.function) definition.strict = tool.function.strict;
      return definition;
    });
  }
  const choice = toolChoice(body.tool_choice ?? null, body.parallel_tool_calls);
  if (choice !== null) converted.tool_choice = choice;
  for (const key of ["temperature", "top_p", "stream"]) {
    if (key in body) converted[key] = body[key];
  }
  if (body.stop !== undefined && body.stop !== null) {
    converted.stop_sequences = typeof body.stop === "string" ? [body.stop] : body.stop;
  }
  return converted;
}

function convert(message) {
  const direction = [message.kind, message.source, message.target];
  if (!DIRECTIONS.some((d) => d.every((part, i) => part === direction[i]))) {
    throw new ConversionError(`cannot convert ${message.kind} ${message.source} -> ${message.target}`);
  }
  return convertRequest(message.payload);
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

send({ type: "handshake", protocol: 1, name: NAME, version: VERSION, directions: DIRECTIONS });

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "shutdown") {
    lines.close();
    return;
  }
  try {
    send({ type: "result", id: message.id, payload: convert(message) });
  } catch (error) {
    send({ type: "error", id: message.id, message: error.message, error_type: error.name });
  }
});
