/**
 * The text side of a Hugging Face checkpoint: `tokenizer.json` (with `tokenizer_config.json`) through
 * @huggingface/tokenizers (Tokenizers.js, the JavaScript implementation transformers.js uses), the chat template
 * of tokenizer_config.json (or `chat_template.jinja`) rendered by @huggingface/jinja, and the token ids that end a
 * generation (generation_config.json's eos_token_id, which may be a list).
 *
 * Streaming decode follows the offsets scheme of text-generation-inference and vLLM: the new tokens are decoded
 * together with a few tokens before them, and only the text beyond what those gave is released, once it does not
 * end in an incomplete UTF-8 sequence (U+FFFD). Decoding a window rather than single tokens keeps byte-level BPE
 * characters split across tokens whole and keeps the spaces a decoder strips at the start of a text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { rtError } from '../errors/registry.ts';

export interface HfChatMessage {
  readonly role: string;
  readonly content: string;
}

export interface HfStreamDecoder {
  push(token: number): string;
  flush(): string;
}

/** What the generation service takes from a checkpoint (structurally its DecoderText). */
export interface HfText {
  readonly tokenizer: { encode(text: string): number[]; decoder(): HfStreamDecoder };
  /** Renders a conversation with the checkpoint's chat template, ending where the assistant's answer starts. */
  readonly renderChat: ((messages: readonly HfChatMessage[]) => string) | undefined;
  /** Token ids that end a generation (finish_reason "stop"). */
  readonly stopTokenIds: readonly number[];
}

export const TOKENIZER_FILE = 'tokenizer.json';
export const TOKENIZER_CONFIG_FILE = 'tokenizer_config.json';
export const CHAT_TEMPLATE_FILE = 'chat_template.jinja';

async function readJson(dir: string, file: string, required: boolean): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, file), 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw rtError('MODEL_LOAD_FAILED', `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (err) {
    throw rtError('BAD_CONFIG', `${file}: ${(err as Error).message}`);
  }
}

/** A special token of tokenizer_config.json: a string, or an AddedToken object with `content`. */
function tokenText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return undefined;
}

class HfTokenizer {
  constructor(
    private readonly tok: Tokenizer,
    private readonly bosText: string | undefined,
  ) {}

  /**
   * Tokens of a prompt, with the special tokens the tokenizer's post-processor adds (Llama's BOS), except when the
   * text already starts with the BOS token: a rendered chat template carries its own, as transformers'
   * apply_chat_template does (it tokenizes with add_special_tokens=False).
   */
  encode(text: string): number[] {
    const addSpecial = this.bosText === undefined || !text.startsWith(this.bosText);
    return this.tok.encode(text, { add_special_tokens: addSpecial }).ids;
  }

  decoder(): HfStreamDecoder {
    const tok = this.tok;
    const ids: number[] = [];
    let prefixOffset = 0;
    let readOffset = 0;
    const decode = (from: number, to?: number): string => {
      const window = ids.slice(from, to);
      // Tokenizers.js refuses an empty list; its text is empty.
      return window.length === 0 ? '' : tok.decode(window, { skip_special_tokens: true, clean_up_tokenization_spaces: false });
    };
    return {
      push(token: number): string {
        ids.push(token);
        const prefix = decode(prefixOffset, readOffset);
        const text = decode(prefixOffset);
        if (text.length > prefix.length && !text.endsWith('\uFFFD')) {
          prefixOffset = readOffset;
          readOffset = ids.length;
          return text.slice(prefix.length);
        }
        return '';
      },
      flush(): string {
        const prefix = decode(prefixOffset, readOffset);
        const text = decode(prefixOffset);
        readOffset = ids.length;
        prefixOffset = readOffset;
        return text.length > prefix.length ? text.slice(prefix.length) : '';
      },
    };
  }
}

function chatTemplateOf(config: Record<string, unknown> | undefined, fileTemplate: string | undefined): string | undefined {
  if (fileTemplate !== undefined) return fileTemplate;
  const t = config?.['chat_template'];
  if (typeof t === 'string') return t;
  // A list of named templates ({name, template}); the default one serves chat (transformers picks it the same way).
  if (Array.isArray(t)) {
    const named = t as { name?: unknown; template?: unknown }[];
    const chosen = named.find((x) => x.name === 'default') ?? named[0];
    if (typeof chosen?.template === 'string') return chosen.template;
  }
  if (t !== undefined && t !== null)
    throw rtError('BAD_CONFIG', `${TOKENIZER_CONFIG_FILE}: 'chat_template' must be a string or a list of {name, template}`);
  return undefined;
}

/**
 * Loads tokenizer.json, tokenizer_config.json and the chat template of a checkpoint directory. `eosTokenIds` are
 * the ids config.json / generation_config.json name; tokenizer_config.json's eos_token is added to them.
 */
export async function loadHfText(dir: string, eosTokenIds: readonly number[], vocabSize: number): Promise<HfText> {
  const tokenizerJson = await readJson(dir, TOKENIZER_FILE, true);
  const config = await readJson(dir, TOKENIZER_CONFIG_FILE, false);
  let tok: Tokenizer;
  try {
    tok = new Tokenizer(tokenizerJson as object, config ?? {});
  } catch (err) {
    throw rtError('BAD_CONFIG', `${TOKENIZER_FILE}: ${(err as Error).message}`);
  }
  const bosText = tokenText(config?.['bos_token']);
  const eosText = tokenText(config?.['eos_token']);
  const stop = new Set(eosTokenIds);
  const eosId = eosText === undefined ? undefined : tok.token_to_id(eosText);
  if (eosId !== undefined) stop.add(eosId);
  for (const id of stop) {
    if (id >= vocabSize) throw rtError('BAD_CONFIG', `end-of-sequence token id ${id} is outside the model's vocabulary (vocab_size ${vocabSize})`);
  }
  if (stop.size === 0) throw rtError('BAD_CONFIG', 'no end-of-sequence token: set eos_token_id in config.json or generation_config.json');
  let fileTemplate: string | undefined;
  try {
    fileTemplate = await readFile(join(dir, CHAT_TEMPLATE_FILE), 'utf8');
  } catch {
    fileTemplate = undefined;
  }
  const source = chatTemplateOf(config, fileTemplate);
  let renderChat: HfText['renderChat'];
  if (source !== undefined) {
    let template: Template;
    try {
      template = new Template(source);
    } catch (err) {
      throw rtError('BAD_CONFIG', `chat template: ${(err as Error).message}`);
    }
    renderChat = (messages) => {
      try {
        return template.render({
          messages: messages.map((m) => ({ role: m.role, content: m.content })),
          add_generation_prompt: true,
          bos_token: bosText ?? '',
          eos_token: eosText ?? '',
        });
      } catch (err) {
        // The template's own raise_exception (e.g. "roles must alternate") is the client's to fix.
        throw rtError('BAD_REQUEST', `the model's chat template refused the messages: ${(err as Error).message}`);
      }
    };
  }
  return { tokenizer: new HfTokenizer(tok, bosText), renderChat, stopTokenIds: [...stop] };
}
