// rtserve chat page: streams tokens from a generative model over the WebSocket protocol (docs/ws-protocol.md:
// `infer` with `stream: true`, `delta` events, one `done`, `cancel`) or over the OpenAI-compatible SSE routes
// (/v1/completions and /v1/chat/completions with `stream: true`). Plain JavaScript, no build step.
// `window.rtChat` exposes the page's state for the browser tests.

const $ = (id) => document.getElementById(id);

const state = {
  ready: false,
  model: undefined,
  transport: 'ws',
  streaming: false,
  /** Text pieces received for the current answer. */
  pieces: 0,
  text: '',
  finishReason: undefined,
  completionTokens: undefined,
  ttftMs: undefined,
  tokensPerSec: undefined,
  error: undefined,
  /** Chat mode: the conversation so far ({role, content}). */
  history: [],
  answers: 0,
};
window.rtChat = state;

let template = { system: '# system: {content}\n', user: '# user: {content}\n', assistant: '# assistant: {content}\n', generation_prompt: '# assistant: ' };
let ws;
let wsReady;
let nextId = 1;
let current; // { id, cancel(), onDelta, onEnd }

function setStats(text) {
  $('stats').textContent = text;
}

function addTurn(role, text) {
  const div = document.createElement('div');
  div.className = `turn ${role}`;
  const label = document.createElement('div');
  label.className = 'role';
  label.textContent = role;
  const pre = document.createElement('pre');
  pre.textContent = text;
  div.append(label, pre);
  $('conversation').append(div);
  div.scrollIntoView({ block: 'end' });
  return pre;
}

function renderChat(messages) {
  let out = '';
  for (const m of messages) {
    const t = m.role === 'system' ? template.system : m.role === 'assistant' ? template.assistant : template.user;
    out += t.replaceAll('{content}', m.content);
  }
  return out + template.generation_prompt;
}

// ---- WebSocket transport

