// node --test: links' fragments read back (api/static/fragment.js), percent-encoded or not.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFragment, askFragment} from "../../api/static/fragment.js";

test("a question's link reads back, as written or percent-encoded", () => {
  const code = "zAbC_d-09";
  assert.deepEqual(readFragment(askFragment(code)), {kind: "ask", value: code, alternatives: []});
  assert.deepEqual(readFragment("#ask%3D" + code), {kind: "ask", value: code, alternatives: []});
  assert.deepEqual(readFragment("%23ask%3D" + code), {kind: "ask", value: code, alternatives: []});
});

test("a notation is tried as written, then decoded", () => {
  assert.deepEqual(readFragment("#p=K1/british/x"), {kind: "p", value: "K1/british/x", alternatives: []});
  assert.deepEqual(readFragment("#p=K1%2Fbritish%2Fx"), {kind: "p", value: "K1%2Fbritish%2Fx", alternatives: ["K1/british/x"]});
});

test("anything else opens nothing", () => {
  for (const hash of ["", "#", "#rules", "#ask=", "#ask=not base64!", "#other=1", "#p="]) assert.equal(readFragment(hash), null, hash);
  assert.equal(readFragment("#ask=%E0%A4%A"), null);  // a broken escape is not a question
});
