import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RtError } from '../../../src/errors/registry.ts';
import { StopMatcher, checkStops } from '../../../src/generate/stop.ts';
import { tokenizerFor } from '../../../src/generate/tokenizer.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

test('the bytes tokenizer round-trips any text, multi-byte characters split across tokens included', (t) => {
  const tok = tokenizerFor('bytes');
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      const ids = tok.encode(text);
      assert.ok(ids.every((t) => t >= 0 && t < 256));
      const d = tok.decoder();
      const out = ids.map((t) => d.push(t)).join('') + d.flush();
      assert.equal(out, text);
    }),
    fuzzParams(t),
  );
  const d = tok.decoder();
  const euro = tok.encode('€'); // 3 bytes
  assert.equal(d.push(euro[0] as number), '');
  assert.equal(d.push(euro[1] as number), '');
  assert.equal(d.push(euro[2] as number), '€');
  assert.equal(d.push(256), '', 'special tokens are not text');
  assert.equal(d.push(0xe2), '');
  assert.equal(d.flush(), '\ufffd', 'an unfinished character at the end becomes U+FFFD');
  assert.throws(
    () => tokenizerFor('sentencepiece'),
    (e: unknown) => e instanceof RtError && e.code === 'BAD_CONFIG',
  );
});

test('stop sequences: text that may start a stop string is held back, then released or cut', () => {
  const m = new StopMatcher(['\n\n', 'END']);
  assert.deepEqual(m.push('abc'), { text: 'abc', stopped: false });
  assert.deepEqual(m.push('x\n'), { text: 'x', stopped: false }, 'a lone newline may start "\\n\\n"');
  assert.deepEqual(m.push('y'), { text: '\ny', stopped: false }, 'released once it cannot');
  assert.deepEqual(m.push('E'), { text: '', stopped: false });
  assert.deepEqual(m.push('N'), { text: '', stopped: false });
  assert.deepEqual(m.push('Dzz'), { text: '', stopped: true });
  const n = new StopMatcher(['END']);
  n.push('xEN');
  assert.equal(n.flush(), 'EN', 'held text comes out at the end');
  const first = new StopMatcher(['b', 'abc']);
  assert.deepEqual(first.push('xabcd'), { text: 'x', stopped: true }, 'the earliest match wins ("abc" at 1, before "b" at 2)');
});

test('property: streamed stop matching equals cutting the whole text at the first stop', (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 12 }),
      fc.array(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      (pieces, stops) => {
        const m = new StopMatcher(stops);
        let out = '';
        let stopped = false;
        for (const p of pieces) {
          const r = m.push(p);
          out += r.text;
          if (r.stopped) {
            stopped = true;
            break;
          }
        }
        if (!stopped) out += m.flush();
        const whole = pieces.join('');
        const cuts = stops.map((s) => whole.indexOf(s)).filter((i) => i >= 0);
        const expected = cuts.length === 0 ? whole : whole.slice(0, Math.min(...cuts));
        assert.equal(out, expected);
        assert.equal(stopped, cuts.length > 0);
      },
    ),
    fuzzParams(t),
  );
});

test('stop lists are checked', () => {
  assert.throws(
    () => checkStops(['']),
    (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER',
  );
  assert.throws(
    () => checkStops(Array(17).fill('x')),
    (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER',
  );
  assert.deepEqual(checkStops(['a', 'b']), ['a', 'b']);
});