function connectWs() {
  if (wsReady !== undefined) return wsReady;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v2/ws`;
  wsReady = new Promise((resolve, reject) => {
    ws = new WebSocket(url, ['rtserve.v1']);
    ws.onmessage = (msg) => {
      if (typeof msg.data !== 'string') return;
      const e = JSON.parse(msg.data);
      if (e.type === 'session.created') resolve(ws);
      if (current === undefined || e.id !== current.id) return;
      if (e.type === 'delta') {
        const out = e.outputs && e.outputs[0];
        const piece = out && Array.isArray(out.data) ? String(out.data[0] ?? '') : '';
        const p = e.parameters || {};
        current.onDelta(piece, p.triton_final_response === true ? { finishReason: p.finish_reason, completionTokens: p.completion_tokens } : undefined);
      } else if (e.type === 'done') {
        current.onEnd();
      } else if (e.type === 'error') {
        current.onEnd(`${e.error.code}: ${e.error.message}`);
      }
    };
    ws.onerror = () => reject(new Error('WebSocket connection failed'));
    ws.onclose = () => {
      wsReady = undefined;
      if (current !== undefined && current.transport === 'ws') current.onEnd('the WebSocket closed');
    };
  });
  return wsReady;
}

async function streamWs(prompt, params, handlers) {
  const socket = await connectWs();
  const id = `c${nextId++}`;
  current = { id, transport: 'ws', ...handlers, cancel: () => socket.send(JSON.stringify({ type: 'cancel', id })) };
  socket.send(JSON.stringify({
    type: 'infer',
    id,
    model: state.model,
    inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [prompt] }],
    parameters: { max_tokens: params.maxTokens, temperature: params.temperature },
    stream: true,
  }));
}

// ---- SSE transport (OpenAI-compatible routes)

async function streamSse(body, chat, handlers) {
  const controller = new AbortController();
  current = { id: 'sse', transport: 'sse', ...handlers, cancel: () => controller.abort() };
  let res;
  try {
    res = await fetch(chat ? '/v1/chat/completions' : '/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      signal: controller.signal,
    });
  } catch (err) {
    handlers.onEnd(String(err));
    return;
  }
  if (!res.ok) {
    const e = await res.json().catch(() => ({}));
    handlers.onEnd(`${res.status}: ${(e.error && e.error.message) || res.statusText}`);
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let finish;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const line = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (!line.startsWith('data: ')) continue;
        const data = line.slice(6);
        if (data === '[DONE]') {
          handlers.onEnd();
          return;
        }
        const chunk = JSON.parse(data);
        if (chunk.error) {
          handlers.onEnd(chunk.error.message);
          return;
        }
        const choice = chunk.choices && chunk.choices[0];
        if (choice) {
          const piece = chat ? (choice.delta && choice.delta.content) || '' : choice.text || '';
          if (choice.finish_reason) finish = choice.finish_reason;
          handlers.onDelta(piece, undefined);
        }
        if (chunk.usage) handlers.onDelta('', { finishReason: finish, completionTokens: chunk.usage.completion_tokens });
      }
    }
    handlers.onEnd();
  } catch (err) {
    handlers.onEnd(controller.signal.aborted ? undefined : String(err));
  }
}

// ---- the page

async function send(event) {
  event.preventDefault();
  if (state.streaming || !state.ready) return;
  const input = $('prompt').value;
  const chat = $('mode').value === 'chat';
  state.transport = $('transport').value;
  const params = { temperature: Number($('temperature').value), maxTokens: Number($('max-tokens').value) };
  Object.assign(state, { streaming: true, pieces: 0, text: '', finishReason: undefined, completionTokens: undefined, ttftMs: undefined, tokensPerSec: undefined, error: undefined });
  $('send').disabled = true;
  $('stop').disabled = false;
  let prompt = input;
  if (chat) {
    state.history.push({ role: 'user', content: input });
    prompt = renderChat(state.history);
    addTurn('user', input);
    $('prompt').value = '';
  }
  const out = addTurn('assistant', chat ? '' : input);
  const started = performance.now();
  let firstAt;
  const handlers = {
    onDelta(piece, final) {
      if (piece !== '') {
        if (firstAt === undefined) {
          firstAt = performance.now();
          state.ttftMs = Math.round(firstAt - started);
        }
        state.pieces++;
        state.text += piece;
        out.textContent += piece;
      }
      if (final !== undefined) {
        state.finishReason = final.finishReason;
        state.completionTokens = final.completionTokens;
      }
    },
    onEnd(error) {
      if (!state.streaming) return;
      current = undefined;
      const seconds = (performance.now() - (firstAt ?? started)) / 1000;
      if (state.completionTokens !== undefined && seconds > 0) state.tokensPerSec = Math.round(state.completionTokens / seconds);
      if (error !== undefined) {
        state.error = error;
        addTurn('error', error);
      }
      if (chat) state.history.push({ role: 'assistant', content: state.text });
      state.streaming = false;
      state.answers++;
      $('send').disabled = false;
      $('stop').disabled = true;
      setStats(
        `${state.transport === 'ws' ? 'WebSocket' : 'SSE'} · first token ${state.ttftMs ?? '–'} ms · ${state.completionTokens ?? state.pieces} tokens` +
          `${state.tokensPerSec === undefined ? '' : ` · ${state.tokensPerSec} tokens/s`} · finish: ${state.finishReason ?? (error ? 'error' : 'cancelled')}`,
      );
    },
  };
  try {
    if (state.transport === 'ws') {
      await streamWs(prompt, params, handlers);
    } else {
      const body = { model: state.model, temperature: params.temperature, max_tokens: params.maxTokens };
      await streamSse(chat ? { ...body, messages: state.history } : { ...body, prompt }, chat, handlers);
    }
  } catch (err) {
    handlers.onEnd(String(err));
  }
}

function stop() {
  if (current !== undefined) current.cancel();
}

async function loadModel(name) {
  state.model = name;
  try {
    const config = await (await fetch(`/v2/models/${encodeURIComponent(name)}/config`)).json();
    if (config.generate && config.generate.chat_template) template = config.generate.chat_template;
  } catch {
    // keep the default template
  }
}

async function init() {
  $('composer').addEventListener('submit', send);
  $('controls').addEventListener('submit', (e) => e.preventDefault());
  $('stop').addEventListener('click', stop);
  $('clear').addEventListener('click', () => {
    state.history = [];
    $('conversation').replaceChildren();
  });
  $('model').addEventListener('change', () => loadModel($('model').value));
  try {
    const list = await (await fetch('/v1/models')).json();
    for (const m of list.data) {
      const opt = document.createElement('option');
      opt.value = m.id;
      opt.textContent = m.id;
      $('model').append(opt);
    }
    if (list.data.length === 0) throw new Error('the server has no generative model');
    await loadModel(list.data[0].id);
    state.ready = true;
    setStats(`ready · model ${state.model}`);
  } catch (err) {
    state.error = String(err);
    setStats(`cannot start: ${err}`);
  }
}

init();
