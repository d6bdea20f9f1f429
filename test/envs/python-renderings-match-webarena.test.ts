import assert from 'node:assert/strict';
import { test } from 'node:test';
import { htmlUnescape, pyRepr, pyStr } from '../../src/envs/python.js';

test("repr() quoting and escapes, as in WebArena's tree lines", () => {
  assert.equal(pyRepr('Add to Cart'), "'Add to Cart'");
  assert.equal(pyRepr("Don't"), '"Don\'t"');
  assert.equal(pyRepr('say "hi" it\'s'), "'say \"hi\" it\\'s'");
  assert.equal(pyRepr('a\nb\tc\\'), "'a\\nb\\tc\\\\'");
  assert.equal(pyRepr('x\u00a0y\u200bz\u2028'), "'x\\xa0y\\u200bz\\u2028'");
  assert.equal(pyRepr('café ™ 😀'), "'café ™ 😀'");
});

test('str() of page.evaluate results, as program_html compares them', () => {
  assert.equal(pyStr('plain'), 'plain');
  assert.equal(pyStr(0), '0');
  assert.equal(pyStr(2.5), '2.5');
  assert.equal(pyStr(true), 'True');
  assert.equal(pyStr(null), 'None');
  assert.equal(pyStr(undefined), 'None');
  assert.equal(pyStr(['/a', "it's", 3, false, null]), "['/a', \"it's\", 3, False, None]");
  assert.equal(pyStr({ k: 'v', n: [1] }), "{'k': 'v', 'n': [1]}");
});

test('html.unescape for numeric and common named references', () => {
  assert.equal(htmlUnescape('Tom &amp; Jerry &lt;3 &#39;x&#x27; &quot;q&quot;'), 'Tom & Jerry <3 \'x\' "q"');
  assert.equal(htmlUnescape('a&nbsp;b &copy &bogus; &#128512;'), 'a\u00a0b © &bogus; 😀');
  assert.equal(htmlUnescape('&#150;&#0;'), '–\ufffd');
});
